import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseTexts } from './helpers';

// A worker that crashes on its own (an import error) leaves the other nodes' ranks waiting in their first
// collective until the watchdog aborts them (exit code -6). The crash is the cause, whatever the watchdog's
// collective was; a -6 is the watchdog's doing, not a crash of its own.

const DIR = path.join(__dirname, 'fixtures', 'excerpts', 'two-nodes-2.3-worker-crash-one-node-watchdog-other');
const read = (f: string) => readFileSync(path.join(DIR, f), 'utf8');

describe('a worker crash and the watchdogs it leaves', () => {
  it('blames the crash when the watchdog names no SeqNum (torch ≤ 1.9 wording) and no line has a time', () => {
    // Without times the order of events cannot decide: the crash rule must.
    const untimed = (t: string) =>
      t
        .replace(/^\[2024-06-03 [\d:,]+\] torch\.distributed\.run: \[WARNING\] /gm, 'WARNING:torch.distributed.run:')
        .replace(/^\[2024-06-03 [\d:,]+\] ([\w.]+): \[(\w+)\] /gm, '$2:$1:')
        .replace(/^\[rank0\]:\[E603 [\d:.]+ /gm, '[E ')
        .replace(/^ {2}time {6}: .*$/gm, '');
    const m01 = untimed(read('gpu-m01.log')).replace(
      'WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1,',
      'WorkNCCL(OpType=ALLREDUCE,',
    );
    expect(m01).not.toMatch(/2024-06-03|E603/);
    const job = analyseTexts({ 'gpu-m01.log': m01, 'gpu-m02.log': untimed(read('gpu-m02.log')) });
    expect(job.failure?.stage).toBe('worker-error');
    expect(job.failure?.lateNodes).toEqual(['gpu-m02']);
  });

  it('does not blame a node whose workers only died of SIGABRT (-6) while another node’s watchdog fired', () => {
    // gpu-m03's paste keeps only its agent's report of the -6: the watchdog's lines were cut.
    const m03 = read('gpu-m01.log')
      .split('\n')
      .filter((l) => !l.startsWith('[rank0]:'))
      .join('\n')
      .replaceAll('gpu-m01', 'gpu-m03');
    const job = analyseTexts({
      'gpu-m01.log': read('gpu-m01.log'),
      'gpu-m02.log': read('gpu-m02.log'),
      'gpu-m03.log': m03,
    });
    expect(job.failure?.stage).toBe('worker-error');
    expect(job.failure?.lateNodes).toEqual(['gpu-m02']);
  });
});
