import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { buildJob, createExtractor, diagnose, recogniseLine } from '../../src/core/index';
import type { FileExtract, JobModel } from '../../src/core/model';
import { buildTimeline } from '../../src/core/timeline';
import { decodeShare, encodeShare, markdownReport, restore } from '../../src/share/index';

// The core fuzzed with real lines: windows of the fixtures' own log lines (corpus, captured runs, excerpts of
// posted logs), mutated the ways logs really get damaged or forged — bytes flipped, lines cut and spliced,
// prefixes added, number fields replaced by absurd values, CRLF, NUL padding, invalid UTF-8 — and pushed through
// everything a drop goes through: extraction in chunks, the job, the diagnosis, the timeline, the Markdown report
// and a share link made and read back. Properties: nothing throws, every instant is a real date, the result does
// not depend on chunk boundaries, and files dropped in another order give the same result.
//
// Shared by test/fuzz.test.ts (a small seeded budget in `npm test`) and scripts/fuzz.mjs (10⁶ inputs).

// scripts/fuzz.mjs runs this file bundled elsewhere, so it says where the fixtures are.
const FIXTURES = process.env.SKEWSCOPE_FIXTURES ?? path.join(__dirname, '..', 'fixtures');
const SOURCES = ['corpus', 'captured', 'excerpts', 'errorjson'];
/** Dates in the outputs are compared as text; "now" is pinned so a year guess cannot differ between runs. */
export const NOW_MS = Date.UTC(2026, 11, 1, 12, 0, 0);
const MTIME_MS = Date.UTC(2026, 10, 30, 12, 0, 0);

export interface SourceFile {
  /** Path below test/fixtures/<source>/: names carry identity (node3.log, attempt_0/…, error.json). */
  name: string;
  lines: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

let cached: SourceFile[] | null = null;

/** Every log-like fixture file, as lines; error.json files whole (one "line" each, read as a document). */
export function realFiles(): SourceFile[] {
  if (cached) return cached;
  const out: SourceFile[] = [];
  for (const source of SOURCES) {
    const root = path.join(FIXTURES, source);
    for (const p of walk(root).sort()) {
      const rel = path.relative(root, p).split(path.sep).join('/');
      const text = readFileSync(p, 'utf8');
      if (/(?:^|\/)error\.json$/.test(rel)) out.push({ name: rel, lines: [text] });
      else if (/\.(?:log|txt|out|err)$/.test(rel)) out.push({ name: rel, lines: text.split('\n') });
    }
  }
  cached = out;
  return out;
}

/** Values a hostile or damaged line may carry in a number field. */
export const ABSURD_NUMBERS = [
  '0',
  '1',
  '65536',
  '2147483648',
  '4294967296',
  '10000000',
  '99999999999999999999',
  '18446744073709551616',
  '9'.repeat(40),
  '9'.repeat(400),
  '00000000000000000001',
  '1e308',
  '-1',
  '0.000000001',
];

/** Prefixes that wrappers, collectors and pastes put in front of real lines. */
const PREFIXES = [
  '3: ',
  '0: ',
  '99999: ',
  'node3: ',
  'gpu-a03 [stderr] ',
  '[default0]:',
  '[rank1]: ',
  '[rank4294967296]: ',
  '2026-11-29T18:35:49.823610109Z ',
  '9999-12-31T23:59:59.999999999+23:59 ',
  '0000-01-01T00:00:00Z ',
  '2025-03-27 17:31:09.952  host-23 ',
  '[2026-11-30 09:12:44] ',
  '> ',
  '# MAGIC ',
  'E       ',
  'trainer/0 [0]:',
  '(RayTrainWorker pid=40412, ip=10.0.4.11) ',
  'logs/node2.log:120:',
  '[Auto Resume] Info: JobID: 4411 TaskID: 3 ',
  '\u001b[32m',
  '\u001b[1;31mERROR\u001b[0m ',
  '\t',
  ' '.repeat(300),
];

const INVALID_UTF8: number[][] = [
  [0xff],
  [0xc3],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xfe, 0xff],
];

type LineMutation =
  | { kind: 'digits'; at: number; which: number; value: number }
  | { kind: 'truncate'; at: number; cut: number }
  | { kind: 'splice'; at: number; cut: number; file: number; line: number; from: number }
  | { kind: 'prefix'; at: number; prefix: number }
  | { kind: 'text'; at: number; pos: number; text: string }
  | { kind: 'dup'; at: number; times: number }
  | { kind: 'insert'; at: number; file: number; line: number }
  | { kind: 'delete'; at: number };

