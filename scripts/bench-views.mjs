// The browser with a large job: how long a 1,024- and a 4,096-node job (8 ranks each, scripts/bench-job.mjs) take
// to their verdict and their first timeline paint, the longest main-thread task while they load, how many DOM
// elements the page holds after, and how long the main thread is busy when the node table is sorted and filtered.
// A measurement, not a test: it prints numbers (and --json), and fails only when the app cannot be run.
//
//   node scripts/bench-views.mjs [--nodes 1024,4096] [--runs 2] [--web-dist DIR] [--json]
//
// The app is served from dist/web (built when missing or older than src/) by `vite preview` on 127.0.0.1; the
// files go in through the page's folder input, as real Files from disk.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateJob } from './bench-job.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.join(ROOT, 'bench-data');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '1024,4096' },
    runs: { type: 'string', default: '2' },
    'web-dist': { type: 'string' },
    json: { type: 'boolean', default: false },
    stderr: { type: 'boolean', default: false },
  },
});
const say = (s) => (values.json || values.stderr ? console.error(s) : console.log(s));

function newest(dir) {
  let latest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return latest;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer at ${url} within 60 s`);
}

/* global window, document, requestAnimationFrame, MutationObserver -- armPage and readPage run in the page */
/** In the page before the files go in: the change event, long tasks, the first verdict and timeline row painted. */
function armPage() {
  const w = window;
  w.__views = { change: null, verdict: null, timeline: null, tasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__views.tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: false });
  document.addEventListener('change', () => (w.__views.change ??= performance.now()), true);
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
  };
  new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
}

function readPage() {
  const v = window.__views;
  const during = v.tasks.filter(([start, d]) => start + d >= v.change);
  return {
    verdictS: (v.verdict - v.change) / 1000,
    timelineS: (v.timeline - v.change) / 1000,
    longestTaskMs: Math.round(during.reduce((m, [, d]) => Math.max(m, d), 0)),
    longTasks: during.length,
    domElements: document.getElementsByTagName('*').length,
  };
}

/** Busy main-thread time of one interaction: long tasks from just before it until the page is idle again. */
async function interaction(page, act) {
  await page.evaluate(() => (window.__views.tasks = []));
  const t0 = await page.evaluate(() => performance.now());
  await act();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const ms = await page.evaluate(() => performance.now());
  const tasks = await page.evaluate(() => window.__views.tasks);
  return { ms: Math.round(ms - t0), longestTaskMs: Math.round(tasks.reduce((m, [, d]) => Math.max(m, d), 0)) };
}

async function main() {
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
        await page.getByTestId('folder-input').setInputFiles(dir);
        await page.waitForFunction(() => window.__views.timeline > 0 && window.__views.verdict > 0, null, {
          timeout: 300_000,
          polling: 200,
        });
        await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
        const r = await page.evaluate(readPage);
        const table = page.getByTestId('node-table');
        const sortBy = table.locator('th button').nth(2);
        r.sort = (await sortBy.count()) ? await interaction(page, () => sortBy.click()) : null;
        const filter = table.getByRole('searchbox');
        r.filter = (await filter.count()) ? await interaction(page, () => filter.fill('node40')) : null;
        r.load = +load.toFixed(1);
        r.errors = errors;
        results.push(r);
        say(
          `  run ${i + 1}: verdict ${r.verdictS.toFixed(2)} s, first timeline paint ${r.timelineS.toFixed(2)} s, longest task ${r.longestTaskMs} ms (${r.longTasks} over 50 ms), ${r.domElements} DOM elements; sort ${r.sort ? `${r.sort.ms} ms (longest task ${r.sort.longestTaskMs})` : '—'}, filter ${r.filter ? `${r.filter.ms} ms (longest task ${r.filter.longestTaskMs})` : '—'}; load ${r.load}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`,
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

await main();
