// 10,000 per-node digests, made from the real corpus, loaded by the CLI and by the dashboard. A measurement, not a
// test: it prints numbers (docs/cluster.md says what they were) and fails only when something cannot be run.
//
//   node scripts/bench-digests.mjs [--count 10000] [--runs 3] [--no-dashboard] [--no-cli] [--web-dist DIR] [--json | --stderr]
// (`npm run bench` runs it last; the dashboard part needs dist/web: npm run build:web.)
//
// 1. Templates: every node of every scenario in test/fixtures/{corpus,captured}, digested by the built CLI
//    (`skewscope digest <the node's files> --node tNNNN`), kept in bench-data/digest-templates/ and made again
//    when the CLI bundle changes.
// 2. The 10,000: template k % T renamed to node nKKKKK (its folder prefix and node name; checksum made again),
//    written to bench-data/digests/.
// 3. CLI: `skewscope analyze bench-data/digests --json > /dev/null` against `cat` of the same files, best of
//    --runs after one warm-up read.
// 4. Dashboard (dist/web through `vite preview` on 127.0.0.1, headless Chromium): the same 10,000 files built in
//    the page from the templates and dropped; from the drop to the verdict, the main thread's long tasks
//    (PerformanceObserver 'longtask', tasks over 50 ms) and the gaps between animation frames.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, waitForServer } from './lib/preview.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'skewscope.mjs');
const WEB = path.join(ROOT, 'dist', 'web', 'index.html');
const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const TEMPLATES = path.join(ROOT, 'bench-data', 'digest-templates');
const DIGESTS = path.join(ROOT, 'bench-data', 'digests');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const say = (s) => process.stderr.write(`${s}\n`);

// ——— digests ———

let crcTable = null;
function crc32Hex(text) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const bytes = Buffer.from(text, 'utf8');
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ((c ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}

/**
 * A template for another node: its folder, its name and the original node's name wherever the text says it (file
 * names, host names on the lines) swapped for the new one, so that 10,000 copies are 10,000 hosts; sealed again.
 */
function renamed(template, token, original, to) {
  let text = template.split(`${token}/`).join(`${to}/`);
  if (/^[A-Za-z][\w.-]*$/.test(original))
    text = text.replace(new RegExp(`(?<![A-Za-z0-9])${original.replace(/[.-]/g, '\\$&')}(?![A-Za-z0-9])`, 'g'), to);
  const body = JSON.parse(text);
  delete body.check;
  body.node.name = to;
  const json = JSON.stringify(body);
  return `${json.slice(0, -1)},"check":"${crc32Hex(json)}"}\n`;
}

function cliSha() {
  return createHash('sha256').update(readFileSync(CLI)).digest('hex').slice(0, 16);
}

function run(args, cwd = ROOT) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code) =>
      resolve({ code, out: Buffer.concat(out).toString(), err: Buffer.concat(err).toString() }),
    );
  });
}

/** Every node of every real scenario, digested once per CLI build. */
async function templates() {
  const sha = cliSha();
  const manifestFile = path.join(TEMPLATES, 'manifest.json');
  if (existsSync(manifestFile)) {
    const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (m.cli === sha)
      return m.templates.map((t) => ({ ...t, text: readFileSync(path.join(TEMPLATES, t.file), 'utf8') }));
  }
  say('bench-digests: digesting every node of the corpus (once per CLI build)…');
  await rm(TEMPLATES, { recursive: true, force: true });
  await mkdir(TEMPLATES, { recursive: true });
  const jobs = [];
  for (const set of ['corpus', 'captured']) {
    const root = path.join(FIXTURES, set);
    for (const scenario of readdirSync(root).sort()) {
      if (!statSync(path.join(root, scenario)).isDirectory()) continue;
      const r = await run(['analyze', scenario, '--json'], root);
      if (r.code === 2) throw new Error(`analyze ${scenario}: ${r.err}`);
      const seen = new Set();
      for (const n of JSON.parse(r.out).nodes) {
        const files = n.files.filter((f) => !seen.has(f));
        files.forEach((f) => seen.add(f));
        if (files.length) jobs.push({ root, scenario, node: n.id, files });
      }
    }
  }
  const out = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const k = next++;
      const j = jobs[k];
      const token = `t${String(k).padStart(4, '0')}`;
      const r = await run(['digest', ...j.files, '--node', token], j.root);
      if (r.code === 2) throw new Error(`digest ${j.scenario} ${j.node}: ${r.err}`);
      const file = `${token}.json`;
      await writeFile(path.join(TEMPLATES, file), r.out);
      out[k] = { file, token, scenario: j.scenario, node: j.node, bytes: Buffer.byteLength(r.out), text: r.out };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(4, os.cpus().length)) }, worker));
  const manifest = { cli: sha, templates: out.map((t) => ({ ...t, text: undefined })) };
  await writeFile(manifestFile, JSON.stringify(manifest, null, 1));
  return out;
}

