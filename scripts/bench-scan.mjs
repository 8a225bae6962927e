// `node scripts/bench-scan.mjs [corpus-dir]`: the anchor search on its own, two ways, on the same bytes in one
// process: the core's Wu–Manber automaton over the raw bytes (src/core/scan/anchorSearch.ts, what the scanner
// uses) and one compiled RegExp (an alternation of the literals, longest first) over a one-byte (latin1) view
// of each chunk, made in plain JS (TextDecoder) and, as the best case for the RegExp, with Node's
// Buffer#latin1Slice. Each finds the lines holding an anchor, skipping to the next line after a hit, and the
// hit counts must agree. Also: counting newlines. CPU time of the best of 5 passes; MB = 10^6 bytes.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2] ?? path.join(ROOT, 'bench-data', 'corpus-1024m-256f', 'logs');
const LIMIT = 160 * 2 ** 20;
const CHUNK = 2 ** 20;

const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'skewscope-scan-')), 'core.mjs');
await build({
  stdin: {
    contents:
      "export { AnchorSearch } from './src/core/scan/anchorSearch'; export { CATALOGUE } from './src/core/catalogue';",
    resolveDir: ROOT,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  outfile: out,
  logLevel: 'warning',
});
const { AnchorSearch, CATALOGUE } = await import(out);

const walk = (d) =>
  readdirSync(d)
    .sort()
    .flatMap((f) => {
      const p = path.join(d, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
const chunks = [];
let total = 0;
for (const f of walk(dir)) {
  if (total >= LIMIT) break;
  const b = readFileSync(f);
  for (let i = 0; i < b.length && total < LIMIT; i += CHUNK) {
    const c = b.subarray(i, Math.min(b.length, i + CHUNK));
    chunks.push({ buf: c, u8: new Uint8Array(c.buffer, c.byteOffset, c.length) });
    total += c.length;
  }
}

function time(name, fn) {
  let best = Infinity;
  let result;
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    result = fn();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  console.log(`${name.padEnd(44)} ${(total / 1e6 / (best / 1000)).toFixed(0).padStart(6)} MB/s  (${result} lines)`);
  return result;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const latin1 = new TextDecoder('latin1');
const sets = {
  // Once the first step and the launch are seen (most of a long log): what the CLI searches for.
  steady: CATALOGUE.filter((e) => !e.once && !e.untilLaunch).flatMap((e) => e.anchors),
  all: CATALOGUE.flatMap((e) => e.anchors),
};
console.log(`${(total / 1e6).toFixed(0)} MB of ${dir}, chunks of 1 MiB, node ${process.version}`);
for (const [name, anchors] of Object.entries(sets)) {
  const wm = new AnchorSearch(anchors);
  // Literals as latin1 strings of their UTF-8 bytes, so positions in the one-byte view are byte positions.
  const re = new RegExp(
    [...new Set(anchors)]
      .sort((a, b) => b.length - a.length)
      .map((a) => escape(String.fromCharCode(...new TextEncoder().encode(a))))
      .join('|'),
    'g',
  );
  const viaRegExp = (view) => () => {
    let n = 0;
    for (const c of chunks) {
      const s = view(c);
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(s)) !== null) {
        n++;
        const le = s.indexOf('\n', m.index);
        if (le < 0) break;
        re.lastIndex = le + 1;
      }
    }
    return n;
  };
  const a = time(`${name} (${anchors.length}): Wu–Manber over the bytes`, () => {
    let n = 0;
    for (const { u8 } of chunks) {
      let p = 0;
      for (;;) {
        const s = wm.first(u8, p, u8.length);
        if (s < 0) break;
        n++;
        const le = u8.indexOf(10, s);
        if (le < 0) break;
        p = le + 1;
      }
    }
    return n;
  });
  const b = time(
    `${name}: RegExp over TextDecoder('latin1')`,
    viaRegExp((c) => latin1.decode(c.u8)),
  );
  const d = time(
    `${name}: RegExp over Buffer#latin1Slice (Node only)`,
    viaRegExp((c) => c.buf.latin1Slice(0, c.buf.length)),
  );
  if (a !== b || a !== d) console.log(`  counts differ: ${a} / ${b} / ${d}`);
}
time('newlines: Uint8Array#indexOf one by one', () => {
  let n = 0;
  for (const { u8 } of chunks) for (let i = u8.indexOf(10); i >= 0; i = u8.indexOf(10, i + 1)) n++;
  return n;
});
