// Messages between the main thread and parse.worker.ts. Plain data only (structured clone).
import type { FileExtract } from '../core/model';

export interface ParseRequest {
  taskId: number;
  /** Relative path shown to the user and given to the extractor, e.g. `node0_logdir/attempt_0/0/stdout.log`. */
  name: string;
  file: File;
  mtimeMs: number | null;
}

export type ParseReply =
  | { type: 'progress'; taskId: number; bytesDone: number }
  | { type: 'done'; taskId: number; extract: FileExtract }
  | { type: 'failed'; taskId: number; message: string };
