// A few module workers share the queue of files; one file per worker at a time keeps memory flat. Each worker is
// connected to the job worker (connect()), which receives the extracts; the pool hears progress and each file's end.
import { appendAll } from '../core/arrays';
import type { FileExtract } from '../core/model';
import { sentence } from '../i18n/sentence';
import type { ParseConnect, ParseReply, ParseRequest } from './protocol';
import type { InputFile } from './types';
import { unreadableExtract } from './unreadable';

export interface PoolListener {
  /** A worker took the file; `bytes` is its size (found there, not on the page). */
  started(index: number, bytes: number): void;
  /** Bytes of the input file itself read so far (compressed bytes for an archive). */
  progress(index: number, bytesDone: number): void;
  /**
   * The file is finished; `names` are what its extracts are called (one for a log, one per member of an
   * archive). The extracts themselves went to the job worker, under `taskId` until it sees the file finished.
   */
  finished(index: number, names: string[]): void;
  /**
   * The worker reading the file stopped (a crash, out of memory): `extract` says so, to be added by the caller
   * to whatever the file yielded before (`taskId`).
   */
  crashed(index: number, taskId: number, extract: FileExtract): void;
}

export interface PoolOptions {
  /** Hands the job worker its end of a new parse worker's channel. */
  connect(port: MessagePort): void;
}

export interface PoolRun {
  /** Resolves when every file is finished, or as soon as the run is cancelled. */
  settled: Promise<void>;
  /** Stops all workers at once; files already finished stay reported. Returns the tasks left unfinished. */
  cancel(): number[];
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

/** A File's own time is read by the worker: on the page it would stat the file, synchronously. */
function mtimeOf(input: InputFile): number | null | 'file' {
  return input.mtimeMs !== undefined ? input.mtimeMs : 'file';
}

function spawn(): Worker {
  return new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'skewscope-parse' });
}

/** Task ids are unique in the page, across runs: the job worker keys unfinished files by them. */
let tasks = 0;

export function runPool(initial: InputFile[], listener: PoolListener, options: PoolOptions): PoolRun {
  const inputs = initial.slice();
  let next = 0;
  let remaining = inputs.length;
  let stopped = false;
  const workers = new Set<Worker>();
  const busy = new Map<Worker, { index: number; taskId: number }>();
  let resolveSettled: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    resolveSettled = resolve;
  });

  const stop = () => {
    const open = [...busy.values()].map((task) => task.taskId);
    stopped = true;
    for (const worker of workers) worker.terminate();
    workers.clear();
    busy.clear();
    resolveSettled();
    return open;
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
    const taskId = ++tasks;
    busy.set(worker, { index, taskId });
    const request: ParseRequest = {
      type: 'parse',
      taskId,
      name: input.path,
      file: input.file,
      mtimeMs: mtimeOf(input),
    };
    worker.postMessage(request);
  };

  const settle = (worker: Worker | null) => {
    remaining -= 1;
    if (remaining === 0) stop();
    else if (worker) feed(worker);
    else if (next < inputs.length) start();
  };

  const start = () => {
    const worker = spawn();
    workers.add(worker);
    const channel = new MessageChannel();
    worker.postMessage({ type: 'connect', port: channel.port1 } satisfies ParseConnect, [channel.port1]);
    options.connect(channel.port2);
    worker.onmessage = (event: MessageEvent<ParseReply>) => {
      const reply = event.data;
      const task = busy.get(worker);
      if (task === undefined || task.taskId !== reply.taskId || stopped) return;
      if (reply.type === 'started') return listener.started(task.index, reply.bytes);
      if (reply.type === 'progress') return listener.progress(task.index, reply.bytesDone);
      busy.delete(worker);
      listener.finished(task.index, reply.names);
      settle(worker);
    };
    // A crashed worker (failed module load, out of memory) loses only its current file; a fresh one takes over.
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      const task = busy.get(worker);
      worker.terminate();
      workers.delete(worker);
      if (task === undefined || stopped) return;
      busy.delete(worker);
      const input = inputs[task.index]!;
      const reason = event.message
        ? sentence('file.parserStoppedWhy', { reason: event.message })
        : sentence('file.parserStopped');
      listener.crashed(
        task.index,
        task.taskId,
        unreadableExtract(input.path, input.file.size, input.file.lastModified || null, reason),
      );
      settle(null);
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
