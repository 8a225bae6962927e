import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import { analyseTexts } from './helpers';

// The store-based barrier of init_process_group in a job that got through (issue 9, item 9: healthy jobs still
// teach). Lines shaped as torch 1.13 prints them at INFO (docs/pytorch-log-formats.md §5.8; the real 1.13 runs in
// test/fixtures/corpus print the same `Added key` / `Waiting in store based barrier` / `Completed` lines).

const node = (rank: number, workers: number, world = 2) =>
  [
    `INFO:torch.distributed.distributed_c10d:Added key: store_based_barrier_key:1 to store for rank: ${rank}`,
    `INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for rank: ${rank}, key: store_based_barrier_key:1 (world_size=${world}, worker_count=${workers}, timeout=0:30:00)`,
    `INFO:torch.distributed.distributed_c10d:Rank ${rank}: Completed store-based barrier for key:store_based_barrier_key:1 with ${world} nodes.`,
    `[rank${rank}] step 1: loss=2.31`,
  ].join('\n') + '\n';

describe('the store-based barrier in a job that got through', () => {
  it('a wait that completed is told, with its numbers', () => {
    const job = analyseTexts({ 'node0.log': node(0, 1), 'node1.log': node(1, 2) });
    expect(job.verdict).toBe('healthy');
    const f = diagnose(job).findings.find((x) => x.code === 'STORE_BARRIER_WAIT');
    expect(f?.numbers).toMatchObject({ waits: 1, joined: 1, world: 2, timeout: '0:30:00' });
    expect(f?.nodes).toEqual(['node0']);
    expect(diagnose(job).findings.map((x) => x.code)).not.toContain('WORKER_COUNT_EXCEEDS');
  });

  it('more workers than the world size is a warning (stale keys, a double launch)', () => {
    const job = analyseTexts({ 'node0.log': node(0, 1), 'node1.log': node(1, 3) });
    const f = diagnose(job).findings.find((x) => x.code === 'WORKER_COUNT_EXCEEDS');
    expect(f?.severity).toBe('warning');
    expect(f?.numbers).toMatchObject({ workers: 3, world: 2, key: 'store_based_barrier_key:1' });
    expect(f?.nodes).toEqual(['node1']);
  });
});
