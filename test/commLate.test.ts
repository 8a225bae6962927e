import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import { findingText } from '../src/core/diagnosisText';
import { analyseTexts, corpusText } from './helpers';

// Ascend servers whose communicator waits ran out minutes apart (CANN's own advice for EI0006): the later
// server reached the communicator late, usually after launching with the others. The limit is the
// HCCL_CONNECT_TIMEOUT the job exported when its set-up lines show one, and the lag worded is the gap into
// the communicator, not the launch lag.

const EXCERPTS = path.join(__dirname, 'fixtures', 'excerpts');
const dirOf = (name: string) => {
  const files: Record<string, Uint8Array> = {};
  for (const f of readdirSync(path.join(EXCERPTS, name)))
    if (f !== 'expect.json') files[`${name}/${f}`] = readFileSync(path.join(EXCERPTS, name, f));
  return analyseTexts(files, 4093, Date.UTC(2026, 11, 1));
};

describe('a node that reached the communicator late', () => {
  it('runs against the HCCL_CONNECT_TIMEOUT its set-up exported, shown as read from the logs', () => {
    // Both servers trace `+ export HCCL_CONNECT_TIMEOUT=600`; EI0006 itself names only the 120 s default.
    const job = dirOf(
      'ascend-two-servers-2.1-hccl-connect-timeout-600-npu-srv-b-fetches-checkpoint-12min-ei0006-both-sides',
    );
    expect(job.job.envTimeouts.HCCL_CONNECT_TIMEOUT?.seconds).toBe(600);
    expect(job.job.envTimeouts.HCCL_EXEC_TIMEOUT?.seconds).toBe(1800);
    expect(job.failure?.limit).toMatchObject({ id: 'hccl-connect', seconds: 600, from: 'logs' });
    expect(job.failure?.limit?.evidence?.text).toContain('export HCCL_CONNECT_TIMEOUT=600');
    const why = job.failure?.reasoning.find((r) => r.code === 'failed-later');
    expect(why?.values).toMatchObject({ nodes: ['npu-srv-b'], limit: 600, assumed: 0, first: 'npu-srv-a' });
  });

  it('is worded by its gap into the communicator, not by its launch lag', () => {
    const job = dirOf('ascend-two-servers-2.1-ei0006-server-b-rebuilds-data-index-10min-zh');
    const late = diagnose(job).findings.find((f) => f.code === 'LATE_NODE')!;
    expect(late.numbers.commFirst).toBe('server-a');
    const gap = Number(late.numbers.commGap);
    // server-b's EI0006 came about 9 min after server-a's; both launched within seconds.
    expect(gap).toBeGreaterThan(500);
    expect(Math.abs(Number(late.numbers.lag))).toBeLessThan(60);
    const en = findingText('en', 'LATE_NODE', late.numbers, late.late);
    expect(en.title).toMatch(/^server-b reached the communicator .*after server-a$/);
    expect(en.detail).toContain('although it launched torchrun only');
    const zh = findingText('zh', 'LATE_NODE', late.numbers, late.late);
    expect(zh.title).toContain('到达通信域建链');
  });

  it('keeps the launch lag for a node that launched late', () => {
    const files: Record<string, string> = {};
    for (const f of ['node0.log', 'node1.log', 'node2.log', 'node3.log'])
      files[f] = corpusText('torch2.6-s2_static_timeout30_node3_late', f);
    const late = diagnose(analyseTexts(files)).findings.find((f) => f.code === 'LATE_NODE')!;
    expect(late.numbers.commGap).toBeUndefined();
    expect(findingText('en', 'LATE_NODE', late.numbers, late.late).detail).toMatch(
      /launched torchrun .* after the first node/,
    );
  });
});

describe('HCCL timeouts set on the launch command line', () => {
  it('are read from the assignments before torchrun, not from its arguments', () => {
    // The shape of a launch script's xtrace (own values); the EI0006 line as test/fixtures/excerpts prints it.
    const job = analyseTexts({
      'npu-a.log': [
        '+ HCCL_CONNECT_TIMEOUT=1200 HCCL_EXEC_TIMEOUT=2400 torchrun --nnodes=2 --nproc_per_node=8 --node_rank=0 --master_addr=10.20.0.11 --master_port=29500 train.py --timeout 30',
      ].join('\n'),
    });
    expect(job.job.envTimeouts.HCCL_CONNECT_TIMEOUT?.seconds).toBe(1200);
    expect(job.job.envTimeouts.HCCL_EXEC_TIMEOUT?.seconds).toBe(2400);
  });

  it('reads nothing from a command that sets no timeout', () => {
    const job = analyseTexts({
      'npu-a.log':
        '+ torchrun --nnodes=2 --nproc_per_node=8 --node_rank=0 --master_addr=10.20.0.11 --master_port=29500 train.py HCCL_CONNECT_TIMEOUT=5\n',
    });
    expect(job.job.envTimeouts).toEqual({});
  });
});
