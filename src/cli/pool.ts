import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { FileExtract } from '../core/model';
import { extractInput, type InputFile } from './files';

// Files are parsed on all cores, like the dashboard's worker pool: the CLI's bundle starts itself again as a
// worker thread. Small inputs stay on the main thread, where starting workers would cost more than it saves.

const POOL_MIN_BYTES = 32 * 1024 * 1024;
const MAX_WORKERS = 8;

interface Job {
  index: number;
  file: InputFile;
}

export function isPoolWorker(): boolean {
  return !isMainThread && (workerData as { skewscopePool?: boolean } | null)?.skewscopePool === true;
}

export function runPoolWorker(): void {
  parentPort!.on('message', async (job: Job) => {
    const extracts = await extractInput(job.file);
    parentPort!.postMessage({ index: job.index, extracts });
  });
}

/** Every input's extracts (an archive gives one per member), in the order of the inputs. */
export async function extractAll(inputs: InputFile[]): Promise<FileExtract[]> {
  const total = inputs.reduce((n, f) => n + f.size, 0);
  const threads = Math.min(MAX_WORKERS, availableParallelism(), inputs.length);
  const out: FileExtract[][] = new Array(inputs.length);
  if (threads < 2 || total < POOL_MIN_BYTES) {
    for (let i = 0; i < inputs.length; i++) out[i] = await extractInput(inputs[i]!);
    return out.flat();
  }
  // Largest files first, so one big file does not start last and finish alone.
  const queue = inputs.map((file, index) => ({ index, file })).sort((a, b) => b.file.size - a.file.size);
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL(import.meta.url), { workerData: { skewscopePool: true } }),
  );
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const next = () => {
              const job = queue.shift();
              if (!job) return resolve();
              w.postMessage(job);
            };
            w.on('message', (m: { index: number; extracts: FileExtract[] }) => {
              out[m.index] = m.extracts;
              next();
            });
            w.on('error', reject);
            next();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out.flat();
}