async function writeDigests(tpl, count) {
  await rm(DIGESTS, { recursive: true, force: true });
  await mkdir(DIGESTS, { recursive: true });
  const width = String(count - 1).length;
  let bytes = 0;
  const files = [];
  for (let i = 0; i < count; i++) {
    const t = tpl[i % tpl.length];
    const name = `n${String(i).padStart(width, '0')}`;
    const text = renamed(t.text, t.token, t.node, name);
    const file = path.join(DIGESTS, `${name}.skewscope.json`);
    await writeFile(file, text);
    bytes += Buffer.byteLength(text);
    files.push(file);
  }
  return { files, bytes };
}

// ——— timing ———

const TIME_BIN = '/usr/bin/time';

/** Wall time, and CPU time (user + sys) and peak RSS from /usr/bin/time when it is there. */
function timed(argv) {
  const timeFile = path.join(os.tmpdir(), `skewscope-bench-digests-${process.pid}.txt`);
  const withTime = existsSync(TIME_BIN);
  const full = withTime ? [TIME_BIN, '-f', '%U %S %M', '-o', timeFile, ...argv] : argv;
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(full[0], full.slice(1), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    const err = [];
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code) => {
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      let cpuS = null;
      let rssMb = null;
      if (withTime) {
        const [user, sys, rss] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
        cpuS = user + sys;
        rssMb = Math.round(rss / 1024);
      }
      resolve({ code, s, cpuS, rssMb, err: Buffer.concat(err).toString() });
    });
  });
}

async function best(name, argv, runs, okCodes) {
  const all = [];
  for (let i = 0; i < runs; i++) {
    const r = await timed(argv);
    if (!okCodes.includes(r.code)) throw new Error(`${name} exited ${r.code}: ${r.err.slice(0, 2000)}`);
    all.push(r);
  }
  const top = all.reduce((a, b) => (b.s < a.s ? b : a));
  return { tool: name, bestS: top.s, cpuS: top.cpuS, rssMb: top.rssMb, runsS: all.map((r) => r.s) };
}