type ByteMutation =
  | { kind: 'flip'; pos: number; mask: number }
  | { kind: 'nul'; pos: number; count: number }
  | { kind: 'invalid'; pos: number; seq: number }
  | { kind: 'cut'; pos: number };

export interface FuzzFile {
  /** Index of the fixture file the window is taken from, and its file name (possibly another's). */
  file: number;
  name: number;
  start: number;
  length: number;
  lineMutations: LineMutation[];
  byteMutations: ByteMutation[];
  crlf: 'none' | 'all' | 'some';
}

export interface FuzzInput {
  files: FuzzFile[];
  /** Chunk sizes for the two runs compared. */
  chunkA: number;
  chunkB: number;
  /** A permutation seed for the order of files in the second run. */
  order: number;
}

const unit = fc.nat({ max: 1_000_000 });

function lineMutation(): fc.Arbitrary<LineMutation> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('digits' as const),
        at: unit,
        which: fc.nat(8),
        value: fc.nat(ABSURD_NUMBERS.length - 1),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: unit, cut: unit }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('splice' as const),
        at: unit,
        cut: unit,
        file: unit,
        line: unit,
        from: unit,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('prefix' as const), at: unit, prefix: fc.nat(PREFIXES.length - 1) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        at: unit,
        pos: unit,
        text: fc.string({ maxLength: 24, unit: 'binary' }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('dup' as const), at: unit, times: fc.integer({ min: 1, max: 40 }) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: unit, file: unit, line: unit }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: unit }) },
  );
}

function byteMutation(): fc.Arbitrary<ByteMutation> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('flip' as const), pos: unit, mask: fc.integer({ min: 1, max: 255 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('nul' as const), pos: unit, count: fc.integer({ min: 1, max: 64 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('invalid' as const), pos: unit, seq: fc.nat(INVALID_UTF8.length - 1) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), pos: unit }) },
  );
}

export interface InputSize {
  maxFiles: number;
  maxLines: number;
}

export function fuzzInput(size: InputSize = { maxFiles: 4, maxLines: 80 }): fc.Arbitrary<FuzzInput> {
  const file = fc.record({
    file: unit,
    name: unit,
    start: unit,
    length: fc.integer({ min: 1, max: size.maxLines }),
    lineMutations: fc.array(lineMutation(), { maxLength: 6 }),
    byteMutations: fc.array(byteMutation(), { maxLength: 3 }),
    crlf: fc.constantFrom('none' as const, 'none' as const, 'all' as const, 'some' as const),
  });
  return fc.record({
    files: fc.array(file, { minLength: 1, maxLength: size.maxFiles }),
    chunkA: fc.integer({ min: 1, max: 70_000 }),
    chunkB: fc.integer({ min: 7, max: 4096 }),
    order: fc.nat(23),
  });
}

const pick = <T>(xs: readonly T[], k: number): T => xs[k % xs.length]!;

function mutateLine(lines: string[], m: LineMutation, pool: SourceFile[]): void {
  if (lines.length === 0) return;
  const i = m.at % lines.length;
  const l = lines[i]!;
  switch (m.kind) {
    case 'digits': {
      const runs = [...l.matchAll(/\d+/g)];
      if (runs.length === 0) return;
      const r = pick(runs, m.which);
      lines[i] = l.slice(0, r.index) + ABSURD_NUMBERS[m.value] + l.slice(r.index! + r[0].length);
      return;
    }
    case 'truncate':
      lines[i] = l.slice(0, m.cut % (l.length + 1));
      return;
    case 'splice': {
      const other = pick(pick(pool, m.file).lines, m.line);
      lines[i] = l.slice(0, m.cut % (l.length + 1)) + other.slice(m.from % (other.length + 1));
      return;
    }
    case 'prefix':
      lines[i] = PREFIXES[m.prefix] + l;
      return;
    case 'text': {
      const p = m.pos % (l.length + 1);
      lines[i] = l.slice(0, p) + m.text + l.slice(p);
      return;
    }
    case 'dup':
      lines.splice(i, 0, ...new Array<string>(m.times).fill(l));
      return;
    case 'insert':
      lines.splice(i, 0, pick(pick(pool, m.file).lines, m.line));
      return;
    case 'delete':
      lines.splice(i, 1);
      return;
  }
}

