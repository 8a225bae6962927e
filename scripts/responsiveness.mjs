// Is the page still responsive while it reads a large drop? Not a test: a measurement to run by hand.
//
//   node scripts/responsiveness.mjs [--mb 200] [--files 8] [--gzip]
//
// Builds the app when dist/ is missing or older than src/, serves dist/web with `vite preview` on 127.0.0.1,
// opens it in headless Chromium, builds about 200 MB of per-node logs in the page from a real log
// (scripts/bench-templates/: its lines, its startup, then its own non-anchor lines repeated as training noise),
// drops them like a user would, and records on the main thread, from the drop to the verdict:
//   - long tasks (PerformanceObserver 'longtask': tasks over 50 ms), and
//   - gaps between requestAnimationFrame callbacks (a frame the page could not paint).
// With --gzip the files are gzipped in the page first (CompressionStream) and dropped as .log.gz, so the workers
// inflate as they parse. Prints the longest task and the worst frame gap, then stops the server and the browser.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { freePort, waitForServer } from './lib/preview.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATE = path.join(ROOT, 'scripts', 'bench-templates', 't113-k8s-healthy.trainjob-worker-0.log');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? Number(process.argv[at + 1]) : fallback;
}
const TOTAL_MB = option('mb', 200);
const FILES = option('files', 8);
const GZIP = process.argv.includes('--gzip');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return latest;
}

function buildIfNeeded() {
  const built = [path.join(ROOT, 'dist', 'web', 'index.html'), path.join(ROOT, 'dist', 'cli', 'skewscope.mjs')];
  const stale = built.some((f) => !existsSync(f) || statSync(f).mtimeMs < newest(path.join(ROOT, 'src')));
  if (!stale) return;
  console.error('responsiveness: building the app (npm run build)…');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** The template's lines, and those without an anchor: they stand for the training noise of a long run. */
function templateParts() {
  const text = readFileSync(TEMPLATE, 'utf8');
  const anchors = execFileSync(process.execPath, [path.join(ROOT, 'dist', 'cli', 'skewscope.mjs'), 'anchors'], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const noise = text.split('\n').filter((line) => line.trim() !== '' && !anchors.some((a) => line.includes(a)));
  return { head: text, noise };
}

/* global document, DataTransfer, DragEvent, requestAnimationFrame -- measureInPage runs in the page */
// Runs in the page: starts the observers, builds the files, drops them, resolves when the verdict is shown.
async function measureInPage({ head, noise, files, bytesPerFile, gzip }) {
  const longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ type: 'longtask', buffered: false });

  const encoder = new TextEncoder();
  let block = '';
  while (block.length < 1 << 20) block += noise.join('\n') + '\n';
  const blockBytes = encoder.encode(block);
  const transfer = new DataTransfer();
  let dropped = 0;
  for (let i = 0; i < files; i++) {
    const parts = [encoder.encode(head)];
    for (let n = 0; n < Math.round(bytesPerFile / blockBytes.length); n++) parts.push(blockBytes);
    let blob = new Blob(parts);
    let name = `trainjob-worker-${i}.log`;
    if (gzip) {
      blob = await new Response(blob.stream().pipeThrough(new CompressionStream('gzip'))).blob();
      name += '.gz';
    }
    dropped += blob.size;
    transfer.items.add(new File([blob], name, { type: gzip ? 'application/gzip' : 'text/plain' }));
  }

  // Frame gaps from the drop on.
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
  for (const type of ['dragenter', 'dragover', 'drop']) {
    zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }
  await new Promise((resolve) => {
    const check = () => {
      if (document.querySelector('[data-testid="verdict"]')) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
  const finished = performance.now();
  // One more frame: the one that paints the verdict counts too.
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  measuring = false;
  observer.disconnect();

  const gaps = [];
  for (let i = 1; i < frames.length; i++) gaps.push(frames[i] - frames[i - 1]);
  gaps.sort((a, b) => a - b);
  const during = longTasks.filter((t) => t.start + t.duration >= started);
  return {
    droppedBytes: dropped,
    secondsToVerdict: (finished - started) / 1000,
    frames: frames.length,
    worstFrameGapMs: gaps.length ? gaps[gaps.length - 1] : null,
    p99FrameGapMs: gaps.length ? gaps[Math.floor(gaps.length * 0.99)] : null,
    medianFrameGapMs: gaps.length ? gaps[Math.floor(gaps.length / 2)] : null,
    longTasks: during.length,
    longestTaskMs: during.reduce((m, t) => Math.max(m, t.duration), 0),
    longTasksTotalMs: during.reduce((m, t) => m + t.duration, 0),
    /** When each long task started, in ms after the drop (the verdict showed at secondsToVerdict). */
    longTaskTimes: during.map((t) => [Math.round(t.start - started), Math.round(t.duration)]),
    worstGapAtMs: (() => {
      let worst = 0;
      let at = 0;
      for (let i = 1; i < frames.length; i++)
        if (frames[i] - frames[i - 1] > worst) [worst, at] = [frames[i] - frames[i - 1], frames[i - 1] - started];
      return Math.round(at);
    })(),
    verdict: document.querySelector('[data-testid="verdict"]')?.textContent ?? null,
  };
}

async function main() {
  buildIfNeeded();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}/`;
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const server = spawn(
    process.execPath,
    [vite, 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  let browser = null;
  const stopAll = async () => {
    if (browser) await browser.close().catch(() => {});
    browser = null;
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => {
        const timer = setTimeout(() => {
          server.kill('SIGKILL');
          r();
        }, 5000);
        server.once('exit', () => {
          clearTimeout(timer);
          r();
        });
      });
    }
  };
  const onSignal = () => {
    void stopAll().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
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
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(origin);
    await page.getByTestId('drop-zone').waitFor();
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const { head, noise } = templateParts();
    const bytesPerFile = (TOTAL_MB * 1024 * 1024) / FILES;
    console.error(
      `responsiveness: dropping ${FILES} files, ${TOTAL_MB} MiB of logs${GZIP ? ' gzipped' : ''}, on ${cores} cores…`,
    );
    const result = await page.evaluate(measureInPage, { head, noise, files: FILES, bytesPerFile, gzip: GZIP });
    const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    console.log(`dropped:             ${FILES} files, ${mb(result.droppedBytes)}${GZIP ? ' (gzip)' : ''}`);
    console.log(`verdict after:       ${result.secondsToVerdict.toFixed(2)} s (${result.verdict})`);
    console.log(`long tasks:          ${result.longTasks} (${result.longTasksTotalMs.toFixed(0)} ms in all)`);
    console.log(`longest task:        ${result.longestTaskMs.toFixed(0)} ms`);
    console.log(
      `long tasks at:       ${result.longTaskTimes.map(([at, ms]) => `${ms} ms at +${at} ms`).join(', ') || '–'} (after the drop)`,
    );
    console.log(
      `frame gaps:          worst ${result.worstFrameGapMs?.toFixed(0)} ms, p99 ${result.p99FrameGapMs?.toFixed(0)} ms, median ${result.medianFrameGapMs?.toFixed(1)} ms over ${result.frames} frames; the worst at +${result.worstGapAtMs} ms`,
    );
    if (errors.length) console.log(`page errors:         ${errors.join(' | ')}`);
  } finally {
    await stopAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main().catch((error) => {
  console.error(`responsiveness: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
});
