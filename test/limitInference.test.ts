import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseTexts } from './helpers';

// A limit is "inferred" from how long a node waited between its launch and its failure. An untimed traceback
// line borrows the time of the timed line above it (a lower bound of when it was printed): inferring from
// that would report a limit of a few seconds for a wait the message itself says lasted 1801 s.

const DIR = path.join(__dirname, 'fixtures', 'excerpts', 'deepspeed-pdsh-second-node-launcher-35min-late');

describe('the limit that fired', () => {
  it('is not inferred from an untimed failure line', () => {
    const job = analyseTexts({ 'ds_run.log': readFileSync(path.join(DIR, 'ds_run.log')) });
    expect(job.failure?.stage).toBe('pg-init');
    expect(job.failure?.limit?.from).not.toBe('inferred');
    expect(job.failure?.limit?.seconds).toBeGreaterThanOrEqual(1800);
  });

  it('is inferred when the failure line carries its own time', () => {
    // The same job with the DistStoreError on a timed line, 31 s after its launch: the 1800 s default
    // cannot have fired, so the elapsed time is the limit.
    const text = readFileSync(path.join(DIR, 'ds_run.log'), 'utf8').replace(
      'gpu-d06: torch.distributed.DistStoreError: Timed out after 1801 seconds',
      'gpu-d06: [2024-05-14 09:13:09,210] [ERROR] [train.py:61:main] torch.distributed.DistStoreError: Timed out after 31 seconds',
    );
    const job = analyseTexts({ 'ds_run.log': text });
    expect(job.failure?.limit?.from).toBe('inferred');
    expect(job.failure?.limit?.seconds).toBeCloseTo(31.2, 0);
  });
});
