import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileProblem } from '../core/fileProblem';
import type { FileExtract } from '../core/model';
import { sentence } from '../i18n/sentence';
import { extractInput, type InputFile } from './files';
import { heapPeak, heapStatsWanted, startHeapSampler } from './heapStats';

// Files are parsed on all cores, like the dashboard's worker pool: the CLI's bundle starts itself again as a
// worker thread. Small inputs stay on the main thread, where starting workers (each loads the bundle, about a
// tenth of a second) would cost more than it saves. Many small files go to the pool too, in batches, so that a
// message round trip per file does not leave a worker idle.
//
// One large file stays on one worker: the extractor's state runs through the whole file (line numbers,
// tracebacks, retired anchors, the streams of a multi-node file), so splitting it at line boundaries needs a
// merge of two partial extracts that the core does not have. The scan reads it at several hundred MB/s.
//
// Each worker's heap is capped (workerHeapMb): that is the memory budget of reading one file, and a file past it
// costs only itself — its worker dies, the file is reported with the reason, a fresh worker goes on with the rest.
// A file of 32 MiB or more is read on a worker even when it is the only one, so that the cap covers it too.

const POOL_MIN_BYTES = 8 * 1024 * 1024;
const POOL_MIN_FILES = 256;
const MAX_WORKERS = 8;
/** A batch holds files up to this many bytes (a larger file is a batch on its own) or this many files. */
const BATCH_BYTES = 2 * 1024 * 1024;
const BATCH_FILES = 32;
/** Batches sent ahead to each worker, so it has the next one when it finishes. */
const IN_FLIGHT = 2;
/** A file this large is read on a worker even alone: its heap limit is the file's memory budget. */
const SOLO_WORKER_BYTES = 32 * 1024 * 1024;
/** Default heap of a parse worker, MiB (workerHeapMb). */
const WORKER_HEAP_MB = 1024;

interface Batch {
  id: number;
  files: { index: number; file: InputFile }[];
  /** Read again after a worker died: on a worker with nothing else to do, so that a death names its file. */
  alone?: boolean;
}

interface Reply {
  id: number;
  extracts: { index: number; extracts: FileExtract[] }[];
  /** The worker's heap peak so far, bytes (SKEWSCOPE_HEAP_STATS=1). */
  heapPeak?: number;
}

let workersHeapPeak = 0;
let workersStarted = 0;

/** The largest heap a parse worker reached, and how many workers ran (for SKEWSCOPE_HEAP_STATS). */
export function poolHeapPeak(): { bytes: number; workers: number } {
  return { bytes: workersHeapPeak, workers: workersStarted };
}

export function isPoolWorker(): boolean {
  return !isMainThread && (workerData as { skewscopePool?: boolean } | null)?.skewscopePool === true;
}

export function runPoolWorker(): void {
  const stats = heapStatsWanted();
  if (stats) startHeapSampler();
  // One batch at a time, in the order they come.
  let chain = Promise.resolve();
  parentPort!.on('message', (batch: Batch) => {
    chain = chain.then(async () => {
      const extracts: Reply['extracts'] = [];
      for (const { index, file } of batch.files) extracts.push({ index, extracts: await extractInput(file) });
      parentPort!.postMessage({ id: batch.id, extracts, ...(stats ? { heapPeak: heapPeak() } : {}) } satisfies Reply);
    });
  });
}

/** Whether an input of this shape is parsed on the worker pool (exported for the benchmark's notes and tests). */
export function usesPool(inputs: readonly InputFile[], threads = availableParallelism()): boolean {
  if (inputs.some((f) => f.size >= SOLO_WORKER_BYTES)) return true;
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

/**
 * The heap a parse worker may use (V8's old generation, in MiB): the budget of one file's reading. Past it the
 * worker stops with ERR_WORKER_OUT_OF_MEMORY and only its file is lost (reported, the rest analysed).
 * SKEWSCOPE_WORKER_HEAP_MB sets it (tests use a small one).
 */
export function workerHeapMb(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.SKEWSCOPE_WORKER_HEAP_MB);
  return Number.isInteger(v) && v >= 16 && v <= 65536 ? v : WORKER_HEAP_MB;
}

/** What a file lost with its worker becomes: a file problem that says why, so the rest is still diagnosed. */
function lostExtract(f: InputFile, err: unknown, heapMb: number): FileExtract {
  const oom = (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
  const why = oom
    ? sentence('file.workerHeap', { file: f.name, mib: String(heapMb) })
    : sentence('file.workerStopped', { file: f.name, reason: err instanceof Error ? err.message : String(err) });
  return {
    file: f.name,
    bytes: f.size,
    lines: 0,
    longLines: 0,
    invalidUtf8: false,
    mtimeMs: f.mtimeMs,
    streams: [],
    problem: fileProblem('unreadable', why),
  };
}

/** Every input's extracts (an archive gives one per member), in the order of the inputs. */
export async function extractAll(inputs: InputFile[]): Promise<FileExtract[]> {
  const out: FileExtract[][] = new Array(inputs.length);
  if (!usesPool(inputs)) {
    for (let i = 0; i < inputs.length; i++) out[i] = await extractInput(inputs[i]!);
    return out.flat();
  }
  const heapMb = workerHeapMb();
  const queue = batches(inputs);
  let ids = queue.length;
  const threads = Math.min(MAX_WORKERS, availableParallelism(), queue.length);
  const live = new Set<Worker>();
  await new Promise<void>((resolve) => {
    const settle = () => {
      if (live.size === 0 && queue.length === 0) resolve();
    };
    const start = () => {
      const w = new Worker(new URL(import.meta.url), {
        workerData: { skewscopePool: true },
        resourceLimits: { maxOldGenerationSizeMb: heapMb },
      });
      live.add(w);
      workersStarted++;
      const pending = new Map<number, Batch>();
      let gone = false;
      const send = () => {
        const next = queue[0];
        if (!next || (pending.size > 0 && (next.alone || [...pending.values()].some((b) => b.alone)))) return false;
        const batch = queue.shift()!;
        pending.set(batch.id, batch);
        w.postMessage(batch);
        return true;
      };
      const retire = () => {
        gone = true;
        live.delete(w);
        void w.terminate();
      };
      // A worker that dies takes its batches with it: files that were read together are read again one by one
      // (on a fresh worker), and a file that kills a worker alone is reported as lost.
      const lost = (err: unknown) => {
        if (gone) return;
        retire();
        const batches = [...pending.values()];
        if (batches.length === 1 && batches[0]!.files.length === 1) {
          const { index, file } = batches[0]!.files[0]!;
          out[index] = [lostExtract(file, err, heapMb)];
        } else
          for (const batch of batches.reverse())
            for (const f of [...batch.files].reverse()) queue.unshift({ id: ids++, files: [f], alone: true });
        pending.clear();
        if (queue.length > 0) start();
        settle();
      };
      w.on('message', (m: Reply) => {
        for (const { index, extracts } of m.extracts) out[index] = extracts;
        if (m.heapPeak !== undefined && m.heapPeak > workersHeapPeak) workersHeapPeak = m.heapPeak;
        pending.delete(m.id);
        if (!send() && pending.size === 0) {
          retire();
          settle();
        }
      });
      w.on('error', lost);
      w.on('exit', (code) => {
        if (pending.size > 0) lost(new Error(`exit code ${code}`));
      });
      for (let k = 0; k < IN_FLIGHT; k++) send();
      if (pending.size === 0) {
        retire();
        settle();
      }
    };
    for (let k = 0; k < threads; k++) start();
  });
  return out.flat();
}
