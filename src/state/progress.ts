import type { FileRow } from './store';

export interface ProgressSummary {
  /** Bytes of the files whose size is known so far (all of them once `sized`). */
  totalBytes: number;
  doneBytes: number;
  /** Whether every file's size is known (a large drop learns them as the workers start each file). */
  sized: boolean;
  filesDone: number;
  filesTotal: number;
  /** Share of the work done, 0…1: by bytes once every size is known, else by files (and parts of those being read). */
  share: number;
  /** Files being read right now (at most one per worker). */
  reading: FileRow[];
  /** Time left to read the rest at the pace so far (ms), once the pace means something; else null. */
  etaMs: number | null;
}

/** Before this much time and share of the work, the pace says little about what is left. */
const ETA_AFTER_MS = 1000;
const ETA_AFTER_SHARE = 0.02;

export function summariseProgress(
  files: readonly FileRow[],
  startedAt: number | null,
  now: number = performance.now(),
): ProgressSummary {
  let totalBytes = 0;
  let doneBytes = 0;
  let filesDone = 0;
  let sized = true;
  let partly = 0;
  const reading: FileRow[] = [];
  for (const row of files) {
    if (row.bytes === null) sized = false;
    else totalBytes += row.bytes;
    doneBytes += row.bytes === null ? row.bytesDone : Math.min(row.bytesDone, row.bytes);
    if (row.status === 'done') filesDone += 1;
    else if (row.status === 'reading') {
      reading.push(row);
      if (row.bytes) partly += Math.min(1, row.bytesDone / row.bytes);
    }
  }
  const share =
    files.length === 0
      ? 0
      : sized && totalBytes > 0
        ? doneBytes / totalBytes
        : sized
          ? filesDone / files.length
          : (filesDone + partly) / files.length;
  const elapsed = startedAt === null ? 0 : now - startedAt;
  const etaMs =
    startedAt !== null && elapsed >= ETA_AFTER_MS && share >= ETA_AFTER_SHARE && share < 1
      ? (elapsed * (1 - share)) / share
      : null;
  return { totalBytes, doneBytes, sized, filesDone, filesTotal: files.length, share, reading, etaMs };
}
