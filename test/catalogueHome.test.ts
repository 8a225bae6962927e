import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/core/catalogue';
import type { EventKind } from '../src/core/model';

// A message's meaning lives in its catalogue entry (its effects); code elsewhere reads effects and never
// compares an entry's id. The extractor alone names the derived entries it makes (from a log's structure, not
// a line), and an id that is also an event kind (`restart`, `first-step`) is the kind there.

const SRC = path.join(__dirname, '..', 'src');
const KINDS: EventKind[] = ['restart', 'first-step'];
const files = (d: string): string[] =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(d, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(d, e.name)] : [],
  );

describe('the catalogue is the one home of a message’s meaning', () => {
  it('no line entry’s id is written outside src/core/catalogue', () => {
    const ids = CATALOGUE.map((e) => e.id).filter((id) => !(KINDS as string[]).includes(id));
    const found: string[] = [];
    for (const f of files(SRC)) {
      if (f.includes(`${path.sep}catalogue${path.sep}`) || f.endsWith('.test.ts')) continue;
      const text = readFileSync(f, 'utf8');
      for (const id of ids) if (text.includes(`'${id}'`)) found.push(`${path.relative(SRC, f)}: ${id}`);
    }
    expect(found).toEqual([]);
  });
});
