// `npm run bench`: how fast does the CLI read a large multi-node log folder, compared with a fixed-string scan
// for the same anchor strings (ripgrep) and with just reading the bytes (cat)? A benchmark, not a test: it
// prints numbers and fails only when a tool cannot be run. See docs/benchmark.md.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { corpusIntact, generateCorpus, readManifest, sameParams, templatesDigest } from './bench-corpus.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA_REL = 'bench-data';
const DATA = path.join(ROOT, DATA_REL);
const CLI_REL = 'dist/cli/skewscope.mjs';
// The bundle is self-contained; the benchmark runs a copy, so a rebuild during the runs cannot mix two builds.
const CLI_SNAPSHOT_REL = `${DATA_REL}/skewscope.snapshot.mjs`;
const ANCHORS_REL = `${DATA_REL}/anchors.txt`;
const TIME_BIN = '/usr/bin/time';
const TOOLS = ['cat', 'rg-j1', 'rg', 'cli'];

const USAGE = `usage: node scripts/bench.mjs [options]   (npm run bench -- [options])

  --size-mb N      total corpus size in MiB (default 1024)
  --files N        number of per-node log files (default 256)
  --seed N         PRNG seed of the generator (default 1)
  --regen          regenerate the corpus even if bench-data/ already has one with these parameters
  --keep           use the corpus in bench-data/ as it is, whatever parameters it was made with
  --runs N         timed runs per tool; the best is reported (default 3)
  --only LIST      comma-separated subset of ${TOOLS.join(',')} (default: all)
  --anchors FILE   take the anchor strings from FILE instead of \`skewscope anchors\`
  --timeout S      give up on one run after S seconds (default 1200)
  --save-output    after timing, run the CLI once more and keep its JSON in bench-data/cli-output.json
  --generate-only  build (or check) the corpus and stop
  --json           print the results as JSON on stdout (progress goes to stderr)
  -h, --help       this text`;

