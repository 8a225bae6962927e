import type { FileExtract } from '../core/model';

/** A file that could not be read still belongs in the report, with the reason, like any other problem file. */
export function unreadableExtract(path: string, bytes: number, mtimeMs: number | null, reason: string): FileExtract {
  return {
    file: path,
    bytes,
    lines: 0,
    longLines: 0,
    invalidUtf8: false,
    mtimeMs,
    streams: [],
    problem: { code: 'unreadable', message: `Could not read this file: ${reason}` },
  };
}
