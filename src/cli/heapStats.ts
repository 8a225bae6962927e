import { getHeapStatistics } from 'node:v8';

// The JS heap the CLI used at its peak, per thread, for the benchmark (SKEWSCOPE_HEAP_STATS=1): RSS counts the
// whole process (code, buffers, every worker), the heap is what the kept events and the job cost. Sampled every
// few milliseconds while the thread waits and whenever a chunk is read, so the figure is a lower bound that
// sits close to the peak (the heap peaks while a file is being read, one chunk at a time).

const ENV = 'SKEWSCOPE_HEAP_STATS';
const EVERY_MS = 10;

export function heapStatsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[ENV] === '1';
}

let peak = 0;
let timer: ReturnType<typeof setInterval> | null = null;

/** Notes the heap in use now. */
export function sampleHeap(): void {
  const used = getHeapStatistics().used_heap_size;
  if (used > peak) peak = used;
}

/** Samples this thread's heap until the process ends (the timer does not keep it alive). */
export function startHeapSampler(): void {
  if (timer) return;
  sampleHeap();
  timer = setInterval(sampleHeap, EVERY_MS);
  timer.unref();
}

/** This thread's peak so far, in bytes. */
export function heapPeak(): number {
  sampleHeap();
  return peak;
}

/** The line the benchmark reads from stderr: one JSON object, MiB. */
export function heapStatsLine(workersPeak: number, workers: number): string {
  const mib = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
  return `${JSON.stringify({ skewscopeHeap: { mainMiB: mib(heapPeak()), workerMiB: mib(workersPeak), workers } })}\n`;
}