function parseCli() {
  const { values } = parseArgs({
    options: {
      'size-mb': { type: 'string', default: '1024' },
      files: { type: 'string', default: '256' },
      seed: { type: 'string', default: '1' },
      regen: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      runs: { type: 'string', default: '3' },
      only: { type: 'string', default: TOOLS.join(',') },
      anchors: { type: 'string' },
      timeout: { type: 'string', default: '1200' },
      'save-output': { type: 'boolean', default: false },
      'generate-only': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const num = (name, min) => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < min) fail(`--${name} must be a number >= ${min}`);
    return n;
  };
  if (values.regen && values.keep) fail('--regen and --keep contradict each other');
  const only = values.only.split(',').map((s) => s.trim());
  for (const t of only) if (!TOOLS.includes(t)) fail(`--only: unknown tool ${t} (known: ${TOOLS.join(', ')})`);
  return {
    totalBytes: Math.round(num('size-mb', 1) * 2 ** 20),
    files: Math.floor(num('files', 1)),
    seed: Math.floor(num('seed', 0)),
    runs: Math.floor(num('runs', 1)),
    timeoutMs: num('timeout', 1) * 1000,
    regen: values.regen,
    keep: values.keep,
    only,
    anchors: values.anchors,
    saveOutput: values['save-output'],
    generateOnly: values['generate-only'],
    json: values.json,
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
// Corpus

async function ensureCorpus(opts) {
  const existing = await readManifest(DATA);
  const wanted = {
    totalBytes: opts.totalBytes,
    files: opts.files,
    seed: opts.seed,
    templates: await templatesDigest(),
  };
  if (opts.keep) {
    if (!(await corpusIntact(DATA, existing))) fail('--keep: no complete corpus in bench-data/ (run without --keep)');
    say(`corpus: keeping bench-data/ as it is (${describe(existing)})`);
    return existing;
  }
  if (!opts.regen && sameParams(existing?.params, wanted) && (await corpusIntact(DATA, existing))) {
    say(`corpus: reusing bench-data/ (${describe(existing)})`);
    return existing;
  }
  const why = opts.regen ? '--regen' : existing ? 'parameters or templates changed' : 'none yet';
  say(`corpus: generating ${(opts.totalBytes / 2 ** 20).toFixed(0)} MiB over ${opts.files} files (${why})`);
  await mkdir(DATA, { recursive: true });
  const t0 = process.hrtime.bigint();
  const m = await generateCorpus({ dataDir: DATA, ...wanted, log: (s) => console.error(s) });
  say(`corpus: ${describe(m)}, written in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
  return m;
}

function describe(m) {
  const byTpl = new Map();
  for (const f of m.files) byTpl.set(f.template, (byTpl.get(f.template) ?? 0) + 1);
  return `${m.files.length} files, ${m.totalBytes} bytes (${(m.totalBytes / 2 ** 20).toFixed(1)} MiB), seed ${m.params.seed}, ${byTpl.size} templates`;
}

// ---------------------------------------------------------------------------------------------------------------
// Anchors

async function getAnchors(opts, cli) {
  let text;
  let from;
  if (opts.anchors) {
    text = await readFile(opts.anchors, 'utf8');
    from = opts.anchors;
  } else {
    const r = spawnSync(process.execPath, [cli, 'anchors'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) fail(`\`node ${cli} anchors\` exited with ${r.status ?? r.signal}:\n${r.stderr}`);
    text = r.stdout;
    from = `node ${cli} anchors`;
  }
  const all = text.split('\n').map((l) => l.replace(/\r$/, ''));
  // An empty line in a -f pattern file matches every line: drop it, and say so if it was not just the last one.
  const anchors = all.filter((l) => l.length > 0);
  const blanks = all.length - anchors.length - (all.at(-1) === '' ? 1 : 0);
  if (blanks > 0) say(`anchors: ignored ${blanks} empty line(s) from ${from}`);
  if (anchors.length === 0) fail(`no anchor strings from ${from}`);
  const dupes = anchors.length - new Set(anchors).size;
  await writeFile(path.join(ROOT, ANCHORS_REL), anchors.join('\n') + '\n');
  say(`anchors: ${anchors.length} strings from ${from}${dupes ? ` (${dupes} duplicates)` : ''} -> ${ANCHORS_REL}`);
  return anchors;
}

// ---------------------------------------------------------------------------------------------------------------
// Running and timing

const haveTime = existsSync(TIME_BIN);

/**
 * Run argv once under /usr/bin/time (for CPU time and peak RSS), timing it with process.hrtime.
 * stdout: 'ignore' (= /dev/null), 'capture' or a file path.
 */
async function runOnce(argv, { stdout = 'ignore', timeoutMs }) {
  const timeFile = path.join(os.tmpdir(), `skewscope-bench-time-${process.pid}.txt`);
  const full = haveTime ? [TIME_BIN, '-f', '%e %U %S %M', '-o', timeFile, ...argv] : argv;
  let outFh = null;
  let stdio = ['ignore', stdout === 'capture' ? 'pipe' : 'ignore', 'pipe'];
  if (stdout !== 'ignore' && stdout !== 'capture') {
    outFh = await open(stdout, 'w');
    stdio = ['ignore', outFh.fd, 'pipe'];
  }
  const t0 = process.hrtime.bigint();
  const child = spawn(full[0], full.slice(1), { cwd: ROOT, stdio, detached: true });
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
  await outFh?.close();
  let stderr = Buffer.concat(err).toString('utf8');
  let cpuS = null;
  let maxRssKb = null;
  let exit = code;
  if (haveTime && !spawnError) {
    try {
      const lines = (await readFile(timeFile, 'utf8')).trim().split('\n');
      const [, user, sys, rss] = lines.at(-1).split(' ').map(Number);
      cpuS = user + sys;
      maxRssKb = rss;
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
  return {
    ms,
    exit,
    cpuS,
    maxRssKb,
    stdout: stdout === 'capture' ? Buffer.concat(out).toString('utf8') : null,
    stderr,
  };
}

async function bench(tool, argv, opts, { stdout = 'ignore', expectExit = [0], check } = {}) {
  const runs = [];
  say(`\n${tool}: ${tool === 'cat' ? 'cat <all corpus files> > /dev/null' : argv.join(' ')}`);
  for (let i = 0; i < opts.runs; i++) {
    const load = os.loadavg()[0];
    const r = await runOnce(argv, { stdout, timeoutMs: opts.timeoutMs });
    r.load = load;
    runs.push(r);
    const extra = [
      `exit ${r.exit}`,
      r.cpuS != null ? `cpu ${r.cpuS.toFixed(2)} s` : null,
      r.maxRssKb != null ? `max RSS ${(r.maxRssKb / 1024).toFixed(0)} MiB` : null,
      `load before ${load.toFixed(2)}`,
    ].filter(Boolean);
    say(`  run ${i + 1}: ${(r.ms / 1000).toFixed(3)} s  (${extra.join(', ')})`);
    if (!expectExit.includes(r.exit)) {
      say(`  unexpected exit ${r.exit}; stderr:\n${indent(r.stderr || '(empty)')}`);
    } else if (r.stderr.trim()) {
      say(`  stderr (first 20 lines):\n${indent(r.stderr.split('\n').slice(0, 20).join('\n'))}`);
    }
    if (check && i === 0) say(`  ${check(r)}`);
  }
  const ok = runs.filter((r) => expectExit.includes(r.exit));
  const best = ok.length ? ok.reduce((a, b) => (b.ms < a.ms ? b : a)) : null;
  return {
    tool,
    command: tool === 'cat' ? `sh -c 'cat -- "$@" > /dev/null' <${opts.fileCount} files>` : argv.join(' '),
    runsS: runs.map((r) => +(r.ms / 1000).toFixed(4)),
    exits: runs.map((r) => r.exit),
    loadBefore: runs.map((r) => +r.load.toFixed(2)),
    bestS: best ? +(best.ms / 1000).toFixed(4) : null,
    cpuS: best?.cpuS != null ? +best.cpuS.toFixed(2) : null,
    maxRssMiB: best?.maxRssKb != null ? +(best.maxRssKb / 1024).toFixed(1) : null,
    ok: !!best,
    stderrSample: runs.find((r) => !expectExit.includes(r.exit))?.stderr.slice(0, 4000) ?? null,
  };
}

/** Which CLI build was measured (the bundle can be rebuilt while the benchmark runs). */
function bundleInfo(rel = CLI_REL) {
  const file = path.join(ROOT, rel);
  return {
    sha256: createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16),
    mtime: statSync(file).mtime.toISOString(),
  };
}

const indent = (s) =>
  s
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');

function rgSummary(r, fileCount) {
  if (r.stdout == null) return '';
  let total = 0;
  let files = 0;
  for (const line of r.stdout.split('\n')) {
    const m = /:(\d+)$/.exec(line);
    if (m) {
      total += Number(m[1]);
      files += 1;
    }
  }
  return `rg found ${total} matching lines in ${files} of ${fileCount} files`;
}

// ---------------------------------------------------------------------------------------------------------------

function table(results, bytes, files) {
  const rows = [['tool', 'bytes', 'files', 'best s', 'MB/s', 'cpu s', 'max RSS MiB', 'runs (s)', 'exit']];
  for (const r of results) {
    rows.push([
      r.tool,
      String(bytes),
      String(files),
      r.bestS != null ? r.bestS.toFixed(3) : 'n/a',
      r.bestS ? (bytes / 1e6 / r.bestS).toFixed(1) : 'n/a',
      r.cpuS != null ? r.cpuS.toFixed(2) : 'n/a',
      r.maxRssMiB != null ? r.maxRssMiB.toFixed(0) : 'n/a',
      r.runsS.map((s) => s.toFixed(3)).join(' / '),
      [...new Set(r.exits)].join(','),
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows
    .map((row, i) => {
      const line = row.map((cell, c) => (c === 0 || c === 7 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])));
      return line.join('  ') + (i === 0 ? `\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : '');
    })
    .join('\n');
}

async function main() {
  const opts = parseCli();
  jsonMode = opts.json;
  const manifest = await ensureCorpus(opts);
  if (opts.generateOnly) return;
  const logsRel = `${DATA_REL}/${manifest.logsDir}/`;
  const files = manifest.files.map((f) => `${logsRel}${f.path}`);
  opts.fileCount = files.length;
  const bytes = manifest.totalBytes;

  const wants = (t) => opts.only.includes(t);
  const needRg = wants('rg') || wants('rg-j1');
  if (needRg) {
    const v = spawnSync('rg', ['--version'], { encoding: 'utf8' });
    if (v.status !== 0) fail('ripgrep (rg) is not installed (Debian: apt-get install ripgrep)');
    // rg must read the same files the CLI reads (bench-data/ is gitignored; an explicit path is still searched).
    const listed = spawnSync('rg', ['--files', logsRel], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    const n = listed.stdout.split('\n').filter(Boolean).length;
    if (n !== files.length) fail(`rg --files sees ${n} files under ${logsRel}, the manifest lists ${files.length}`);
  }
  // Snapshot the CLI bundle once; anchors and every timed run use the same build.
  let cliBuild = null;
  if (wants('cli') || (needRg && !opts.anchors)) {
    if (!existsSync(path.join(ROOT, CLI_REL))) fail(`${CLI_REL} is missing: run \`npm run build:cli\` first`);
    await copyFile(path.join(ROOT, CLI_REL), path.join(ROOT, CLI_SNAPSHOT_REL));
    cliBuild = { sha256: bundleInfo(CLI_SNAPSHOT_REL).sha256, built: bundleInfo().mtime, snapshot: CLI_SNAPSHOT_REL };
    say(
      `cli build: ${CLI_REL} sha256 ${cliBuild.sha256}, built ${cliBuild.built}; running a copy, ${CLI_SNAPSHOT_REL}`,
    );
  }
  const anchors = needRg || opts.anchors ? await getAnchors(opts, CLI_SNAPSHOT_REL) : null;

  const load = os.loadavg()[0];
  if (load > os.cpus().length / 2) {
    say(
      `\nnote: load average ${load.toFixed(2)} on ${os.cpus().length} CPUs: other work is running, timings will be noisy`,
    );
  }
  // One untimed pass so that every timed tool starts from a warm page cache.
  say('\nwarm-up: reading the corpus once (untimed)');
  await runOnce(['sh', '-c', 'cat -- "$@" > /dev/null', 'sh', ...files], { timeoutMs: opts.timeoutMs });

  const results = [];
  const rgArgs = ['-c', '-F', '-f', ANCHORS_REL, logsRel];
  if (wants('cat')) results.push(await bench('cat', ['sh', '-c', 'cat -- "$@" > /dev/null', 'sh', ...files], opts));
  if (wants('rg-j1')) {
    results.push(
      await bench('rg-j1', ['rg', '-j1', ...rgArgs], opts, {
        stdout: 'capture',
        expectExit: [0, 1],
        check: (r) => rgSummary(r, files.length),
      }),
    );
  }
  if (wants('rg')) {
    results.push(
      await bench('rg', ['rg', ...rgArgs], opts, {
        stdout: 'capture',
        expectExit: [0, 1],
        check: (r) => rgSummary(r, files.length),
      }),
    );
  }
  let cliOutput = null;
  if (wants('cli')) {
    // 0: analysed, nothing wrong; 1: analysed and found a failure (expected here); 2: the CLI's own error.
    results.push(
      await bench('cli', [process.execPath, CLI_SNAPSHOT_REL, 'analyze', logsRel, '--json'], opts, {
        expectExit: [0, 1],
      }),
    );
    if (existsSync(path.join(ROOT, CLI_REL)) && bundleInfo().sha256 !== cliBuild.sha256) {
      say(`note: ${CLI_REL} was rebuilt while the benchmark ran; the numbers are for build ${cliBuild.sha256}`);
      cliBuild.rebuiltDuringRun = true;
    }
    if (opts.saveOutput) {
      const out = path.join(DATA, 'cli-output.json');
      const r = await runOnce([process.execPath, CLI_SNAPSHOT_REL, 'analyze', logsRel, '--json'], {
        stdout: out,
        timeoutMs: opts.timeoutMs,
      });
      cliOutput = { file: path.relative(ROOT, out), exit: r.exit };
      say(`\ncli output saved to ${cliOutput.file} (exit ${r.exit})`);
    }
  }

  const best = Object.fromEntries(results.map((r) => [r.tool, r.bestS]));
  const ratio = (a, b) => (best[a] && best[b] ? +(best[a] / best[b]).toFixed(2) : null);
  const ratios = {
    'cli/rg-j1': ratio('cli', 'rg-j1'),
    'cli/rg': ratio('cli', 'rg'),
    'cli/cat': ratio('cli', 'cat'),
    'rg-j1/cat': ratio('rg-j1', 'cat'),
  };
  const machine = {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadAvgAtEnd: os.loadavg().map((x) => +x.toFixed(2)),
    rg: needRg ? spawnSync('rg', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] : null,
  };

  if (opts.json) {
    const report = {
      corpus: { dir: logsRel, bytes, files: files.length, params: manifest.params },
      anchors: anchors?.length ?? null,
      runsPerTool: opts.runs,
      results,
      ratios,
      cliBuild,
      cliOutput,
      machine,
    };
    console.log(JSON.stringify(report, null, 2));
  } else {
    say(`\n${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memGiB} GiB RAM, node ${machine.node}`);
    say(`best of ${opts.runs} runs each; MB = 10^6 bytes; cpu = user+sys of the best run\n`);
    say(table(results, bytes, files.length));
    const fx = (v) => (v == null ? 'n/a' : `${v.toFixed(1)}x`);
    say(
      `\nratio cli/rg(-j1): ${fx(ratios['cli/rg-j1'])}  cli/rg: ${fx(ratios['cli/rg'])}  cli/cat: ${fx(ratios['cli/cat'])}`,
    );
  }
  await (await import('./bench-digests.mjs')).main(['--runs', String(opts.runs), ...(opts.json ? ['--stderr'] : [])]);
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
