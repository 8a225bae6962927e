import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { FileExtract } from '../core/model';
import { extractInput, type InputFile } from './files';

// Files are parsed on all cores, like the dashboard's worker pool: the CLI's bundle starts itself again as a
// worker thread. Small inputs stay on the main thread, where starting workers (each loads the bundle, about a
// tenth of a second) would cost more than it saves. Many small files go to the pool too, in batches, so that a
// message round trip per file does not leave a worker idle.
//
// One large file stays on one worker: the extractor's state runs through the whole file (line numbers,
// tracebacks, retired anchors, the streams of a multi-node file), so splitting it at line boundaries needs a
// merge of two partial extracts that the core does not have. The scan reads it at several hundred MB/s.

const POOL_MIN_BYTES = 8 * 1024 * 1024;
const POOL_MIN_FILES = 256;
const MAX_WORKERS = 8;
/** A batch holds files up to this many bytes (a larger file is a batch on its own) or this many files. */
const BATCH_BYTES = 2 * 1024 * 1024;
const BATCH_FILES = 32;
/** Batches sent ahead to each worker, so it has the next one when it finishes. */
const IN_FLIGHT = 2;

interface Batch {
  id: number;
  files: { index: number; file: InputFile }[];
}

interface Reply {
  id: number;
  extracts: { index: number; extracts: FileExtract[] }[];
}

export function isPoolWorker(): boolean {
  return !isMainThread && (workerData as { skewscopePool?: boolean } | null)?.skewscopePool === true;
}

export function runPoolWorker(): void {
  // One batch at a time, in the order they come.
  let chain = Promise.resolve();
  parentPort!.on('message', (batch: Batch) => {
    chain = chain.then(async () => {
      const extracts: Reply['extracts'] = [];
      for (const { index, file } of batch.files) extracts.push({ index, extracts: await extractInput(file) });
      parentPort!.postMessage({ id: batch.id, extracts } satisfies Reply);
    });
  });
}

/** Whether an input of this shape is parsed on the worker pool (exported for the benchmark's notes and tests). */
export function usesPool(inputs: readonly InputFile[], threads = availableParallelism()): boolean {
  const total = inputs.reduce((n, f) => n + f.size, 0);
  return (
    Math.min(MAX_WORKERS, threads, inputs.length) >= 2 && (total >= POOL_MIN_BYTES || inputs.length >= POOL_MIN_FILES)
  );
}

/** Largest files first (one big file should not start last and finish alone), small ones grouped. */
function batches(inputs: readonly InputFile[]): Batch[] {
  const order = inputs.map((file, index) => ({ index, file })).sort((a, b) => b.file.size - a.file.size);
  const out: Batch[] = [];
  let cur: Batch | null = null;
  let bytes = 0;
  for (const f of order) {
    if (!cur || bytes + f.file.size > BATCH_BYTES || cur.files.length >= BATCH_FILES) {
      cur = { id: out.length, files: [] };
      out.push(cur);
      bytes = 0;
    }
    cur.files.push(f);
    bytes += f.file.size;
  }
  return out;
}

/** Every input's extracts (an archive gives one per member), in the order of the inputs. */
export async function extractAll(inputs: InputFile[]): Promise<FileExtract[]> {
  const out: FileExtract[][] = new Array(inputs.length);
  if (!usesPool(inputs)) {
    for (let i = 0; i < inputs.length; i++) out[i] = await extractInput(inputs[i]!);
    return out.flat();
  }
  const threads = Math.min(MAX_WORKERS, availableParallelism(), inputs.length);
  const queue = batches(inputs);
  const workers = Array.from(
    { length: Math.min(threads, queue.length) },
    () => new Worker(new URL(import.meta.url), { workerData: { skewscopePool: true } }),
  );
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            let pending = 0;
            const send = () => {
              const batch = queue.shift();
              if (!batch) return false;
              pending++;
              w.postMessage(batch);
              return true;
            };
            w.on('message', (m: Reply) => {
              for (const { index, extracts } of m.extracts) out[index] = extracts;
              pending--;
              if (!send() && pending === 0) resolve();
            });
            w.on('error', reject);
            w.on('exit', (code) => {
              if (pending > 0) reject(new Error(`a parse worker stopped (exit code ${code})`));
            });
            for (let k = 0; k < IN_FLIGHT; k++) send();
            if (pending === 0) resolve();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out.flat();
}