function mutateBytes(bytes: Uint8Array, m: ByteMutation): Uint8Array {
  const at = bytes.length === 0 ? 0 : m.pos % (bytes.length + 1);
  const splice = (insert: number[]) => {
    const out = new Uint8Array(bytes.length + insert.length);
    out.set(bytes.subarray(0, at), 0);
    out.set(insert, at);
    out.set(bytes.subarray(at), at + insert.length);
    return out;
  };
  switch (m.kind) {
    case 'flip':
      if (at < bytes.length) bytes[at] = bytes[at]! ^ m.mask;
      return bytes;
    case 'nul':
      return splice(new Array<number>(m.count).fill(0));
    case 'invalid':
      return splice(INVALID_UTF8[m.seq]!);
    case 'cut':
      return bytes.slice(0, at);
  }
}

export interface MaterialFile {
  name: string;
  bytes: Uint8Array;
}

/** The files an input stands for: real windows, mutated. Names are kept unique (a later one gets a suffix). */
export function materialise(input: FuzzInput, pool: SourceFile[] = realFiles()): MaterialFile[] {
  const used = new Set<string>();
  const enc = new TextEncoder();
  return input.files.map((f, k) => {
    const src = pick(pool, f.file);
    let name = pick(pool, f.name).name;
    // A file name is one file: a drop never holds two files under one path.
    while (used.has(name)) name = `${k}/${name}`;
    used.add(name);
    const start = src.lines.length > 1 ? f.start % src.lines.length : 0;
    const lines = src.lines.slice(start, start + f.length);
    for (const m of f.lineMutations) mutateLine(lines, m, pool);
    const text = lines
      .map((l, i) => (f.crlf === 'all' || (f.crlf === 'some' && i % 3 === 1) ? l + '\r' : l))
      .join('\n');
    let bytes: Uint8Array = enc.encode(text);
    for (const m of f.byteMutations) bytes = mutateBytes(bytes, m);
    return { name, bytes };
  });
}

/** A drop as a worker reads it: each file in chunks of `chunk` bytes. */
export function extractAll(files: MaterialFile[], chunk: number): FileExtract[] {
  return files.map((f) => {
    const ex = createExtractor(f.name, { mtimeMs: MTIME_MS });
    for (let i = 0; i < f.bytes.length; i += chunk) ex.push(f.bytes.subarray(i, i + chunk));
    return ex.finish();
  });
}

export interface Outcome {
  job: JobModel;
  /** Everything the views get, as one string: compared between runs. */
  canonical: string;
}

/** The job and what every view derives from it, without the share link: no throw, every instant a date. */
export function analyseLite(extracts: FileExtract[]): JobModel {
  const job = buildJob(extracts, { nowMs: NOW_MS });
  const dx = diagnose(job);
  const timeline = buildTimeline(job, dx.thresholds);
  markdownReport(job, dx);
  checkInstants({ job, timeline });
  return job;
}

/** Everything after extraction, the way the app and the CLI run it. Throws what the core throws. */
export function analyse(extracts: FileExtract[]): Outcome {
  const job = buildJob(extracts, { nowMs: NOW_MS });
  const dx = diagnose(job);
  const zh = diagnose(job, 'zh');
  const timeline = buildTimeline(job, dx.thresholds);
  const md = markdownReport(job, dx);
  const shared = encodeShare(job, dx, { now: NOW_MS, appVersion: 'fuzz', title: 'fuzz' });
  // A link skewscope makes must open: only a job too large for any link may be refused.
  if (!shared.ok && shared.error.code !== 'too-large') throw new Error(`no share link: ${shared.error.message}`);
  let reread: unknown = null;
  if (shared.ok) {
    const back = decodeShare(shared.url);
    if (!back.ok) throw new Error(`a link skewscope made does not read back: ${back.error.message}`);
    const r = restore(back.snapshot);
    reread = {
      findings: r.diagnosis.findings.map((f) => f.title),
      timeline: buildTimeline(r.job, r.diagnosis.thresholds),
    };
  }
  checkInstants({ job, timeline });
  const canonical = JSON.stringify({
    job: { ...job, files: [...job.files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) },
    dx,
    zh: zh.findings.map((f) => f.title + f.detail),
    timeline,
    md,
    url: shared.ok ? shared.url : shared.error.code,
    reread,
  });
  return { job, canonical };
}

