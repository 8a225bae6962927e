import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildJob, createExtractor } from '../src/core/index';
import type { JobModel } from '../src/core/model';

export const CORPUS = path.join(__dirname, 'fixtures', 'corpus');

export function corpusText(scenario: string, file: string): string {
  return readFileSync(path.join(CORPUS, scenario, file), 'utf8');
}

/** Analyse in-memory files the way a worker would: streamed in small chunks, then one job. */
export function analyseTexts(
  files: Record<string, string | Uint8Array>,
  chunk = 997,
  nowMs?: number,
  opts: { correctClocks?: boolean } = {},
): JobModel {
  const enc = new TextEncoder();
  const extracts = Object.entries(files).map(([name, content]) => {
    const bytes = typeof content === 'string' ? enc.encode(content) : content;
    const ex = createExtractor(name);
    for (let i = 0; i < bytes.length; i += chunk) ex.push(bytes.subarray(i, i + chunk));
    return ex.finish();
  });
  return buildJob(extracts, { ...(nowMs === undefined ? {} : { nowMs }), ...opts });
}

/** Map every line of a text (keeping the final newline structure). */
export function mapLines(text: string, f: (line: string, i: number) => string): string {
  return text
    .split('\n')
    .map((l, i, all) => (i === all.length - 1 && l === '' ? l : f(l, i)))
    .join('\n');
}
