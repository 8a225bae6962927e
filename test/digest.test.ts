import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildJob } from '../src/core/index';
import type { FileExtract, JobModel } from '../src/core/model';
import { encodeDigest, type LineText } from '../src/core/digest';
import { collectInputs } from '../src/cli/files';
import { extractAll } from '../src/cli/pool';
import { readInput } from '../src/ingest/archive/index';

// A digest is the node's logs as the job builder sees them: the job model built from digests must be the one
// built from the logs, on every real scenario (the guard for the model changing under the digest format).

const FIXTURES = path.join(__dirname, 'fixtures');
const dirsOf = (root: string) =>
  readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(root, d.name))
    .sort();
const SCENARIOS = [...dirsOf(path.join(FIXTURES, 'corpus')), ...dirsOf(path.join(FIXTURES, 'captured'))];
const NOW = Date.parse('2026-03-01T00:00:00Z');
const NODE = { name: 'test-node', host: 'test-host' };
const enc = new TextEncoder();

function digestOf(extracts: FileExtract[], lineText: LineText = null): string {
  return encodeDigest(extracts, { producer: 'skewscope test', node: NODE, lineText }).text;
}

/** The digest read back through the same reader as any dropped file, in small chunks. */
function readBack(name: string, text: string, chunk = 4093): FileExtract[] {
  const bytes = enc.encode(text);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  return readInput(name, chunks);
}

/** The logs' extracts, one digest per node of the job they make (files of no node in one more). */
function perNode(extracts: FileExtract[], job: JobModel): FileExtract[][] {
  const left = new Set(extracts);
  const groups = job.nodes.map((n) => {
    const mine = extracts.filter((x) => left.has(x) && n.files.includes(x.file));
    for (const x of mine) left.delete(x);
    return mine;
  });
  return [...groups, [...left]].filter((g) => g.length > 0);
}

/**
 * Equal except where a line's text was: every difference must be a string under a text-bearing key
 * (`text`, `evidence`, `torchVersionEvidence`) that lost text — empty, or cut where the quote began.
 */
function expectEqualButTexts(got: unknown, want: unknown, at = 'job'): void {
  if (typeof want === 'string' && typeof got === 'string' && got !== want) {
    const key = at
      .split('.')
      .pop()!
      .replace(/\[\d+\]$/, '');
    expect(['text', 'evidence', 'torchVersionEvidence'], `${at} differs`).toContain(key);
    const kept = got.endsWith('…') ? got.slice(0, -1) : got;
    expect(want.startsWith(kept), `${at}: "${got}" is not "${want}" with its text left out`).toBe(true);
    return;
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    expect(got.length, `${at} length`).toBe(want.length);
    want.forEach((w, i) => expectEqualButTexts(got[i], w, `${at}[${i}]`));
    return;
  }
  if (typeof want === 'object' && want !== null && typeof got === 'object' && got !== null) {
    expect(Object.keys(got).sort(), `${at} keys`).toEqual(Object.keys(want).sort());
    for (const k of Object.keys(want))
      expectEqualButTexts((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], `${at}.${k}`);
    return;
  }
  expect(got, at).toEqual(want);
}

describe('digest ↔ logs: the same job model on every scenario', () => {
  it('covers every corpus and captured scenario', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(50);
  });

  for (const dir of SCENARIOS) {
    const name = `${path.basename(path.dirname(dir))}/${path.basename(dir)}`;
    it(name, async () => {
      const logs = await extractAll(await collectInputs([dir]));
      const want = buildJob(logs, { nowMs: NOW });
      expect(want.nodes.length).toBeGreaterThan(0);

      // One digest per node, line texts kept as printed: the very same model.
      const groups = perNode(logs, want);
      const raw: LineText = (t) => t;
      const withLines = groups.flatMap((g, i) => readBack(`digests/${i}.skewscope.json`, digestOf(g, raw)));
      expect(withLines).toEqual(groups.flat());
      expect(buildJob(withLines, { nowMs: NOW })).toEqual(buildJob(groups.flat(), { nowMs: NOW }));

      // One digest per file, in the order the logs were read: the model of the logs themselves.
      const perFile = logs.flatMap((x, i) => readBack(`d/${i}.json`, digestOf([x], raw)));
      expect(buildJob(perFile, { nowMs: NOW })).toEqual(want);

      // Without line texts (the default): equal but for the texts.
      const bare = groups.flatMap((g, i) => readBack(`digests/${i}.skewscope.json`, digestOf(g)));
      expectEqualButTexts(buildJob(bare, { nowMs: NOW }), buildJob(groups.flat(), { nowMs: NOW }));
    });
  }
});
