// The large fuzz budget (issue 13, item 6): `npm run fuzz [-- --runs N --seed S --full-every K --no-fields]`.
//
// Every input is a few windows of real fixture lines, mutated (test/fuzz/harness.ts), read in chunks and taken
// through the job, both diagnoses' findings, the timeline and the Markdown report: no throw, every instant a
// date. Every K-th input (default 100) also goes through the full property: a share link made and read back,
// and a second run with other chunk boundaries and the files in another order that must give the same result.
// Then every number field of every catalogue entry, on its real line, is set to each absurd value.
//
// Seeded, so a failure is reproduced by its seed and index. One process, one core; no timing is asserted.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('runs', 1_000_000);
const SEED = arg('seed', 20261201);
const FULL_EVERY = arg('full-every', 100);
const FIELDS = !process.argv.includes('--no-fields');
const BATCH = 10_000;

const out = mkdtempSync(path.join(tmpdir(), 'skewscope-fuzz-'));
const bundle = path.join(out, 'harness.cjs');
await build({
  entryPoints: [path.join(root, 'test/fuzz/harness.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: bundle,
  logLevel: 'warning',
});
process.env.SKEWSCOPE_FIXTURES = path.join(root, 'test/fixtures');
const h = await import(pathToFileURL(bundle).href);
const { default: fc } = await import('fast-check');

const pool = h.realFiles();
const failures = new Map();
const fail = (kind, where, input, e) => {
  const message = String(e?.stack ?? e)
    .split('\n')
    .slice(0, 3)
    .join(' | ')
    .slice(0, 400);
  const f = failures.get(message) ?? { count: 0, kind, where, input };
  f.count += 1;
  failures.set(message, f);
};

const started = Date.now();
let lite = 0;
let full = 0;
for (let b = 0; b * BATCH < RUNS; b++) {
  const n = Math.min(BATCH, RUNS - b * BATCH);
  const inputs = fc.sample(h.fuzzInput(), { numRuns: n, seed: SEED + b });
  inputs.forEach((input, i) => {
    const index = b * BATCH + i;
    try {
      if (index % FULL_EVERY === 0) {
        h.check(input, pool);
        full++;
      } else {
        h.checkLite(input, pool);
        lite++;
      }
    } catch (e) {
      fail('input', { seed: SEED + b, index: i }, input, e);
    }
  });
  const done = Math.min(RUNS, (b + 1) * BATCH);
  const total = [...failures.values()].reduce((k, f) => k + f.count, 0);
  console.log(
    `${done.toLocaleString('en')} inputs in ${((Date.now() - started) / 1000).toFixed(0)} s, ${total} failed`,
  );
  for (const [message, f] of failures) if (f.count === 1 && f.kind === 'input') console.log(`  new: ${message}`);
}

let fieldRuns = 0;
if (FIELDS) {
  for (const c of h.fieldCases(pool))
    for (const absurd of h.ABSURD_NUMBERS) {
      fieldRuns++;
      try {
        h.checkField(c, absurd, pool);
      } catch (e) {
        fail('field', { file: pool[c.file].name, line: c.line + 1, field: c.field, absurd }, null, e);
      }
    }
}

const total = [...failures.values()].reduce((k, f) => k + f.count, 0);
console.log(
  `\n${(lite + full).toLocaleString('en')} inputs (${full.toLocaleString('en')} through the full property), ` +
    `${fieldRuns.toLocaleString('en')} field cases, seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(0)} s: ` +
    `${total} failed`,
);
if (total) {
  const report = path.join(root, 'fuzz-failures.json');
  writeFileSync(
    report,
    JSON.stringify(
      [...failures].map(([message, f]) => ({ message, ...f })),
      null,
      1,
    ),
  );
  for (const [message, f] of failures) console.log(`${f.count} × ${message}\n   at ${JSON.stringify(f.where)}`);
  console.log(`inputs of each kind of failure: ${report}`);
}
rmSync(out, { recursive: true, force: true });
process.exit(total ? 1 : 0);
