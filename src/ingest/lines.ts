// The evidence viewer's way into the user's files: windows of lines, read in a worker (lines.worker.ts) from
// the original File, never the whole file as one string.
import { sentence, SentenceError, type Sentence } from '../i18n/sentence';
import type { LineWindow } from './lineWindow';

export type { LineWindow } from './lineWindow';
export { MAX_LINE_CHARS, CUT_MARKER } from './lineWindow';

/**
 * Messages to lines.worker.ts. `key` names the file for the worker's checkpoint cache. `find` looks for the next
 * recognised line, `search` for the next line holding `query` (case-insensitive), `member` unpacks one file
 * of an archive (named as its extract is) into a Blob of its own.
 */
export type LinesRequest =
  | { type: 'window'; id: number; key: string; file: Blob; from: number; count: number }
  | { type: 'find'; id: number; key: string; file: Blob; from: number; dir: 1 | -1; limit: number }
  | { type: 'search'; id: number; key: string; file: Blob; from: number; dir: 1 | -1; limit: number; query: string }
  | { type: 'member'; id: number; key: string; file: Blob; name: string; member: string }
  | { type: 'cancel'; id: number };

export type LinesReply =
  | { type: 'window'; id: number; window: LineWindow }
  | { type: 'found'; id: number; line: number | null; total: number | null }
  | { type: 'member'; id: number; blob: Blob }
  | { type: 'error'; id: number; message: string; sentence?: Sentence };

/**
 * Where a file's lines can be read from. Files dropped as they are have a File of their own; a member of an
 * archive (`job.tar.gz/node0.log`) is read out of its archive's File (`file`, null when that is gone).
 */
export type LineSource =
  | { kind: 'file'; file: Blob }
  | { kind: 'archive-member'; archive: string; member: string; file: Blob | null }
  | { kind: 'missing' };

const ARCHIVE = /\.(tar\.gz|tgz|tar|zip|gz|bz2|xz|zst)$/i;

export function lineSourceFor(path: string, sources: Record<string, Blob>): LineSource {
  const file = sources[path];
  if (file) return { kind: 'file', file };
  // The longest leading part of the path that is itself a dropped file, or looks like an archive's name.
  const parts = path.split('/');
  for (let i = parts.length - 1; i > 0; i--) {
    const archive = parts.slice(0, i).join('/');
    const whole = sources[archive];
    // A plain .gz holds one file: the worker inflates it as it reads.
    if (whole && /\.gz$/i.test(archive) && !/\.tar\.gz$/i.test(archive)) return { kind: 'file', file: whole };
    if (whole || ARCHIVE.test(parts[i - 1]!)) {
      return { kind: 'archive-member', archive, member: parts.slice(i).join('/'), file: whole ?? null };
    }
  }
  return { kind: 'missing' };
}

type Pending = { resolve(reply: LinesReply): void; reject(error: Error): void };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();
const keys = new WeakMap<Blob, string>();
let nextKey = 1;

function keyOf(file: Blob): string {
  let key = keys.get(file);
  if (!key) {
    key = `f${nextKey++}`;
    keys.set(file, key);
  }
  return key;
}

function failAll(why: Sentence): void {
  for (const p of pending.values()) p.reject(new SentenceError(why));
  pending.clear();
}

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./lines.worker.ts', import.meta.url), { type: 'module', name: 'skewscope-lines' });
  w.onmessage = (event: MessageEvent<LinesReply>) => {
    const p = pending.get(event.data.id);
    if (!p) return;
    pending.delete(event.data.id);
    p.resolve(event.data);
  };
  // A crashed worker fails what it was doing; the next request starts a fresh one.
  w.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    w.terminate();
    if (worker === w) worker = null;
    failAll(event.message ? sentence('lines.stoppedWhy', { reason: event.message }) : sentence('lines.stopped'));
  };
  worker = w;
  return w;
}

function abortError(): Error {
  return new DOMException('The read was cancelled', 'AbortError');
}

/** Distinguishes a cancelled read (nothing to show) from a failed one. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

type Body =
  | { type: 'window'; from: number; count: number }
  | { type: 'find'; from: number; dir: 1 | -1; limit: number }
  | { type: 'search'; from: number; dir: 1 | -1; limit: number; query: string }
  | { type: 'member'; name: string; member: string };

function ask(file: Blob, body: Body, signal?: AbortSignal): Promise<LinesReply> {
  if (signal?.aborted) return Promise.reject(abortError());
  const id = nextId++;
  const w = getWorker();
  return new Promise<LinesReply>((resolve, reject) => {
    const onAbort = () => {
      if (!pending.delete(id)) return;
      w.postMessage({ type: 'cancel', id } satisfies LinesRequest);
      reject(abortError());
    };
    pending.set(id, {
      resolve: (r) => {
        signal?.removeEventListener('abort', onAbort);
        if (r.type === 'error') reject(r.sentence ? new SentenceError(r.sentence) : new Error(r.message));
        else resolve(r);
      },
      reject: (e) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    w.postMessage({ ...body, id, key: keyOf(file), file } as LinesRequest);
  });
}

/**
 * Lines `fromLine` … `fromLine + count − 1` (1-based) of a file, each cut at MAX_LINE_CHARS, with the catalogue
 * id of every recognised line. Asking past the end gives the last lines (see `from` in the answer).
 */
export async function readLineWindow(
  file: Blob,
  fromLine: number,
  count: number,
  signal?: AbortSignal,
): Promise<LineWindow> {
  const r = await ask(file, { type: 'window', from: fromLine, count }, signal);
  if (r.type !== 'window') throw new Error('unexpected reply from the line reader');
  return r.window;
}

/** The nearest recognised line after (`dir` 1) or before (−1) a line, or null within `limit` lines. */
export async function findRecognisedLine(
  file: Blob,
  fromLine: number,
  dir: 1 | -1,
  signal?: AbortSignal,
  limit = 200_000,
): Promise<{ line: number | null; total: number | null }> {
  const r = await ask(file, { type: 'find', from: fromLine, dir, limit }, signal);
  if (r.type !== 'found') throw new Error('unexpected reply from the line reader');
  return { line: r.line, total: r.total };
}

/** The nearest line after (`dir` 1) or before (−1) a line that holds `query` (case-insensitive), or null. */
export async function findText(
  file: Blob,
  fromLine: number,
  dir: 1 | -1,
  query: string,
  signal?: AbortSignal,
  limit = 2_000_000,
): Promise<{ line: number | null; total: number | null }> {
  const r = await ask(file, { type: 'search', from: fromLine, dir, limit, query }, signal);
  if (r.type !== 'found') throw new Error('unexpected reply from the line reader');
  return { line: r.line, total: r.total };
}

const members = new WeakMap<Blob, Map<string, Promise<Blob>>>();

/**
 * One file of an archive as a Blob of its own, unpacked in the worker (read through the archive once, kept for
 * later jumps). `name` is the archive's path as it was analysed, `path` the member's path as its extract has it.
 */
export function readArchiveMember(archive: Blob, name: string, path: string): Promise<Blob> {
  let byPath = members.get(archive);
  if (!byPath) {
    byPath = new Map();
    members.set(archive, byPath);
  }
  let pending = byPath.get(path);
  if (!pending) {
    pending = ask(archive, { type: 'member', name, member: path }).then((r) => {
      if (r.type !== 'member') throw new Error('unexpected reply from the line reader');
      return r.blob;
    });
    // A failed read is not kept: the next open tries again.
    pending.catch(() => byPath!.delete(path));
    byPath.set(path, pending);
  }
  return pending;
}
