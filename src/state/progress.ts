import type { FileRow } from './store';

export interface ProgressSummary {
  totalBytes: number;
  doneBytes: number;
  filesDone: number;
  filesTotal: number;
  /** Files being read right now (at most one per worker). */
  reading: FileRow[];
}

export function summariseProgress(files: FileRow[]): ProgressSummary {
  let totalBytes = 0;
  let doneBytes = 0;
  let filesDone = 0;
  const reading: FileRow[] = [];
  for (const row of files) {
    totalBytes += row.bytes;
    doneBytes += Math.min(row.bytesDone, row.bytes);
    if (row.status === 'done') filesDone += 1;
    else if (row.status === 'reading') reading.push(row);
  }
  return { totalBytes, doneBytes, filesDone, filesTotal: files.length, reading };
}
