import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// Linear regexes, enforced (issue 13, item 1). Every pattern the core exports (catalogue, key stages, outer and
// format prefixes) and the whole prefix parser and line recogniser (which run the module-level regexes too)
// get adversarial input: long runs of blanks, tabs, digits and separators after each anchor and inside real
// lines that the pattern matches, repeated prefixes, 1 MB lines. A linear pattern takes milliseconds on each;
// one that backtracks over a run takes seconds or never returns. A regex cannot be interrupted from its own
// thread, so the cases run in a worker that is terminated when one case outlasts the guard.

const ROOT = path.join(__dirname, '..');
/** Far above what a linear pattern needs on these inputs (well under 50 ms), far below a quadratic one. */
const GUARD_MS = 2500;
const PUMP = 50_000;
const BIG = 1 << 20;
let bundle = '';

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'skewscope-regex-'));
  bundle = path.join(dir, 'core.mjs');
  await build({
    stdin: {
      contents: [
        "export { CATALOGUE, KEY_STAGES } from './src/core/catalogue';",
        "export { OUTER_PREFIXES, FORMAT_PREFIXES, parsePrefixes } from './src/core/prefixes';",
        "export { recogniseLine } from './src/core/extract';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile: bundle,
    logLevel: 'warning',
  });
});

interface Hang {
  name: string;
  what: string;
}

/** Runs every case; a case that outlasts the guard is recorded, and the rest of its pattern's cases skipped. */
async function runAll(): Promise<{ hangs: Hang[]; cases: number }> {
  const hangs: Hang[] = [];
  let start = 0;
  for (;;) {
    const w = new Worker(path.join(__dirname, 'regexLinear.worker.mjs'), {
      workerData: {
        bundle,
        start,
        fixtures: path.join(__dirname, 'fixtures'),
        pump: PUMP,
        bigPump: BIG,
        skip: hangs.map((h) => h.name),
      },
    });
    const r = await new Promise<{ end?: number; hang?: Hang & { at: number } }>((resolve, reject) => {
      let cur: Hang & { at: number } = { at: start - 1, name: '', what: '' };
      let timer: ReturnType<typeof setTimeout>;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => resolve({ hang: cur }), GUARD_MS);
      };
      arm();
      w.on('message', (m: { at?: number; name?: string; what?: string; end?: number }) => {
        if (m.end !== undefined) {
          clearTimeout(timer);
          resolve({ end: m.end });
        } else {
          cur = { at: m.at!, name: m.name!, what: m.what! };
          arm();
        }
      });
      w.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    await w.terminate();
    if (r.end !== undefined) return { hangs, cases: r.end };
    hangs.push({ name: r.hang!.name, what: r.hang!.what });
    start = r.hang!.at + 1;
  }
}

describe('every core regex runs in linear time', () => {
  it('returns quickly on long runs of blanks, digits and separators, repeated prefixes and 1 MB lines', async () => {
    const { hangs, cases } = await runAll();
    expect(cases).toBeGreaterThan(5000);
    // Each entry: the pattern, and the first input on which it did not return within the guard.
    expect(hangs).toEqual([]);
  }, 600_000);
});
