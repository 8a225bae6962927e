import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ABSURD_NUMBERS,
  checkField,
  checkInstants,
  fieldCases,
  fuzzInput,
  fuzzProperty,
  materialise,
  realFiles,
} from './fuzz/harness';

// The fuzzed core (issue 13, item 6): a small seeded budget here, so `npm test` stays seconds; the large one
// (10⁶ inputs) is `npm run fuzz` (scripts/fuzz.mjs). The properties are in test/fuzz/harness.ts: no throw, every
// instant a date, the same result whatever the chunk boundaries and whatever the order of the files.

const SEED = 20261201;

describe('the core on mutated real lines', () => {
  it('draws from every real log of the fixtures', () => {
    const pool = realFiles();
    expect(pool.length).toBeGreaterThan(300);
    expect(pool.some((f) => f.name.endsWith('error.json'))).toBe(true);
  });

  it('mutates what it draws: absurd numbers, NUL, invalid UTF-8 and CRLF reach the extractor', () => {
    const inputs = fc.sample(fuzzInput(), { numRuns: 300, seed: SEED });
    const bytes = inputs.flatMap((i) => materialise(i)).map((f) => f.bytes);
    const text = bytes.map((b) => new TextDecoder().decode(b)).join('\n');
    expect(ABSURD_NUMBERS.filter((n) => n.length > 6).some((n) => text.includes(n))).toBe(true);
    expect(bytes.some((b) => b.includes(0))).toBe(true);
    expect(bytes.some((b) => b.includes(0xff) || b.includes(0xc0))).toBe(true);
    expect(text.includes('\r\n')).toBe(true);
  });

  it('never throws, every instant is a date, chunking and file order do not change the result', () => {
    fc.assert(fuzzProperty(), { seed: SEED, numRuns: 40 });
  });

  it('the checks can fail: an instant no Date holds, a non-finite number', () => {
    expect(() => checkInstants({ timeline: { startMs: 1e20 } })).toThrow(/no date/);
    expect(() => checkInstants({ job: { nodes: [{ launchTime: '+275760-09-14' }] } })).toThrow(/does not parse/);
    expect(() => checkInstants({ job: { skewSeconds: NaN } })).toThrow(/non-finite/);
    expect(() => checkInstants({ job: { nodes: [{ fields: { time: 'not a time' } }] } })).not.toThrow();
  });

  it('each number field of each catalogue entry, on a real line, set to 4294967296 and 99999999999999999999', () => {
    const cases = fieldCases();
    expect(cases.length).toBeGreaterThan(100);
    // A few spread over the catalogue here; every case with every absurd value in `npm run fuzz`.
    for (const c of cases.filter((_, i) => i % 16 === 0))
      for (const absurd of ['4294967296', '99999999999999999999']) checkField(c, absurd);
  });
});
