// Worker of test/regexLinear.test.ts: builds the adversarial cases (deterministically, the same in every
// restart) and runs them from `start` on, reporting each before it runs it, so the test's hang guard knows
// which one did not come back.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { bundle, start, fixtures, pump, bigPump, skip } = workerData;
const core = await import(bundle);

const walk = (d) =>
  readdirSync(d)
    .sort()
    .flatMap((f) => {
      const p = path.join(d, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
// Real lines: every recogniser is pumped inside lines it actually matches.
const LINES = [
  ...new Set(
    walk(fixtures)
      .filter((f) => !/\.(json|md)$/.test(f))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n')),
  ),
].filter((l) => l.length > 3 && l.length < 400);

const cls = (c) => (c === undefined ? '^' : /\s/.test(c) ? 's' : /\d/.test(c) ? 'd' : /\w/.test(c) ? 'w' : c);
const KILL = ['', '\u0001', 'x', ']', '\n'];
const UNITS = [
  ' ',
  '\t',
  '0',
  '9',
  'a',
  'Z',
  '_',
  '.',
  ':',
  '-',
  '/',
  '=',
  ',',
  '"',
  "'",
  '[',
  ']',
  '(',
  '\\',
  ' 0',
  '0 ',
  ': ',
  ' :',
  'a0',
  '0.',
  'a.',
];
const REPEATED = [
  '[rank0]:',
  '[rank0]: ',
  '[default0]:',
  '0: ',
  'node1: ',
  '[c10d] ',
  'I1129 ',
  '2026-11-29T18:35:06.758216632Z ',
];

/** name, what it runs on, the function that runs one input. */
function subjects() {
  const out = [];
  for (const e of core.CATALOGUE) {
    const re = new RegExp(e.pattern);
    out.push({
      name: `catalogue ${e.id}`,
      run: (s) => re.exec(s),
      real: (l) => (e.anchors.some((a) => l.includes(a)) ? core.parsePrefixes(l).msg : null),
      seeds: e.anchors,
    });
  }
  core.KEY_STAGES.forEach((k) => {
    const re = new RegExp(k.re);
    out.push({ name: `key stage ${k.stage} ${k.re}`, run: (s) => re.exec(s), real: (l) => l, seeds: [''] });
  });
  for (const [group, list] of [
    ['outer prefix', core.OUTER_PREFIXES],
    ['format prefix', core.FORMAT_PREFIXES],
  ])
    for (const r of list) out.push({ name: `${group} ${r.id}`, run: (s) => r.re.exec(s), real: (l) => l, seeds: [''] });
  // Whole paths: every module-level regex on the way (prefix peeling, tags, trailing blanks, frames, catalogue).
  out.push({ name: 'parsePrefixes', run: (s) => core.parsePrefixes(s), real: (l) => l, seeds: [''], all: true });
  out.push({ name: 'recogniseLine', run: (s) => core.recogniseLine(s), real: (l) => l, seeds: [''], all: true });
  return out;
}

function* cases() {
  for (const sub of subjects()) {
    // Generic: a seed (anchor) followed by a long run of one unit, then something that does not fit.
    for (const seed of sub.seeds.slice(0, 2))
      for (const u of UNITS)
        for (const k of KILL)
          yield [
            sub,
            `${JSON.stringify(seed)} + ${JSON.stringify(u)}×${pump} + ${JSON.stringify(k)}`,
            () => seed + u.repeat(Math.ceil(pump / u.length)) + k,
          ];
    // The seed itself repeated: every occurrence is a start for an unanchored pattern.
    for (const seed of sub.seeds.slice(0, 2))
      if (seed)
        for (const k of KILL)
          yield [
            sub,
            `${JSON.stringify(seed)} repeated, then ${JSON.stringify(k)}`,
            () => seed.repeat(Math.ceil(pump / seed.length)) + k,
          ];
    for (const r of REPEATED)
      yield [sub, `${JSON.stringify(r)} repeated`, () => r.repeat(Math.ceil(pump / r.length)) + 'x'];
    // Real lines the subject matches, pumped at every change of character class.
    let n = 0;
    for (const l of LINES) {
      if (n >= 2) break;
      const s = sub.real(l);
      if (s === null || (!sub.all && !sub.run(s))) continue;
      if (sub.all && n === 0 && !/\s{2}|\d/.test(s)) continue;
      n++;
      for (let i = 0; i < s.length; i++) {
        if (cls(s[i]) === cls(s[i - 1])) continue;
        for (const u of [s[i], s.slice(i, i + 2)])
          for (const tail of [s.slice(i), '\u0001'])
            yield [
              sub,
              `${JSON.stringify(s.slice(0, 70))} pumped at ${i} with ${JSON.stringify(u)}×${pump}, then ${JSON.stringify(tail.slice(0, 12))}`,
              () => s.slice(0, i) + u.repeat(Math.ceil(pump / u.length)) + tail,
            ];
      }
    }
    // 1 MB lines: blanks, digits, separators.
    for (const u of [' ', '0', ' 0', ':', '[rank0]: '])
      yield [
        sub,
        `1 MB of ${JSON.stringify(u)} then "x"`,
        () => (sub.seeds[0] ?? '') + u.repeat(Math.ceil(bigPump / u.length)) + 'x',
      ];
  }
}

let i = 0;
for (const [sub, what, make] of cases()) {
  if (i >= start && !skip.includes(sub.name)) {
    const input = make();
    parentPort.postMessage({ at: i, name: sub.name, what });
    sub.run(input);
  }
  i++;
}
parentPort.postMessage({ end: i });
