import { describe, expect, it } from 'vitest';
import { summariseProgress } from './progress';
import type { FileRow } from './store';

const row = (bytes: number | null, bytesDone: number, status: FileRow['status']): FileRow => ({
  path: `f${bytes}-${bytesDone}-${status}`,
  bytes,
  bytesDone,
  status,
  run: 1,
});

describe('summariseProgress', () => {
  it('adds the bytes and counts the files, and lists those being read', () => {
    const s = summariseProgress([row(100, 100, 'done'), row(300, 50, 'reading'), row(600, 0, 'queued')], null);
    expect(s).toMatchObject({
      totalBytes: 1000,
      doneBytes: 150,
      sized: true,
      filesDone: 1,
      filesTotal: 3,
      etaMs: null,
    });
    expect(s.share).toBeCloseTo(0.15);
    expect(s.reading.map((r) => r.bytesDone)).toEqual([50]);
  });

  it('goes by files while sizes are still unknown (a large drop learns them as each file starts)', () => {
    const s = summariseProgress(
      [row(100, 100, 'done'), row(400, 100, 'reading'), row(null, 0, 'queued'), row(null, 0, 'queued')],
      null,
    );
    expect(s.sized).toBe(false);
    // One file done and a quarter of another, of four.
    expect(s.share).toBeCloseTo(1.25 / 4);
    expect(s.totalBytes).toBe(500);
  });

  it('gives the time left at the pace so far, once a second and 2 % of the work have passed', () => {
    const files = [row(1000, 250, 'reading'), row(1000, 0, 'queued')];
    // 250 of 2000 bytes (12.5 %) in 2 s: 14 s left at that pace.
    expect(summariseProgress(files, 0, 2000).etaMs).toBeCloseTo(14000);
    expect(summariseProgress(files, 0, 500).etaMs).toBeNull();
    expect(summariseProgress([row(1000, 10, 'reading')], 0, 5000).etaMs).toBeNull();
    expect(summariseProgress([row(1000, 1000, 'done')], 0, 5000).etaMs).toBeNull();
  });
});
