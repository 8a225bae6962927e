import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_PREFIXES, OUTER_PREFIXES } from '../src/core/prefixes';
import { RowSearch } from '../src/core/prefixes/rowSearch';

// The prefix rows are searched as one alternation (src/core/prefixes/rowSearch.ts). It must answer exactly
// what the rows tried one by one answer — the same row, the same match, the same groups — on every real line
// of the fixtures, on the rows' own samples and on lines built to sit between two rows.

const FIXTURES = path.join(__dirname, 'fixtures');

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = path.join(dir, f);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
}

const LINES = [
  ...new Set(
    files(FIXTURES)
      .filter((f) => statSync(f).size < 4 << 20)
      .flatMap((f) => readFileSync(f, 'utf8').split(/\r?\n/))
      .filter((l) => l.length > 0),
  ),
];
const ROWS = [...OUTER_PREFIXES, ...FORMAT_PREFIXES];
const SAMPLES = ROWS.flatMap((r) => r.samples);
// A row's text behind another's, behind a wrapper, cut short, doubled: where the first and the earliest differ.
const MIXED = SAMPLES.flatMap((s, i) => {
  const o = SAMPLES[(i * 7 + 3) % SAMPLES.length]!;
  return [`job-7 | ${s}`, `${s.slice(0, 20)}`, `${o.slice(0, 30)} ${s}`, `${s} ${o}`, `[x] ${s}`, ` ${s}`];
});
const ALL = [...LINES, ...SAMPLES, ...MIXED];

function same(a: RegExpExecArray | null, b: RegExpExecArray | null): void {
  expect(a === null).toBe(b === null);
  if (a && b) {
    expect(a.index).toBe(b.index);
    expect([...a]).toEqual([...b]);
    expect({ ...a.groups }).toEqual({ ...b.groups });
  }
}

function firstEach(res: RegExp[], text: string, from: number): { k: number; m: RegExpExecArray } | null {
  for (let k = from; k < res.length; k++) {
    const m = res[k]!.exec(text);
    if (m) return { k, m };
  }
  return null;
}

function earliestEach(res: RegExp[], text: string): { k: number; m: RegExpExecArray } | null {
  let best: { k: number; m: RegExpExecArray } | null = null;
  res.forEach((re, k) => {
    const m = re.exec(text);
    if (m && (best === null || m.index < best.m.index)) best = { k, m };
  });
  return best;
}

const LISTS: Record<string, RegExp[]> = {
  outer: OUTER_PREFIXES.map((r) => r.re),
  format: FORMAT_PREFIXES.map((r) => r.re),
  'anywhere rows at the start': FORMAT_PREFIXES.filter((r) => r.anywhere).map((r) => r.re),
  anywhere: FORMAT_PREFIXES.filter((r) => r.anywhere).map((r) => r.anywhere!),
};

describe('RowSearch: the prefix rows as one alternation', () => {
  it(`reads ${LINES.length} distinct fixture lines and ${MIXED.length} mixed ones`, () => {
    expect(LINES.length).toBeGreaterThan(5000);
  });

  for (const [name, res] of Object.entries(LISTS)) {
    it(`${name}: one regex, the same row and match as the rows one by one`, () => {
      const s = new RowSearch(res);
      expect(s.combined).toBe(true);
      let hits = 0;
      for (const text of ALL) {
        const want = earliestEach(res, text);
        const got = s.earliest(text);
        expect(got?.k, text).toBe(want?.k);
        same(got?.m ?? null, want?.m ?? null);
        const wantFirst = firstEach(res, text, 0);
        const gotFirst = s.first(text);
        expect(gotFirst?.k, text).toBe(wantFirst?.k);
        same(gotFirst?.m ?? null, wantFirst?.m ?? null);
        if (gotFirst) {
          const next = s.first(text, gotFirst.k + 1);
          expect(next?.k).toBe(firstEach(res, text, gotFirst.k + 1)?.k);
          hits++;
        }
      }
      expect(hits).toBeGreaterThan(100);
    });
  }

  it('falls back to the rows one by one where one regex would not be exact', () => {
    const alt = [/^a|b/, /^c/];
    const s = new RowSearch(alt);
    expect(s.combined).toBe(false);
    expect(s.first('xb')?.k).toBe(0);
    const back = new RowSearch([/^(?<x>a)\k<x>/, /^b/]);
    expect(back.combined).toBe(false);
    expect(back.first('aa')?.k).toBe(0);
    // Unanchored rows: the first row in order is not the earliest match.
    const loose = new RowSearch([/b/, /a/]);
    expect(loose.combined).toBe(true);
    expect(loose.first('ab')?.k).toBe(0);
    expect(loose.earliest('ab')?.k).toBe(1);
  });
});
