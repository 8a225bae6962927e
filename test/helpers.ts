import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildJob, createExtractor } from '../src/core/index';
import type { JobModel } from '../src/core/model';

export const CORPUS = path.join(__dirname, 'fixtures', 'corpus');
export const CAPTURED = path.join(__dirname, 'fixtures', 'captured');

/** Every file under a folder, as paths relative to it (`node0_logdir/…/stdout.log`), in name order. */
export function filesUnder(dir: string, base = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const rel = base ? `${base}/${f}` : f;
      return statSync(path.join(dir, f)).isDirectory() ? filesUnder(path.join(dir, f), rel) : [rel];
    });
}

/** The job of a captured run's logs (only those named, if given), as the job worker builds it. */
export function capturedJob(scenario: string, only?: string[]): JobModel {
  const dir = path.join(CAPTURED, scenario);
  const files: Record<string, string> = {};
  for (const f of filesUnder(dir))
    if (f.endsWith('.log') && (!only || only.includes(f))) files[f] = readFileSync(path.join(dir, f), 'utf8');
  return analyseTexts(files);
}

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

/**
 * A Kubernetes-captured 1.13 log (`<RFC 3339> LEVEL:logger:msg`) as torch 2.1–2.2 prints it: every line of a
 * logging record prefixed `[YYYY-MM-DD HH:MM:SS,mmm] logger: [LEVEL] `; tracebacks and C++ lines stay bare.
 * The message texts did not change between these versions (docs/pytorch-log-formats.md §5).
 */
export function toBracket21(text: string, shiftSeconds = 0): string {
  let logger: string | null = null;
  let level = 'INFO';
  return mapLines(text, (l) => {
    const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\d*Z (.*)$/.exec(l);
    if (!m) return l;
    const t = new Date(Date.parse(m[1]! + 'Z') + shiftSeconds * 1000).toISOString();
    const ts = `[${t.slice(0, 10)} ${t.slice(11, 19)},${t.slice(20, 23)}]`;
    const body = m[2]!;
    const basic = /^(DEBUG|INFO|WARNING|ERROR|CRITICAL):([\w.]+):(.*)$/.exec(body);
    if (basic) {
      level = basic[1]!;
      logger = basic[2]!;
      return `${ts} ${logger}: [${level}] ${basic[3]}`;
    }
    if (logger && !/^(Traceback|WARNING: Logging|E\d{8}|\[rank)/.test(body))
      return `${ts} ${logger}: [${level}] ${body}`;
    logger = null;
    return body;
  });
}

/** Move every RFC 3339 capture stamp of a Kubernetes-style log by some seconds. */
export function shiftK8s(text: string, seconds: number): string {
  return mapLines(text, (l) =>
    l.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)Z/, (_, t: string) => {
      const frac = t.slice(20);
      const d = new Date(Date.parse(t.slice(0, 23) + 'Z') + seconds * 1000).toISOString();
      return `${d.slice(0, 20)}${frac}Z`;
    }),
  );
}
