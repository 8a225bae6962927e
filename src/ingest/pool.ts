// A few module workers share the queue of files; one file per worker at a time keeps memory flat.
import { appendAll } from '../core/arrays';
import type { FileExtract } from '../core/model';
import type { ParseReply, ParseRequest } from './protocol';
import type { InputFile } from './types';
import { unreadableExtract } from './unreadable';

export interface PoolListener {
  started(index: number): void;
  /** Bytes of the input file itself read so far (compressed bytes for an archive). */
  progress(index: number, bytesDone: number): void;
  /** Everything the input yielded: one extract for a log, one per member for an archive, problems included. */
  finished(index: number, extracts: FileExtract[]): void;
}

export interface PoolRun {
  /** Resolves when every file is finished, or as soon as the run is cancelled. */
  settled: Promise<void>;
  /** Stops all workers at once; files already finished stay reported. */
  cancel(): void;
  /**
   * Queues more files on a run still in progress. Returns the index the first of them gets, or null when the run
   * is already over (every file finished, or cancelled): start a new run then.
   */
  add(inputs: InputFile[]): number | null;
  /** False once every file is finished or the run was cancelled. */
  readonly running: boolean;
}

const MAX_WORKERS = 4;

export function poolSize(fileCount: number): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(MAX_WORKERS, cores, fileCount));
}

function unreadable(input: InputFile, reason: string): FileExtract {
  return unreadableExtract(input.path, input.file.size, input.file.lastModified || null, reason);
}

function mtimeOf(input: InputFile): number | null {
  return input.mtimeMs !== undefined ? input.mtimeMs : input.file.lastModified || null;
}

function spawn(): Worker {
  return new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'skewscope-parse' });
}

interface Task {
  index: number;
  /** Extracts the worker sent for this file so far (an archive's finished members). */
  extracts: FileExtract[];
}

export function runPool(initial: InputFile[], listener: PoolListener): PoolRun {
  const inputs = initial.slice();
  let next = 0;
  let remaining = inputs.length;
  let stopped = false;
  const workers = new Set<Worker>();
  const busy = new Map<Worker, Task>();
  let resolveSettled: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    resolveSettled = resolve;
  });

  const stop = () => {
    stopped = true;
    for (const worker of workers) worker.terminate();
    workers.clear();
    busy.clear();
    resolveSettled();
  };

  const complete = (worker: Worker, extracts: FileExtract[]) => {
    const task = busy.get(worker);
    if (task === undefined || stopped) return;
    busy.delete(worker);
    listener.finished(task.index, extracts);
    remaining -= 1;
    if (remaining === 0) stop();
    else feed(worker);
  };

  const feed = (worker: Worker) => {
    if (next >= inputs.length) {
      // Idle workers go; add() starts new ones if more files come.
      workers.delete(worker);
      worker.terminate();
      return;
    }
    const index = next++;
    const input = inputs[index]!;
    busy.set(worker, { index, extracts: [] });
    listener.started(index);
    const request: ParseRequest = { taskId: index, name: input.path, file: input.file, mtimeMs: mtimeOf(input) };
    worker.postMessage(request);
  };

  const start = () => {
    const worker = spawn();
    workers.add(worker);
    worker.onmessage = (event: MessageEvent<ParseReply>) => {
      const reply = event.data;
      const task = busy.get(worker);
      if (task === undefined || task.index !== reply.taskId || stopped) return;
      if (reply.type === 'progress') listener.progress(task.index, reply.bytesDone);
      else if (reply.type === 'extract') task.extracts.push(reply.extract);
      else if (reply.type === 'done') complete(worker, task.extracts);
      else complete(worker, [...task.extracts, unreadable(inputs[task.index]!, reply.message)]);
    };
    // A crashed worker (failed module load, out of memory) loses only its current file; a fresh one takes over.
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      const task = busy.get(worker);
      worker.terminate();
      workers.delete(worker);
      if (task === undefined || stopped) return;
      busy.delete(worker);
      const reason = event.message || 'the parser stopped unexpectedly';
      listener.finished(task.index, [...task.extracts, unreadable(inputs[task.index]!, reason)]);
      remaining -= 1;
      if (remaining === 0) stop();
      else if (next < inputs.length) start();
    };
    feed(worker);
  };

  const grow = () => {
    const wanted = Math.min(poolSize(inputs.length), inputs.length - next + busy.size);
    while (!stopped && workers.size < wanted && next < inputs.length) start();
  };

  if (inputs.length === 0) stop();
  else grow();

  return {
    settled,
    cancel: stop,
    get running() {
      return !stopped;
    },
    add: (more) => {
      if (stopped) return null;
      const first = inputs.length;
      appendAll(inputs, more);
      remaining += more.length;
      grow();
      return first;
    },
  };
}
