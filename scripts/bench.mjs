// `npm run bench`: how fast, and in how much memory, does skewscope read large and awkward inputs, compared
// with a fixed-string scan for the same anchor strings (ripgrep) and with just reading the bytes (cat), on the
// same bytes in the same run? A benchmark, not a test: it prints ratios and fails only when a tool cannot be
// run. See docs/benchmark.md.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { boundedDigest, generateRestarts, generateSlurm } from './bench-bounded.mjs';
import { corpusIntact, generateCorpus, readManifest, sameParams, templatesDigest } from './bench-corpus.mjs';
import { freePort, waitForServer } from './lib/preview.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.join(ROOT, 'bench-data');
const CLI_REL = 'dist/cli/skewscope.mjs';
const WEB_DIST = path.join(ROOT, 'dist', 'web');
const TIME_BIN = '/usr/bin/time';
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const SUITES = ['c128', 'c1024', 'one512', 'small4096', 'restarts200', 'restarts2g', 'slurm10k', 'browser'];
const TOOLS = ['cat', 'rg-j1', 'rg', 'cli'];
/** Inputs above this get --runs-large runs (the 2 GB one takes minutes a run). */
const LARGE_BYTES = 1.5 * 2 ** 30;

const USAGE = `usage: node scripts/bench.mjs [options]   (npm run bench -- [options])

  --suites LIST    comma-separated subset of ${SUITES.join(',')} (default: all)
  --tools LIST     subset of ${TOOLS.join(',')} for the file suites (default: all)
  --runs N         timed runs per tool and input; the best is reported (default 3)
  --runs-large N   runs for inputs over 1.5 GiB (default 1)
  --small-mb N     size of the c128 corpus in MiB (default 128), over --files files
  --large-mb N     size of the c1024 corpus in MiB (default 1024), over --files files
  --files N        files of the c128 and c1024 corpora (default 256)
  --one-mb N       size of the one-file input in MiB (default 512)
  --many N         number of files of the many-small-files input (default 4096)
  --many-kb N      size of each of them in KiB (default 64)
  --restarts-mb A,B  sizes (MB = 10^6 bytes) of the two repeated-startup inputs (default 200,2000)
  --slurm-nodes N  nodes in the Slurm file (default 10000)
  --browser-on S   the corpus the browser reads (default c128)
  --seed N         PRNG seed of the generators (default 1)
  --cli FILE       time this CLI bundle instead of ${CLI_REL} (e.g. an older build, for before/after)
  --web-dist DIR   serve this built app instead of dist/web (built when missing or older than src/)
  --regen          regenerate the inputs even if bench-data/ has them
  --timeout S      give up on one run after S seconds, its process group killed (default 120)
  --timeout-large S  the same for inputs over 1.5 GiB (default 900: the 2 GB input takes minutes)
  --json           print the results as JSON on stdout (progress goes to stderr)
  --logs-only      only the suites above: not the digests and browser-views reports that follow them
  -h, --help       this text`;

