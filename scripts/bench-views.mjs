// The browser with a large job: how long a 1,024- and a 4,096-node job (8 ranks each, scripts/bench-job.mjs) take
// to their first verdict and timeline paint (drawn from the files read so far) and to the whole job's, the longest
// main-thread task while they load (the task that hands the page the folder's 4,096 Files is the browser's own
// and is reported apart), how many DOM elements the page holds after, and the time from a click on the node
// table's lag column, and from typing in its filter, to the next frame. A measurement, not a test: it prints
// numbers (and --json), and fails only when the app cannot be run. `npm run bench` runs it after the log suites.
//
//   node scripts/bench-views.mjs [--nodes 1024,4096] [--runs 2] [--web-dist DIR] [--json | --stderr]
//
// The app is served from dist/web (built when missing or older than src/) by `vite preview` on 127.0.0.1; the
// files go in through the page's folder input, as real Files from disk.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateJob } from './bench-job.mjs';
import { formatLongTasks, longTasksOf, startTrace } from './lib/longtasks.mjs';
import { freePort, waitForServer } from './lib/preview.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.join(ROOT, 'bench-data');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

let values;
const say = (s) => (values.json || values.stderr ? console.error(s) : console.log(s));

function newest(dir) {
  let latest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return latest;
}

/* global window, document, requestAnimationFrame, MutationObserver -- armPage and readPage run in the page */
/**
 * In the page before the files go in: the change event (its start and the end of the app's handlers, to tell the
 * browser's own part of that task from ours), long tasks, the first verdict and timeline row painted, and the
 * whole job drawn (the progress panel gone, the node table there).
 */
function armPage() {
  const w = window;
  w.__views = { change: null, handled: null, verdict: null, timeline: null, done: null, tasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__views.tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: false });
  // Long animation frames: what each long frame spent in scripts (by function) and in rendering.
  w.__views.frames = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        w.__views.frames.push({
          start: e.startTime,
          ms: e.duration,
          renderMs: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
          layoutMs: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
          scripts: e.scripts.map((s) => ({
            ms: s.duration,
            forced: s.forcedStyleAndLayoutDuration,
            what: `${s.invokerType} ${s.invoker} ${s.sourceFunctionName}@${(s.sourceURL || '').split('/').pop()}:${s.sourceCharPosition}`,
          })),
        });
    }).observe({ type: 'long-animation-frame', buffered: false });
  } catch {
    // an older Chromium has no long-animation-frame entries
  }
  window.addEventListener('change', () => (w.__views.change ??= performance.now()), true);
  // Bubbling to the window comes after React's listener on its root: the app's handling of the change is done.
  window.addEventListener('change', () => (w.__views.handled ??= performance.now()));
  const seen = () => {
    const v = w.__views;
    if (v.verdict === null && document.querySelector('[data-testid="verdict"]')) {
      v.verdict = -1;
      requestAnimationFrame(() => (v.verdict = performance.now()));
    }
    if (v.timeline === null && document.querySelector('[data-testid="timeline-row"]')) {
      v.timeline = -1;
      requestAnimationFrame(() => (v.timeline = performance.now()));
    }
    const drawn = document.querySelector('[data-testid="node-table"] tr[data-node]');
    if (v.done === null && v.change !== null && drawn && !document.querySelector('[data-testid="progress"]')) {
      v.done = -1;
      requestAnimationFrame(() => (v.done = performance.now()));
    }
  };
  new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
}

function readPage() {
  const v = window.__views;
  // The task the change event ran in: the browser making the folder's Files, then the app's handler.
  const own = ([start, d]) => start <= v.change && start + d >= v.change;
  const during = v.tasks.filter(([start, d]) => start + d >= v.change && start <= v.done);
  const after = during.filter((task) => !own(task));
  const changeTask = during.find(own);
  return {
    verdictS: (v.verdict - v.change) / 1000,
    timelineS: (v.timeline - v.change) / 1000,
    doneS: (v.done - v.change) / 1000,
    longestTaskMs: Math.round(after.reduce((m, [, d]) => Math.max(m, d), 0)),
    longTasks: after.length,
    changeTaskMs: changeTask ? Math.round(changeTask[1]) : 0,
    changeHandlerMs: Math.round(v.handled - v.change),
    domElements: document.getElementsByTagName('*').length,
    frames: v.frames
      .filter((f) => f.start + f.ms >= v.change && f.start <= v.done && f.ms >= 50)
      .map((f) => ({ ...f, at: Math.round(f.start - v.change) })),
  };
}

/**
 * One interaction, timed in the page: from the input event to the frame after the change it makes is in the DOM
 * (`changed` says when), and the longest task meanwhile.
 */
async function interaction(page, selector, act, changed) {
  // An older build (--web-dist) may not have the control.
  if ((await page.locator(selector).count()) === 0) return null;
  await page.evaluate(
    ({ selector, changed }) => {
      const v = window.__views;
      v.tasks = [];
      v.input = null;
      v.frame = null;
      const el = document.querySelector(selector);
      const start = () => (v.input ??= performance.now());
      el.addEventListener('click', start, { capture: true, once: true });
      el.addEventListener('input', start, { capture: true, once: true });
      const seen = () => {
        if (v.frame === null && v.input !== null && document.querySelector(changed)) {
          v.frame = -1;
          requestAnimationFrame(() => (v.frame = performance.now()));
        }
      };
      new MutationObserver(seen).observe(document.body, { childList: true, subtree: true, attributes: true });
    },
    { selector, changed },
  );
  await act();
  await page.waitForFunction(() => window.__views.frame > 0, null, { timeout: 60_000, polling: 50 });
  return page.evaluate(() => {
    const v = window.__views;
    return {
      ms: Math.round(v.frame - v.input),
      longestTaskMs: Math.round(v.tasks.filter(([s]) => s >= v.input - 1).reduce((m, [, d]) => Math.max(m, d), 0)),
    };
  });
}

