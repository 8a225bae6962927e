import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/core/catalogue';
import { COMPILED, firstEntry, firstEntryOf, groupsOf } from '../src/core/extract/match';
import { parsePrefixes } from '../src/core/prefixes';
import { anchorSearchFor } from '../src/core/scan/anchorSearch';

// Which entry a line belongs to is found two ways (src/core/extract/match.ts): from the anchors the scanner
// found on it, or — for lines that come without them — by searching the line for every anchor at once. Both
// must give what the definition gives: the first entry in catalogue order, not retired, one of whose anchors
// the line holds and whose pattern matches the message.

const FIXTURES = path.join(__dirname, 'fixtures');
const files = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = path.join(dir, f);
      return statSync(p).isDirectory() ? files(p) : [p];
    });

const ANCHORS = CATALOGUE.flatMap((e) => e.anchors);
const LINES = [
  ...new Set(
    files(FIXTURES)
      .filter((f) => statSync(f).size < 4 << 20)
      .flatMap((f) => readFileSync(f, 'utf8').split(/\r?\n/))
      .filter((l) => ANCHORS.some((a) => l.includes(a))),
  ),
  ...CATALOGUE.flatMap((e) => e.samples),
];
const MATCHABLE = COMPILED.filter((c) => c.entry.kind !== 'frame' && c.entry.kind !== 'traceback');

function reference(text: string, msg: string, retired: ReadonlySet<string>) {
  for (const c of MATCHABLE) {
    if (retired.has(c.entry.id)) continue;
    if (!c.entry.anchors.some((a) => text.includes(a))) continue;
    const m = c.re.exec(msg);
    if (m) return { id: c.entry.id, fields: groupsOf(m) };
  }
  return null;
}

// Retire a few entries now and then, as streams do, so that the next candidate in order has to be found.
const RETIRED = [new Set<string>(), ...CATALOGUE.filter((_, i) => i % 5 === 0).map((e) => new Set([e.id]))];

describe('catalogue matching', () => {
  it('no anchor is empty (a search knows no empty literal)', () => {
    for (const e of CATALOGUE) for (const a of e.anchors) expect(a, e.id).not.toBe('');
  });

  it(`finds the same entry both ways on ${LINES.length} candidate lines`, () => {
    expect(LINES.length).toBeGreaterThan(2000);
    const enc = new TextEncoder();
    const search = anchorSearchFor(ANCHORS);
    let matched = 0;
    LINES.forEach((text, i) => {
      const msg = parsePrefixes(text).msg;
      const retired = RETIRED[i % RETIRED.length]!;
      const want = reference(text, msg, retired);
      const bytes = enc.encode(text);
      const found = search.collect(bytes, 0, bytes.length, []);
      for (const hit of [firstEntry(text, msg, retired), firstEntryOf(ANCHORS, found, msg, retired)]) {
        expect(hit?.entry.id ?? null, text).toBe(want?.id ?? null);
        expect(hit?.fields ?? null).toEqual(want?.fields ?? null);
      }
      if (want) matched++;
    });
    expect(matched).toBeGreaterThan(1000);
  });
});