function parseCli() {
  const { values } = parseArgs({
    options: {
      suites: { type: 'string', default: SUITES.join(',') },
      tools: { type: 'string', default: TOOLS.join(',') },
      runs: { type: 'string', default: '3' },
      'runs-large': { type: 'string', default: '1' },
      'small-mb': { type: 'string', default: '128' },
      'large-mb': { type: 'string', default: '1024' },
      files: { type: 'string', default: '256' },
      'one-mb': { type: 'string', default: '512' },
      many: { type: 'string', default: '4096' },
      'many-kb': { type: 'string', default: '64' },
      'restarts-mb': { type: 'string', default: '200,2000' },
      'slurm-nodes': { type: 'string', default: '10000' },
      'browser-on': { type: 'string', default: 'c128' },
      seed: { type: 'string', default: '1' },
      cli: { type: 'string' },
      'web-dist': { type: 'string' },
      regen: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '120' },
      'timeout-large': { type: 'string', default: '900' },
      json: { type: 'boolean', default: false },
      'logs-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const num = (v, name, min) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) fail(`--${name} must be a number >= ${min}`);
    return n;
  };
  const list = (v, known, name) => {
    const l = v.split(',').map((s) => s.trim());
    for (const t of l) if (!known.includes(t)) fail(`--${name}: unknown ${t} (known: ${known.join(', ')})`);
    return l;
  };
  const restarts = values['restarts-mb'].split(',').map((v) => num(v, 'restarts-mb', 1));
  if (restarts.length !== 2) fail('--restarts-mb takes two sizes, like 200,2000');
  if (!['c128', 'c1024', 'one512', 'small4096'].includes(values['browser-on'])) fail('--browser-on: a file corpus');
  return {
    suites: list(values.suites, SUITES, 'suites'),
    tools: list(values.tools, TOOLS, 'tools'),
    runs: Math.floor(num(values.runs, 'runs', 1)),
    runsLarge: Math.floor(num(values['runs-large'], 'runs-large', 1)),
    smallMiB: num(values['small-mb'], 'small-mb', 1),
    largeMiB: num(values['large-mb'], 'large-mb', 1),
    files: Math.floor(num(values.files, 'files', 1)),
    oneMiB: num(values['one-mb'], 'one-mb', 1),
    many: Math.floor(num(values.many, 'many', 1)),
    manyKiB: num(values['many-kb'], 'many-kb', 1),
    restartsMB: restarts,
    slurmNodes: Math.floor(num(values['slurm-nodes'], 'slurm-nodes', 1)),
    browserOn: values['browser-on'],
    seed: Math.floor(num(values.seed, 'seed', 0)),
    cli: values.cli ? path.resolve(values.cli) : path.join(ROOT, CLI_REL),
    webDist: values['web-dist'] ? path.resolve(values['web-dist']) : null,
    regen: values.regen,
    timeoutMs: num(values.timeout, 'timeout', 1) * 1000,
    timeoutLargeMs: num(values['timeout-large'], 'timeout-large', 1) * 1000,
    json: values.json,
    logsOnly: values['logs-only'],
  };
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

let jsonMode = false;
/** Progress and tables: stdout normally, stderr with --json (stdout then carries only the JSON). */
const say = (...a) => (jsonMode ? console.error(...a) : console.log(...a));

// ---------------------------------------------------------------------------------------------------------------
// Inputs

/** What each suite reads, with the directory its parameters name (so other sizes do not overwrite it). */
function inputsOf(opts) {
  const MiB = 2 ** 20;
  return {
    c128: {
      kind: 'corpus',
      dir: `corpus-${opts.smallMiB}m-${opts.files}f`,
      totalBytes: opts.smallMiB * MiB,
      files: opts.files,
      what: `${opts.smallMiB} MiB over ${opts.files} node logs`,
    },
    c1024: {
      kind: 'corpus',
      dir: `corpus-${opts.largeMiB}m-${opts.files}f`,
      totalBytes: opts.largeMiB * MiB,
      files: opts.files,
      what: `${opts.largeMiB} MiB over ${opts.files} node logs`,
    },
    one512: {
      kind: 'corpus',
      dir: `corpus-${opts.oneMiB}m-1f`,
      totalBytes: opts.oneMiB * MiB,
      files: 1,
      what: `one ${opts.oneMiB} MiB node log`,
    },
    small4096: {
      kind: 'corpus',
      dir: `corpus-${opts.many}x${opts.manyKiB}k`,
      totalBytes: opts.many * opts.manyKiB * 1024,
      files: opts.many,
      what: `${opts.many} node logs of ${opts.manyKiB} KiB`,
    },
    restarts200: {
      kind: 'restarts',
      dir: `restarts-${opts.restartsMB[0]}mb`,
      totalBytes: opts.restartsMB[0] * 1e6,
      what: `${opts.restartsMB[0]} MB of one real startup block repeated (restarts)`,
    },
    restarts2g: {
      kind: 'restarts',
      dir: `restarts-${opts.restartsMB[1]}mb`,
      totalBytes: opts.restartsMB[1] * 1e6,
      what: `${opts.restartsMB[1]} MB of one real startup block repeated (restarts)`,
    },
    slurm10k: {
      kind: 'slurm',
      dir: `slurm-${opts.slurmNodes}n`,
      nodes: opts.slurmNodes,
      what: `one Slurm file holding ${opts.slurmNodes} nodes`,
    },
  };
}

async function ensureInput(name, spec, opts) {
  const dataDir = path.join(DATA, spec.dir);
  const existing = await readManifest(dataDir);
  let wanted;
  if (spec.kind === 'corpus')
    wanted = { totalBytes: spec.totalBytes, files: spec.files, seed: opts.seed, templates: await templatesDigest() };
  else if (spec.kind === 'restarts')
    wanted = { kind: 'restarts', totalBytes: spec.totalBytes, templates: await boundedDigest() };
  else wanted = { kind: 'slurm', nodes: spec.nodes, steps: 20, seed: opts.seed, templates: await boundedDigest() };
  const same =
    spec.kind === 'corpus'
      ? sameParams(existing?.params, wanted)
      : !!existing && JSON.stringify(existing.params) === JSON.stringify(wanted);
  if (!opts.regen && same && (await corpusIntact(dataDir, existing))) return existing;
  say(`${name}: generating ${spec.what} in bench-data/${spec.dir}/`);
  await mkdir(dataDir, { recursive: true });
  const t0 = process.hrtime.bigint();
  const log = (s) => console.error(s);
  let m;
  if (spec.kind === 'corpus')
    m = await generateCorpus({ dataDir, totalBytes: spec.totalBytes, files: spec.files, seed: opts.seed, log });
  else if (spec.kind === 'restarts') m = await generateRestarts({ dataDir, totalBytes: spec.totalBytes, log });
  else m = await generateSlurm({ dataDir, nodes: spec.nodes, seed: opts.seed });
  say(
    `${name}: ${m.files.length} files, ${m.totalBytes} bytes, written in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`,
  );
  return m;
}

// ---------------------------------------------------------------------------------------------------------------
// Running and timing

const haveTime = existsSync(TIME_BIN);

/** Run argv once under /usr/bin/time (CPU time, peak RSS), timed with process.hrtime; stdout 'ignore' or 'capture'. */
async function runOnce(argv, { stdout = 'ignore', timeoutMs, env }) {
  const timeFile = path.join(os.tmpdir(), `skewscope-bench-time-${process.pid}.txt`);
  const full = haveTime ? [TIME_BIN, '-f', '%e %U %S %M', '-o', timeFile, ...argv] : argv;
  const stdio = ['ignore', stdout === 'capture' ? 'pipe' : 'ignore', 'pipe'];
  const t0 = process.hrtime.bigint();
  const child = spawn(full[0], full.slice(1), {
    cwd: ROOT,
    stdio,
    detached: true,
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  const out = [];
  const err = [];
  child.stdout?.on('data', (b) => out.push(b));
  child.stderr.on('data', (b) => err.push(b));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid, 'SIGKILL'); // the process group this run started, nothing else
    } catch {
      /* already gone */
    }
  }, timeoutMs);
  const { code, signal, spawnError } = await new Promise((resolve) => {
    child.on('error', (e) => resolve({ code: null, signal: null, spawnError: e }));
    child.on('close', (c, s) => resolve({ code: c, signal: s }));
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  clearTimeout(timer);
  let stderr = Buffer.concat(err).toString('utf8');
  let cpuS = null;
  let maxRssKb = null;
  let exit = code;
  if (haveTime && !spawnError) {
    try {
      const lines = (await readFile(timeFile, 'utf8')).trim().split('\n');
      const [, user, sys, rss] = lines.at(-1).split(' ').map(Number);
      if (Number.isFinite(user + sys)) cpuS = user + sys;
      if (Number.isFinite(rss)) maxRssKb = rss;
      const sig = lines.find((l) => l.startsWith('Command terminated by signal'));
      if (sig) exit = `signal ${sig.split(' ').at(-1)}`;
    } catch {
      /* time itself was killed */
    }
    await rm(timeFile, { force: true });
  }
  if (spawnError) stderr += String(spawnError);
  if (timedOut) exit = `timeout after ${timeoutMs / 1000} s`;
  else if (signal) exit = `signal ${signal}`;
  // The CLI's heap peaks (SKEWSCOPE_HEAP_STATS=1): one JSON line on its stderr, taken out of what is shown.
  let heap = null;
  const kept = [];
  for (const line of stderr.split('\n')) {
    if (line.startsWith('{"skewscopeHeap":')) {
      try {
        heap = JSON.parse(line).skewscopeHeap;
        continue;
      } catch {
        /* not ours after all */
      }
    }
    kept.push(line);
  }
  stderr = kept.join('\n');
  return {
    ms,
    exit,
    cpuS,
    maxRssKb,
    heap,
    stdout: stdout === 'capture' ? Buffer.concat(out).toString('utf8') : null,
    stderr,
  };
}

async function bench(label, argv, runs, opts, { stdout = 'ignore', expectExit = [0], check, env } = {}) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const load = os.loadavg()[0];
    const r = await runOnce(argv, { stdout, timeoutMs: opts.timeoutMs, env });
    r.load = load;
    results.push(r);
    const extra = [
      `exit ${r.exit}`,
      r.cpuS != null ? `cpu ${r.cpuS.toFixed(2)} s` : null,
      r.maxRssKb != null ? `max RSS ${(r.maxRssKb / 1024).toFixed(0)} MiB` : null,
      r.heap ? `heap peak ${r.heap.mainMiB} MiB main, ${r.heap.workerMiB} MiB per worker (${r.heap.workers})` : null,
      `load ${load.toFixed(1)}`,
    ].filter(Boolean);
    say(`  ${label.padEnd(6)} run ${i + 1}: ${(r.ms / 1000).toFixed(3)} s  (${extra.join(', ')})`);
    if (!expectExit.includes(r.exit))
      say(`    unexpected exit ${r.exit}; stderr:\n${indent(r.stderr.slice(0, 3000) || '(empty)')}`);
    if (check && i === 0) say(`    ${check(r)}`);
    // A run that did not finish says enough; the next ones would not either.
    if (typeof r.exit === 'string' && r.exit.startsWith('timeout')) break;
  }
  const ok = results.filter((r) => expectExit.includes(r.exit));
  const best = ok.length ? ok.reduce((a, b) => (b.ms < a.ms ? b : a)) : null;
  const peak = results.reduce((m, r) => Math.max(m, r.maxRssKb ?? 0), 0);
  const heaps = results.filter((r) => r.heap);
  return {
    tool: label,
    runsS: results.map((r) => +(r.ms / 1000).toFixed(3)),
    exits: results.map((r) => r.exit),
    loadBefore: results.map((r) => +r.load.toFixed(2)),
    bestS: best ? +(best.ms / 1000).toFixed(3) : null,
    cpuS: best?.cpuS != null ? +best.cpuS.toFixed(2) : null,
    maxRssMiB: peak ? +(peak / 1024).toFixed(1) : null,
    // Largest over the runs: the main thread's JS heap, and the largest of one parse worker's.
    heapMainMiB: heaps.length ? Math.max(...heaps.map((r) => r.heap.mainMiB)) : null,
    heapWorkerMiB: heaps.length ? Math.max(...heaps.map((r) => r.heap.workerMiB)) : null,
    ok: !!best,
    failure: best
      ? null
      : `${results.at(-1)?.exit}: ${(results.at(-1)?.stderr ?? '').trim().split('\n').slice(-3).join(' | ').slice(0, 400)}`,
  };
}