export async function main(argv = process.argv.slice(2)) {
  ({ values } = parseArgs({
    args: argv,
    options: {
      nodes: { type: 'string', default: '1024,4096' },
      runs: { type: 'string', default: '2' },
      'web-dist': { type: 'string' },
      json: { type: 'boolean', default: false },
      stderr: { type: 'boolean', default: false },
      trace: { type: 'boolean', default: false },
      frames: { type: 'boolean', default: false },
    },
  }));
  const { chromium } = await import('@playwright/test');
  const web = values['web-dist'] ?? path.join(ROOT, 'dist', 'web');
  if (!values['web-dist']) {
    const index = path.join(web, 'index.html');
    if (!existsSync(index) || statSync(index).mtimeMs < newest(path.join(ROOT, 'src'))) {
      say('bench-views: building the app (npm run build:web)');
      const r = spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) throw new Error('npm run build:web failed');
    }
  }
  const sizes = values.nodes.split(',').map(Number);
  const runs = Number(values.runs);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}/`;
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const server = spawn(
    process.execPath,
    [vite, 'preview', '--outDir', web, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = { machine: { cpus: os.cpus().length, load: os.loadavg()[0] }, sizes: [] };
  let browser = null;
  try {
    await waitForServer(origin, server);
    browser = await chromium.launch({
      headless: true,
      executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    report.chromium = browser.version();
    for (const nodes of sizes) {
      const dir = path.join(DATA, `views-${nodes}`);
      rmSync(dir, { recursive: true, force: true });
      const job = generateJob(dir, { nodes, ranks: 8 });
      say(`\n== ${nodes} nodes × 8 ranks (${(job.bytes / 1e6).toFixed(1)} MB), ${runs} run(s)`);
      const results = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(origin);
        await page.getByTestId('drop-zone').waitFor();
        await page.evaluate(armPage);
        const load = os.loadavg()[0];
        if (values.trace) await startTrace(browser, page);
        await page.getByTestId('folder-input').setInputFiles(dir);
        await page.waitForFunction(() => window.__views.done > 0 && window.__views.timeline > 0, null, {
          timeout: 600_000,
          polling: 200,
        });
        await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
        const r = await page.evaluate(readPage);
        // Sorted by lag, the latest node comes first; filtered by the last node's name, it alone is left.
        const lag = '[data-testid="node-table"] th[data-sort="lag"] button';
        r.sort = await interaction(
          page,
          lag,
          () => page.locator(lag).click(),
          `th[data-sort="lag"][aria-sort="descending"]`,
        );
        const filter = '[data-testid="node-filter"]';
        const last = `node${nodes - 1}`;
        r.filter = await interaction(
          page,
          filter,
          () => page.locator(filter).fill(last),
          `[data-testid="node-table"] tbody tr[data-node="${last}"]:first-child:last-child`,
        );
        if (values.frames)
          for (const f of r.frames)
            say(
              `    frame ${Math.round(f.ms)} ms at +${f.at}: render ${Math.round(f.renderMs)} (style+layout ${Math.round(f.layoutMs)}); ${f.scripts
                .filter((x) => x.ms >= 5)
                .map(
                  (x) =>
                    `${Math.round(x.ms)} ms ${x.what}${x.forced >= 5 ? ` (forced layout ${Math.round(x.forced)})` : ''}`,
                )
                .join('; ')}`,
            );
        if (values.trace) {
          const trace = await browser.stopTracing();
          const file = path.join(DATA, `trace-views-${nodes}-${i + 1}.json`);
          writeFileSync(file, trace);
          say(`  trace: ${path.relative(ROOT, file)}`);
          r.trace = longTasksOf(trace, { webDist: web });
          for (const line of formatLongTasks(r.trace)) say(line);
        }
        r.load = +load.toFixed(1);
        r.errors = errors;
        results.push(r);
        say(
          `  run ${i + 1}: first verdict ${r.verdictS.toFixed(2)} s, first timeline paint ${r.timelineS.toFixed(2)} s, whole job drawn ${r.doneS.toFixed(2)} s; longest task ${r.longestTaskMs} ms (${r.longTasks} over 50 ms) besides the change event's (${r.changeTaskMs} ms, of which the app's handler ${r.changeHandlerMs} ms); ${r.domElements} DOM elements; sort by lag ${r.sort ? `${r.sort.ms} ms to the frame (longest task ${r.sort.longestTaskMs} ms)` : '—'}, filter ${r.filter ? `${r.filter.ms} ms (longest task ${r.filter.longestTaskMs} ms)` : '—'}; load ${r.load}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`,
        );
        await context.close();
      }
      report.sizes.push({ nodes, ranks: 8, bytes: job.bytes, results });
    }
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => {
        const t = setTimeout(() => {
          server.kill('SIGKILL');
          r();
        }, 5000);
        server.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
  }
  if (values.json) console.log(JSON.stringify(report, null, 2));
  return report;
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) await main();
