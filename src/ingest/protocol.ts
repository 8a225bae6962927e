// Messages of the parse workers (parse.worker.ts). Plain data only (structured clone).
//
// A parse worker talks on two channels: with the page (the pool feeds it files; it reports progress and each
// file's end) and, through a MessagePort it is given once, with the job worker, which gets every extract. The
// page never holds an extract: on a 4,096-node job they weigh tens of megabytes.
import type { FileExtract } from '../core/model';

/** Sent once, before any file: the port the worker sends its extracts on. */
export interface ParseConnect {
  type: 'connect';
  port: MessagePort;
}

export interface ParseRequest {
  type: 'parse';
  /** Unique across the page's runs: the job worker keeps a file's extracts under it until the file is finished. */
  taskId: number;
  /** Relative path shown to the user and given to the extractor, e.g. `node0_logdir/attempt_0/0/stdout.log`. */
  name: string;
  /** A dropped or picked File, or pasted text wrapped in one. */
  file: Blob;
  /**
   * The year hint for year-less timestamps; 'file' for the file's own modification time, read here in the worker:
   * on the page, asking a File of a dropped folder for its size or time stats it on disk, synchronously.
   */
  mtimeMs: number | null | 'file';
}

/** To the page. Progress counts the input's own (compressed) bytes. */
export type ParseReply =
  /** The file's size, as the worker found it when it started. */
  | { type: 'started'; taskId: number; bytes: number }
  | { type: 'progress'; taskId: number; bytesDone: number }
  /** The file is finished (its extracts are on their way to the job worker): the names they go by. */
  | { type: 'done'; taskId: number; names: string[] };

/**
 * To the job worker. One input file can yield several extracts (each member of a `.tar.gz` or `.zip`): they arrive
 * one at a time as each member is finished, then `finished`, which makes them the input's (replacing what an
 * input of the same path yielded before). A file that fails ends with an unreadable extract, then `finished`.
 */
export type ParseToJob =
  { type: 'extract'; taskId: number; extract: FileExtract } | { type: 'finished'; taskId: number; path: string };
