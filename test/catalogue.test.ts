import { describe, expect, it } from 'vitest';
import { CATALOGUE, ENTRY } from '../src/core/catalogue';
import { recogniseLine } from '../src/core/index';
import { FORMAT_PREFIXES, OUTER_PREFIXES, parsePrefixes } from '../src/core/prefixes';

// The catalogue and the prefix rows are data with their own samples (real lines, or lines shaped exactly like
// real ones with the shape's source cited beside them). Each sample must be claimed by its own entry first:
// adding a message or a dialect that steals another's lines fails here.

describe('catalogue entries and their samples', () => {
  for (const e of CATALOGUE) {
    it(e.id, () => {
      if (e.kind === 'frame' || e.kind === 'traceback') {
        for (const line of e.samples) expect(new RegExp(e.pattern).test(line), line).toBe(true);
        return;
      }
      expect(e.samples.length, `${e.id} has no sample`).toBeGreaterThan(0);
      for (const line of e.samples) expect(recogniseLine(line).id, line).toBe(e.id);
    });
  }

  it('ids are unique and effects name only stages and fields the entry has', () => {
    expect(new Set(CATALOGUE.map((e) => e.id)).size).toBe(CATALOGUE.length);
    for (const e of CATALOGUE) {
      expect(ENTRY.get(e.id)).toBe(e);
      const groups = new Set([...e.pattern.matchAll(/\(\?<(\w+)>/g)].map((m) => m[1]));
      const fx = e.effects ?? {};
      const fields = [
        fx.limit?.field,
        fx.waitedSinceLaunch?.field,
        fx.runIdField,
        fx.primaryIfAtLeast?.field,
        ...(fx.identity ?? []).map((r) => r.field),
        ...Object.values(fx.facts ?? {}),
      ].filter((f): f is string => f !== undefined);
      // Block heads get their fields from the field lines below them, not from their own pattern.
      const blockKeys = new Set(
        CATALOGUE.filter((x) => x.blockOf === e.id).flatMap((x) =>
          [...x.pattern.matchAll(/(\w+)\|/g)].map((m) => m[1]),
        ),
      );
      for (const f of fields) expect(groups.has(f) || blockKeys.size > 0, `${e.id}: field ${f}`).toBe(true);
      if (fx.refine) expect(fx.stage, `${e.id} refines a stage it does not have`).toBeDefined();
    }
  });
});

describe('prefix rows and their samples', () => {
  for (const r of [...OUTER_PREFIXES, ...FORMAT_PREFIXES]) {
    it(r.id, () => {
      expect(r.samples.length, `${r.id} has no sample`).toBeGreaterThan(0);
      for (const line of r.samples) {
        const p = parsePrefixes(line);
        expect([...p.outer, p.format], line).toContain(r.id);
      }
    });
  }
});
