// A few module workers share the queue of files; one file per worker at a time keeps memory flat.
import type { FileExtract } from '../core/model';
import type { ParseReply, ParseRequest } from './protocol';
import type { InputFile } from './types';
import { unreadableExtract } from './unreadable';

export interface PoolListener {
  started(index: number): void;
  progress(index: number, bytesDone: number): void;
  finished(index: number, extract: FileExtract): void;
}

export interface PoolRun {
  /** Resolves when every file is finished, or as soon as the run is cancelled. */
  settled: Promise<void>;
  /** Stops all workers at once; files already finished stay reported. */
  cancel(): void;
}

const MAX_WORKERS = 4;

export function poolSize(fileCount: number): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(MAX_WORKERS, cores, fileCount));
}

function unreadable(input: InputFile, reason: string): FileExtract {
  return unreadableExtract(input.path, input.file.size, input.file.lastModified || null, reason);
}

function spawn(): Worker {
  return new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'skewscope-parse' });
}

export function runPool(inputs: InputFile[], listener: PoolListener): PoolRun {
  let next = 0;
  let remaining = inputs.length;
  let stopped = false;
  const busy = new Map<Worker, number>();
  let resolveSettled: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    resolveSettled = resolve;
  });

  const stop = () => {
    stopped = true;
    for (const worker of busy.keys()) worker.terminate();
    busy.clear();
    resolveSettled();
  };

  const complete = (worker: Worker, extract: FileExtract) => {
    const index = busy.get(worker);
    if (index === undefined || stopped) return;
    busy.delete(worker);
    listener.finished(index, extract);
    remaining -= 1;
    if (remaining === 0) stop();
    else feed(worker);
  };

  const feed = (worker: Worker) => {
    if (next >= inputs.length) {
      worker.terminate();
      return;
    }
    const index = next++;
    const input = inputs[index]!;
    busy.set(worker, index);
    listener.started(index);
    const request: ParseRequest = {
      taskId: index,
      name: input.path,
      file: input.file,
      mtimeMs: input.file.lastModified || null,
    };
    worker.postMessage(request);
  };

  const start = () => {
    const worker = spawn();
    worker.onmessage = (event: MessageEvent<ParseReply>) => {
      const reply = event.data;
      const index = busy.get(worker);
      if (index === undefined || index !== reply.taskId || stopped) return;
      if (reply.type === 'progress') listener.progress(index, reply.bytesDone);
      else if (reply.type === 'done') complete(worker, reply.extract);
      else complete(worker, unreadable(inputs[index]!, reply.message));
    };
    // A crashed worker (failed module load, out of memory) loses only its current file; a fresh one takes over.
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      const index = busy.get(worker);
      worker.terminate();
      if (index === undefined || stopped) return;
      busy.delete(worker);
      listener.finished(index, unreadable(inputs[index]!, event.message || 'the parser stopped unexpectedly'));
      remaining -= 1;
      if (remaining === 0) stop();
      else if (next < inputs.length) start();
    };
    feed(worker);
  };

  if (inputs.length === 0) stop();
  else for (let i = 0; i < poolSize(inputs.length); i++) start();

  return { settled, cancel: stop };
}