const indent = (s) =>
  s
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');

function rgSummary(r) {
  if (r.stdout == null) return '';
  let total = 0;
  let files = 0;
  for (const line of r.stdout.split('\n')) {
    const m = /:?(\d+)$/.exec(line);
    if (m && line) {
      total += Number(m[1]);
      files += 1;
    }
  }
  return `rg found ${total} matching lines in ${files} files`;
}

function bundleSha(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
}

// ---------------------------------------------------------------------------------------------------------------
// One input: cat, rg -j1, rg, the CLI

async function fileSuite(name, spec, manifest, opts0, cliSnapshot, anchorsFile) {
  const opts = manifest.totalBytes > LARGE_BYTES ? { ...opts0, timeoutMs: opts0.timeoutLargeMs } : opts0;
  const logs = path.join(DATA, spec.dir, manifest.logsDir);
  const logsRel = path.relative(ROOT, logs) + '/';
  const files = manifest.files.map((f) => path.join(logsRel, f.path));
  const bytes = manifest.totalBytes;
  const runs = bytes > LARGE_BYTES ? opts.runsLarge : opts.runs;
  say(`\n== ${name}: ${spec.what} (${bytes} bytes, ${files.length} files), ${runs} run(s) each`);
  await runOnce(['sh', '-c', 'cat -- "$@" > /dev/null', 'sh', ...files], { timeoutMs: opts.timeoutMs }); // warm the cache
  const rows = [];
  const rgArgs = ['-c', '-F', '-f', anchorsFile, logsRel];
  const want = (t) => opts.tools.includes(t);
  if (want('cat')) rows.push(await bench('cat', ['sh', '-c', 'cat -- "$@" > /dev/null', 'sh', ...files], runs, opts));
  const rgOpts = { stdout: 'capture', expectExit: [0, 1], check: rgSummary };
  if (want('rg-j1')) rows.push(await bench('rg-j1', ['rg', '-j1', ...rgArgs], runs, opts, rgOpts));
  if (want('rg')) rows.push(await bench('rg', ['rg', ...rgArgs], runs, opts, rgOpts));
  if (want('cli'))
    rows.push(
      // 0: analysed, nothing wrong; 1: analysed and found a failure; 2: the CLI's own error.
      await bench('cli', [process.execPath, cliSnapshot, 'analyze', logsRel, '--json'], runs, opts, {
        expectExit: [0, 1],
        env: { SKEWSCOPE_HEAP_STATS: '1' },
      }),
    );
  const by = Object.fromEntries(rows.map((r) => [r.tool, r]));
  const ratio = (a, b, key = 'bestS') => (by[a]?.[key] && by[b]?.[key] ? +(by[a][key] / by[b][key]).toFixed(2) : null);
  return {
    suite: name,
    input: { what: spec.what, dir: logsRel, bytes, files: files.length },
    runs,
    results: rows,
    ratios: {
      'cli/rg-j1': ratio('cli', 'rg-j1'),
      'cli/rg': ratio('cli', 'rg'),
      'cli/cat': ratio('cli', 'cat'),
      'cli-rss/rg-rss': ratio('cli', 'rg', 'maxRssMiB'),
      // On a loaded machine wall time follows the scheduler; CPU time (user + sys) follows the work.
      'cpu cli/rg-j1': ratio('cli', 'rg-j1', 'cpuS'),
      'cpu cli/rg': ratio('cli', 'rg', 'cpuS'),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The browser: the built app, real files from disk through the folder input, in headless Chromium

function newest(dir) {
  let latest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return latest;
}

/* global window, document, requestAnimationFrame, MutationObserver -- armPage and readPage run in the page */
/** In the page, before the files go in: the change event's time, long tasks, the JS heap every 100 ms. */
function armPage() {
  const w = window;
  w.__bench = { change: null, verdict: null, tasks: [], heapPeak: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__bench.tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask' });
  const sample = () => {
    const m = performance.memory;
    if (m) w.__bench.heapPeak = Math.max(w.__bench.heapPeak, m.usedJSHeapSize);
  };
  w.__bench.sampler = setInterval(sample, 100);
  document.addEventListener('change', () => (w.__bench.change ??= performance.now()), true);
  const seen = () => {
    if (w.__bench.verdict === null && document.querySelector('[data-testid="verdict"]'))
      requestAnimationFrame(() => (w.__bench.verdict = performance.now()));
  };
  new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
}

function readPage() {
  const b = window.__bench;
  clearInterval(b.sampler);
  const during = b.tasks.filter(([start, d]) => start + d >= b.change && start <= b.verdict);
  return {
    seconds: (b.verdict - b.change) / 1000,
    longestTaskMs: during.reduce((m, [, d]) => Math.max(m, d), 0),
    longTasks: during.length,
    heapPeakMiB: b.heapPeak / 2 ** 20,
    verdict: document.querySelector('[data-testid="verdict"]')?.getAttribute('data-verdict') ?? null,
  };
}

async function browserSuite(name, spec, manifest, opts, rgBest) {
  let chromium;
  try {
    ({ chromium } = await import('@playwright/test'));
  } catch {
    fail('@playwright/test is not installed (npm ci)');
  }
  let web = opts.webDist;
  if (!web) {
    web = WEB_DIST;
    const index = path.join(web, 'index.html');
    if (!existsSync(index) || statSync(index).mtimeMs < newest(path.join(ROOT, 'src'))) {
      say('\nbrowser: building the app (npm run build:web)');
      const r = spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) fail('npm run build:web failed');
    }
  }
  const logs = path.join(DATA, spec.dir, manifest.logsDir);
  const runs = opts.runs;
  say(`\n== browser: ${spec.what} (${manifest.totalBytes} bytes) through the folder input, ${runs} run(s)`);
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
  const results = [];
  try {
    await waitForServer(origin, server);
    browser = await chromium.launch({
      headless: true,
      executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--enable-precise-memory-info',
      ],
    });
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(origin);
      await page.getByTestId('drop-zone').waitFor();
      await page.evaluate(armPage);
      const load = os.loadavg()[0];
      await page.getByTestId('folder-input').setInputFiles(logs);
      await page.waitForFunction(() => window.__bench.verdict !== null, null, {
        timeout: opts.timeoutMs,
        polling: 100,
      });
      const r = await page.evaluate(readPage);
      r.load = load;
      r.errors = errors;
      results.push(r);
      say(
        `  browser run ${i + 1}: ${r.seconds.toFixed(3)} s to the verdict (${r.verdict}); longest main-thread task ${r.longestTaskMs.toFixed(0)} ms (${r.longTasks} over 50 ms); page heap peak ${r.heapPeakMiB.toFixed(0)} MiB; load ${load.toFixed(1)}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`,
      );
      await context.close();
    }
    results.chromium = browser.version();
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
  const best = results.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  return {
    suite: name,
    input: { what: spec.what, bytes: manifest.totalBytes, files: manifest.files.length },
    runs,
    chromium: results.chromium,
    web: path.relative(ROOT, web) || web,
    results: results.map((r) => ({
      ...r,
      seconds: +r.seconds.toFixed(3),
      heapPeakMiB: +r.heapPeakMiB.toFixed(1),
      longestTaskMs: Math.round(r.longestTaskMs),
    })),
    best: { seconds: +best.seconds.toFixed(3) },
    longestTaskMs: Math.round(Math.max(...results.map((r) => r.longestTaskMs))),
    heapPeakMiB: +Math.max(...results.map((r) => r.heapPeakMiB)).toFixed(1),
    ratios: { 'browser/rg': rgBest ? +(best.seconds / rgBest).toFixed(2) : null },
  };
}

// ---------------------------------------------------------------------------------------------------------------

function summary(report) {
  const rows = [
    [
      'input',
      'bytes',
      'files',
      'cli s',
      'rg-j1 s',
      'rg s',
      'cat s',
      'cli/rg-j1',
      'cli/rg',
      'cli/cat',
      'cpu cli/rg-j1',
      'cpu cli/rg',
      'cli RSS MiB',
      'RSS cli/rg',
      'heap main/worker MiB',
      'cli exit',
    ],
  ];
  const f = (v, d = 2) => (v == null ? 'n/a' : v.toFixed(d));
  for (const s of report.suites) {
    if (s.suite === 'browser') continue;
    const by = Object.fromEntries(s.results.map((r) => [r.tool, r]));
    rows.push([
      s.suite,
      String(s.input.bytes),
      String(s.input.files),
      by.cli?.ok ? f(by.cli.bestS, 3) : (by.cli?.failure?.split(':')[0] ?? 'n/a'),
      f(by['rg-j1']?.bestS, 3),
      f(by.rg?.bestS, 3),
      f(by.cat?.bestS, 3),
      f(s.ratios['cli/rg-j1'], 1),
      f(s.ratios['cli/rg'], 1),
      f(s.ratios['cli/cat'], 1),
      f(s.ratios['cpu cli/rg-j1'], 1),
      f(s.ratios['cpu cli/rg'], 1),
      f(by.cli?.maxRssMiB, 0),
      f(s.ratios['cli-rss/rg-rss'], 1),
      by.cli?.heapMainMiB != null ? `${f(by.cli.heapMainMiB, 0)}/${f(by.cli.heapWorkerMiB, 0)}` : 'n/a',
      by.cli ? [...new Set(by.cli.exits)].join(',') : 'n/a',
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  let out = rows
    .map(
      (row, i) =>
        row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ') +
        (i === 0 ? `\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : ''),
    )
    .join('\n');
  const b = report.suites.find((s) => s.suite === 'browser');
  if (b)
    out += `\n\nbrowser (${b.input.what}): ${b.best.seconds.toFixed(2)} s change→verdict, browser/rg ${f(b.ratios['browser/rg'], 1)}x, longest main-thread task ${b.longestTaskMs} ms, page heap peak ${b.heapPeakMiB.toFixed(0)} MiB (Chromium ${b.chromium})`;
  return out;
}

async function main() {
  const opts = parseCli();
  jsonMode = opts.json;
  const t0 = Date.now();
  const v = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (v.status !== 0) fail('ripgrep (rg) is not installed (Debian: apt-get install ripgrep)');
  if (!existsSync(opts.cli)) fail(`${path.relative(ROOT, opts.cli)} is missing: run \`npm run build:cli\` first`);
  await mkdir(DATA, { recursive: true });
  // The bundle is self-contained; a copy is timed, so a rebuild during the runs cannot mix two builds.
  const cliSnapshot = path.join(DATA, 'skewscope.snapshot.mjs');
  await copyFile(opts.cli, cliSnapshot);
  const cliSha = bundleSha(cliSnapshot);
  say(
    `cli: ${path.relative(ROOT, opts.cli) || opts.cli} sha256 ${cliSha} (timing a copy, bench-data/skewscope.snapshot.mjs)`,
  );
  // The anchors are what the CLI itself prints: ripgrep looks for exactly the strings that make the CLI look.
  const a = spawnSync(process.execPath, [cliSnapshot, 'anchors'], { encoding: 'utf8' });
  if (a.status !== 0) fail(`\`skewscope anchors\` exited with ${a.status}:\n${a.stderr}`);
  const anchors = a.stdout.split('\n').filter((l) => l.length > 0);
  const anchorsFile = path.join(DATA, 'anchors.txt');
  await writeFile(anchorsFile, anchors.join('\n') + '\n');
  say(`anchors: ${anchors.length} strings from \`skewscope anchors\` -> bench-data/anchors.txt`);
  if (os.loadavg()[0] > os.cpus().length / 2)
    say(
      `note: load average ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} CPUs: other work is running, timings will be noisy`,
    );

  const specs = inputsOf(opts);
  const report = { suites: [] };
  const wanted = opts.suites.filter((s) => s !== 'browser');
  if (opts.suites.includes('browser') && !wanted.includes(opts.browserOn)) wanted.push(opts.browserOn);
  const manifests = {};
  for (const name of wanted) manifests[name] = await ensureInput(name, specs[name], opts);
  const byName = {};
  for (const name of wanted) {
    const s = await fileSuite(name, specs[name], manifests[name], opts, cliSnapshot, path.relative(ROOT, anchorsFile));
    byName[name] = s;
    if (opts.suites.includes(name)) report.suites.push(s);
  }
  if (opts.suites.includes('browser')) {
    const on = byName[opts.browserOn];
    const rg = on.results.find((r) => r.tool === 'rg');
    report.suites.push(
      await browserSuite('browser', specs[opts.browserOn], manifests[opts.browserOn], opts, rg?.bestS ?? null),
    );
  }
  report.cli = { file: path.relative(ROOT, opts.cli) || opts.cli, sha256: cliSha };
  report.anchors = anchors.length;
  report.machine = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadAvgAtEnd: os.loadavg().map((x) => +x.toFixed(2)),
    rg: v.stdout.split('\n')[0],
  };
  report.minutes = +((Date.now() - t0) / 60000).toFixed(1);
  if (opts.json) console.log(JSON.stringify(report, null, 2));
  else {
    say(
      `\n${report.machine.cpus} CPUs (${report.machine.cpuModel}), ${report.machine.memGiB} GiB RAM, node ${report.machine.node}, ${report.machine.rg}; best of the runs, MB = 10^6 bytes; ${report.minutes} min`,
    );
    say(summary(report));
  }
  if (opts.logsOnly) {
    if (report.suites.some((s) => s.results?.some?.((r) => !r.ok))) process.exitCode = 1;
    return;
  }
  // 10,000 digests (issue 12): after the logs, on its own report (stderr under --json, so stdout stays one JSON).
  await (await import('./bench-digests.mjs')).main(['--runs', String(opts.runs), ...(opts.json ? ['--stderr'] : [])]);
  // Jobs of 1,024 and 4,096 nodes × 8 ranks in the browser (issue 10): first paint, longest task, sort, filter.
  await (await import('./bench-views.mjs')).main(['--runs', String(opts.runs), ...(opts.json ? ['--stderr'] : [])]);
  if (report.suites.some((s) => s.results?.some?.((r) => !r.ok))) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