const MAX_DATE_MS = 8.64e15;
const TIME_KEY = /(?:Ms|^time|Time|^t0|createdAt)$/;

/** Every number finite, every instant a date the views can print (no `Invalid time value` in a render). */
export function checkInstants(x: unknown, where = ''): void {
  // Catalogue fields are the line's own text (`time : 2026-11-29_18:40:42`), not instants of the model.
  if (where.endsWith('.fields')) return;
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw new Error(`a non-finite number at ${where}`);
    if (TIME_KEY.test(where.split('.').at(-1) ?? '') && Math.abs(x) > MAX_DATE_MS)
      throw new Error(`an instant that is no date at ${where}: ${x}`);
    return;
  }
  if (typeof x === 'string') {
    if (TIME_KEY.test(where.split('.').at(-1) ?? '') && !Number.isFinite(Date.parse(x)))
      throw new Error(`a time that does not parse at ${where}: ${x}`);
    return;
  }
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) checkInstants(x[i], `${where}[${i}]`);
    return;
  }
  if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) checkInstants(v, where ? `${where}.${k}` : k);
}

function permute<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let s = seed + 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  // A permutation seed that happens to keep the order reverses it, so the order always changes when it can.
  return out.length > 1 && out.every((x, i) => x === xs[i]) ? out.reverse() : out;
}

/** The property: no throw; the same result whatever the chunk boundaries and the order of the files. */
export function check(input: FuzzInput, pool: SourceFile[] = realFiles()): void {
  const files = materialise(input, pool);
  const a = analyse(extractAll(files, input.chunkA));
  const b = analyse(extractAll(permute(files, input.order), input.chunkB));
  if (a.canonical !== b.canonical) throw new Error(`the result depends on ${describeDiff(a.canonical, b.canonical)}`);
}

function describeDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `chunking or file order: first difference at ${i}: …${a.slice(Math.max(0, i - 80), i + 80)}… vs …${b.slice(Math.max(0, i - 80), i + 80)}…`;
}

/** The same inputs, one pass: extraction (in chunks), job, diagnosis, timeline, Markdown. */
export function checkLite(input: FuzzInput, pool: SourceFile[] = realFiles()): void {
  analyseLite(extractAll(materialise(input, pool), input.chunkA));
}

export function fuzzProperty(pool: SourceFile[] = realFiles(), size?: InputSize) {
  return fc.property(fuzzInput(size), (input) => check(input, pool));
}

export interface FieldCase {
  /** The fixture file, the 0-based line, the field the catalogue read from it and its value as printed. */
  file: number;
  line: number;
  field: string;
  value: string;
}

/**
 * One real line for each number field of each catalogue entry: the systematic half of "digit runs in number
 * fields" (the random half is the `digits` mutation).
 */
export function fieldCases(pool: SourceFile[] = realFiles()): FieldCase[] {
  const seen = new Set<string>();
  const out: FieldCase[] = [];
  pool.forEach((src, file) =>
    src.lines.forEach((l, line) => {
      if (l.length > 3000) return;
      const r = recogniseLine(l);
      if (!r.id) return;
      for (const [field, value] of Object.entries(r.fields)) {
        const key = `${r.id}/${field === 'val' ? r.fields.key : field}`;
        if (!/\d/.test(value) || seen.has(key)) continue;
        seen.add(key);
        out.push({ file, line, field, value });
      }
    }),
  );
  return out;
}

/** The run the line comes from, with that one field's digits replaced by `absurd`, through everything. */
export function checkField(c: FieldCase, absurd: string, pool: SourceFile[] = realFiles()): void {
  const src = pool[c.file]!;
  const dir = path.dirname(src.name);
  const enc = new TextEncoder();
  const files = pool
    .filter((p) => path.dirname(p.name) === dir)
    .map((p) => {
      let lines = p.lines;
      if (p === src) {
        lines = [...lines];
        const l = lines[c.line]!;
        const at = l.indexOf(c.value);
        lines[c.line] = l.slice(0, at) + c.value.replace(/\d+/g, absurd) + l.slice(at + c.value.length);
      }
      return { name: p.name, bytes: enc.encode(lines.join('\n')) };
    });
  analyse(extractAll(files, 4096));
}
