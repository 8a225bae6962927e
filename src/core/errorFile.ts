import type { Clock } from './model';
import { makeClock } from './time';

// torchelastic's error file (`--log-dir …/attempt_N/<local_rank>/error.json`, written by workers wrapped with
// `@record`): the exception, its Python call stack, and the time it was raised — a dated, zoned clock even
// when the console log has no times at all.
//   {"message": {"message": "<ExcType>: <str>", "extraInfo": {"py_callstack": "…", "timestamp": "<unix s>"}}}
//   legacy: {"message": "<str>", "timestamp": <int>}

export const MAX_ERROR_FILE_BYTES = 4 * 1024 * 1024;
/** Unix seconds of 9999-12-31: past it no Date exists to read the fields from. */
const MAX_EPOCH_S = 253_402_300_799;

export function isErrorFile(path: string): boolean {
  return /(?:^|[\\/])error\.json$/i.test(path);
}

export interface ErrorFile {
  /** The call stack's lines, then the exception line: read like a traceback in a log. */
  lines: string[];
  clock: Clock | null;
}

export function readErrorFile(text: string): ErrorFile | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null || !('message' in doc)) return null;
  const outer = doc as { message: unknown; timestamp?: unknown };
  let message = '';
  let stack = '';
  let ts: unknown = outer.timestamp;
  if (typeof outer.message === 'string') message = outer.message;
  else if (typeof outer.message === 'object' && outer.message !== null) {
    const m = outer.message as { message?: unknown; extraInfo?: { py_callstack?: unknown; timestamp?: unknown } };
    if (typeof m.message === 'string') message = m.message;
    if (typeof m.extraInfo?.py_callstack === 'string') stack = m.extraInfo.py_callstack;
    ts = m.extraInfo?.timestamp ?? ts;
  }
  if (!message && !stack) return null;
  const lines = stack ? stack.split('\n') : [];
  // The call stack ends with the exception line already; add the message only when it does not.
  const lastLine = lines.filter((l) => l.trim()).at(-1) ?? '';
  // A loop, not push(...): a 4 MB message may hold more lines than a call takes arguments.
  if (message && lastLine.trim() !== message.trim()) for (const l of message.split('\n')) lines.push(l);
  return { lines, clock: epochClock(ts) };
}

function epochClock(ts: unknown): Clock | null {
  const n = typeof ts === 'number' ? ts : typeof ts === 'string' ? Number(ts) : NaN;
  // Unix seconds a Date can hold (a forged `1e300` would make every field NaN); makeClock bounds the year.
  if (!Number.isFinite(n) || n <= 0 || n > MAX_EPOCH_S) return null;
  const d = new Date(n * 1000);
  return makeClock('error-json', String(ts), {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    offsetMinutes: 0,
    resolutionMs: 1000,
  });
}
