// Messages between the main thread and parse.worker.ts. Plain data only (structured clone).
import type { FileExtract } from '../core/model';

export interface ParseRequest {
  taskId: number;
  /** Relative path shown to the user and given to the extractor, e.g. `node0_logdir/attempt_0/0/stdout.log`. */
  name: string;
  /** A dropped or picked File, or pasted text wrapped in one. */
  file: Blob;
  mtimeMs: number | null;
}

/**
 * One input file can yield several extracts (each member of a `.tar.gz` or `.zip`): they arrive one `extract`
 * message at a time, as each member is finished, then `done`. Progress counts the input's own (compressed) bytes.
 */
export type ParseReply =
  | { type: 'progress'; taskId: number; bytesDone: number }
  | { type: 'extract'; taskId: number; extract: FileExtract }
  | { type: 'done'; taskId: number }
  | { type: 'failed'; taskId: number; message: string };