async function benchCli(files, runs) {
  const rel = path.relative(ROOT, DIGESTS);
  const cat = ['sh', '-c', 'cat -- "$@" > /dev/null', 'sh', ...files.map((f) => path.relative(ROOT, f))];
  await timed(cat);
  const catR = await best('cat', cat, runs, [0]);
  const cliR = await best('cli', [process.execPath, CLI, 'analyze', rel, '--json'], runs, [0, 1]);
  const check = spawnSync(process.execPath, [CLI, 'analyze', rel, '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const job = JSON.parse(check.stdout);
  return {
    cat: catR,
    cli: cliR,
    ratio: +(cliR.bestS / catR.bestS).toFixed(1),
    nodes: job.nodes.length,
    verdict: job.verdict,
  };
}

// ——— dashboard ———

/* global document, DataTransfer, DragEvent, requestAnimationFrame -- inPage runs in the page */
async function inPage({ url, index, timeoutMs }) {
  // The very bytes the CLI read, fetched in one piece before the drop and cut into files.
  const blob = await (await fetch(url)).blob();
  const transfer = new DataTransfer();
  for (const [name, from, to] of index)
    transfer.items.add(new File([blob.slice(from, to)], name, { type: 'application/json' }));
  const bytes = blob.size;

  const longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ type: 'longtask', buffered: false });
  // Long animation frames: what each long frame spent in scripts (by handler) and in rendering.
  const loafs = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        loafs.push({
          start: e.startTime,
          ms: e.duration,
          renderMs: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
          scripts: e.scripts
            .filter((x) => x.duration >= 5)
            .map((x) => `${Math.round(x.duration)} ms ${x.invoker} ${x.sourceFunctionName}:${x.sourceCharPosition}`),
        });
    }).observe({ type: 'long-animation-frame', buffered: false });
  } catch {
    // an older Chromium has no long-animation-frame entries
  }
  const frames = [];
  let measuring = true;
  const tick = (t) => {
    frames.push(t);
    if (measuring) requestAnimationFrame(tick);
  };
  await new Promise((r) => requestAnimationFrame(r));
  requestAnimationFrame(tick);
  const started = performance.now();
  const zone = document.querySelector('[data-testid="drop-zone"]');
  for (const type of ['dragenter', 'dragover', 'drop'])
    zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
  const shown = await new Promise((resolve) => {
    const check = () => {
      if (document.querySelector('[data-testid="verdict"]')) resolve(true);
      else if (performance.now() - started > timeoutMs) resolve(false);
      else setTimeout(check, 20);
    };
    check();
  });
  const finished = performance.now();
  // Then the rest of the page: every view of the whole job drawn (the progress panel gone, the node table in).
  const drawn = await new Promise((resolve) => {
    const check = () => {
      const table = document.querySelector('[data-testid="node-table"] tr[data-node]');
      if (
        table &&
        !document.querySelector('[data-testid="progress"]') &&
        !document.querySelector('[data-testid="drawing"]')
      )
        resolve(true);
      else if (performance.now() - started > timeoutMs) resolve(false);
      else setTimeout(check, 20);
    };
    check();
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const done = performance.now();
  await new Promise((r) => setTimeout(r, 300));
  measuring = false;
  observer.disconnect();
  const all = longTasks.filter((t) => t.start + t.duration >= started && t.start <= done);
  const during = all.filter((t) => t.start <= finished);
  const gaps = [];
  for (let i = 1; i < frames.length; i++) gaps.push(frames[i] - frames[i - 1]);
  gaps.sort((a, b) => a - b);
  return {
    bytes,
    shown,
    secondsToVerdict: (finished - started) / 1000,
    verdict: document.querySelector('[data-testid="verdict"]')?.textContent ?? null,
    nodeRows: document.querySelectorAll('[data-testid="node-table"] tr[data-node]').length,
    longTasks: during.length,
    longestTaskMs: during.reduce((m, t) => Math.max(m, t.duration), 0),
    longTasksTotalMs: during.reduce((m, t) => m + t.duration, 0),
    longTaskTimes: all.slice(0, 40).map((t) => [Math.round(t.start - started), Math.round(t.duration)]),
    measures: performance
      .getEntriesByType('measure')
      .filter((m) => m.name.startsWith('skewscope ') && m.startTime >= started)
      .map((m) => [m.name.slice(10), Math.round(m.startTime - started), Math.round(m.duration)]),
    longFrames: loafs
      .filter((f) => f.ms >= 50 && f.start + f.ms >= started && f.start <= done)
      .map((f) => ({ ...f, at: Math.round(f.start - started) })),
    drawn,
    secondsToDrawn: (done - started) / 1000,
    longTasksToDrawn: all.length,
    longestToDrawnMs: all.reduce((m, t) => Math.max(m, t.duration), 0),
    worstFrameGapMs: gaps.length ? gaps[gaps.length - 1] : null,
    medianFrameGapMs: gaps.length ? gaps[Math.floor(gaps.length / 2)] : null,
  };
}

async function benchDashboard(files, web) {
  if (!existsSync(path.join(web, 'index.html')))
    throw new Error(`${web} has no built page: run \`npm run build:web\` first`);
  const { chromium } = await import('@playwright/test');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}/`;
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const server = spawn(
    process.execPath,
    [vite, 'preview', '--outDir', web, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  let browser = null;
  try {
    await waitForServer(origin, server);
    browser = await chromium.launch({
      headless: true,
      executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(origin);
    await page.getByTestId('drop-zone').waitFor();
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const parts = files.map((f) => readFileSync(f));
    const index = [];
    let at = 0;
    for (let i = 0; i < files.length; i++) {
      index.push([`digests/${path.basename(files[i])}`, at, at + parts[i].length]);
      at += parts[i].length;
    }
    const all = Buffer.concat(parts);
    await page.route('**/__bench/digests.bin', (route) =>
      route.fulfill({ status: 200, contentType: 'application/octet-stream', body: all }),
    );
    const r = await page.evaluate(inPage, { url: `${origin}__bench/digests.bin`, index, timeoutMs: 600_000 });
    return { ...r, cores, errors };
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  }
}

// ——— main ———

export async function main(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      count: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '3' },
      'no-dashboard': { type: 'boolean', default: false },
      'web-dist': { type: 'string' },
      'no-cli': { type: 'boolean', default: false },
      frames: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      stderr: { type: 'boolean', default: false },
    },
    strict: false,
  });
  const count = Number(values.count);
  const runs = Number(values.runs);
  if (!existsSync(CLI)) throw new Error('dist/cli/skewscope.mjs is missing: run `npm run build:cli` first');
  const tpl = await templates();
  const sizes = tpl.map((t) => t.bytes).sort((a, b) => a - b);
  say(
    `bench-digests: ${tpl.length} template digests, ${(sizes[0] / 1024).toFixed(1)}–${(sizes.at(-1) / 1024).toFixed(1)} KiB`,
  );
  const { files, bytes } = await writeDigests(tpl, count);
  say(`bench-digests: ${count} digests, ${(bytes / 1e6).toFixed(1)} MB in ${path.relative(ROOT, DIGESTS)}/`);
  const cli = values['no-cli'] ? null : await benchCli(files, runs);
  const report = { count, bytes, templates: tpl.length, cli, dashboard: null };
  const fx = (s) => `${s.toFixed(2)} s`;
  const line = (s) => (values.json || values.stderr ? say(s) : console.log(s));
  line(`\ndigests: ${count} files, ${(bytes / 1e6).toFixed(1)} MB (from ${tpl.length} real nodes of the corpus)`);
  if (cli) {
    const cpu = (r) => (r.cpuS === null ? '' : ` (cpu ${fx(r.cpuS)}, ${r.rssMb} MB peak)`);
    line(
      `cli:     analyze --json ${fx(cli.cli.bestS)}${cpu(cli.cli)}  cat ${fx(cli.cat.bestS)}${cpu(cli.cat)}  ratio cli/cat ${cli.ratio}x`,
    );
    line(
      `         ${cli.nodes} nodes (copies that share a run and a group rank are one node), ${cli.verdict}; best of ${runs}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`,
    );
  }
  const web = values['web-dist'] ?? path.dirname(WEB);
  if (!values['no-dashboard'] && !existsSync(path.join(web, 'index.html')))
    line('page:    not measured: dist/web is missing (npm run build:web, then node scripts/bench-digests.mjs)');
  else if (!values['no-dashboard']) {
    const d = await benchDashboard(files, web);
    report.dashboard = d;
    line(
      `page:    verdict after ${d.secondsToVerdict.toFixed(1)} s${d.shown ? '' : ' (not shown: timed out)'}, ${d.nodeRows} node rows, ${d.cores} cores`,
    );
    line(
      `         long tasks: ${d.longTasks} (${d.longTasksTotalMs.toFixed(0)} ms in all), longest ${d.longestTaskMs.toFixed(0)} ms; worst frame gap ${d.worstFrameGapMs?.toFixed(0)} ms, median ${d.medianFrameGapMs?.toFixed(1)} ms`,
    );
    line(
      `         whole job drawn after ${d.secondsToDrawn.toFixed(1)} s${d.drawn ? '' : ' (not drawn: timed out)'}: ${d.longTasksToDrawn} long tasks from the drop, longest ${d.longestToDrawnMs.toFixed(0)} ms`,
    );
    if (d.longTasks)
      line(
        `         first long tasks (ms after the drop: ms): ${d.longTaskTimes.map(([at, ms]) => `+${at}: ${ms}`).join(', ')}`,
      );
    if (values.frames && d.measures.length)
      line(
        `         app measures over 20 ms (name +at: ms): ${d.measures
          .filter(([, , ms]) => ms >= 20)
          .map(([n, at, ms]) => `${n} +${at}: ${ms}`)
          .join(', ')}`,
      );
    if (values.frames)
      for (const f of d.longFrames)
        line(
          `         frame ${Math.round(f.ms)} ms at +${f.at}: render ${Math.round(f.renderMs)}; ${f.scripts.join('; ')}`,
        );
    if (d.errors.length) line(`         page errors: ${d.errors.join(' | ')}`);
  }
  if (values.json) console.log(JSON.stringify(report, null, 2));
  return report;
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`bench-digests: ${e instanceof Error ? e.message : e}`);
    process.exitCode = 2;
  });
}
