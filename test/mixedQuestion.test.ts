import { describe, expect, it } from 'vitest';
import type { JobModel } from '../src/core/model';
import { mixedQuestion, SHOWN_NAMES } from '../src/state/mixedRuns';
import { capturedJob } from './helpers';

// The mixed-runs question the dashboard asks when files are added to the job on screen, on the real captured
// pairs of runs (test/fixtures/captured/*-mixed-runs: run A's node0/node1 and run B's node2/node3 in one
// folder, told apart by their rdzv_id on 1.13 and by their endpoint's port on 2.6).

const A = ['node0.log', 'node1.log'];
const B = ['node2.log', 'node3.log'];

describe('the mixed-runs question', () => {
  it('1.13: run B added to run A on screen — two runs by their rendezvous ids, the one on screen first', () => {
    const q = mixedQuestion(capturedJob('torch1.13-mixed-runs'), new Set(B));
    expect(q).not.toBeNull();
    expect(q!.by).toBe('run-id');
    expect(q!.addedFiles).toBe(2);
    expect(q!.runs.map((r) => [r.source, r.key, r.nodes, r.files])).toEqual([
      ['shown', 'rdzv_id=trainjob-a, rdzv_endpoint=node0:29500', ['node0', 'node1'], A],
      ['added', 'rdzv_id=trainjob-b, rdzv_endpoint=node0:29600', ['node2', 'node3'], B],
    ]);
    // Run A's 1.13 lines carry no time at all; run B's node2 printed timed c10d lines (glog).
    expect([q!.runs[0]!.startMs, q!.runs[0]!.endMs]).toEqual([null, null]);
    expect(q!.runs[1]!.startMs).not.toBeNull();
    expect(q!.runs[1]!.endMs!).toBeGreaterThanOrEqual(q!.runs[1]!.startMs!);
  });

  it('2.6: the runs differ by endpoint, and their times do not overlap (run B started after run A ended)', () => {
    const q = mixedQuestion(capturedJob('torch2.6-mixed-runs'), new Set(B));
    expect(q!.by).toBe('endpoint');
    expect(q!.runs.map((r) => [r.source, r.key])).toEqual([
      ['shown', 'rdzv_endpoint=node0:29500'],
      ['added', 'rdzv_endpoint=node0:29700'],
    ]);
    const [a, b] = q!.runs;
    expect(a!.endMs!).toBeLessThan(b!.startMs!);
    expect(a!.endMs! - a!.startMs!).toBeGreaterThan(0);
  });

  it('the other way round: run A added to run B on screen lists run B first', () => {
    const q = mixedQuestion(capturedJob('torch2.6-mixed-runs'), new Set(A));
    expect(q!.runs.map((r) => [r.source, r.nodes])).toEqual([
      ['shown', ['node2', 'node3']],
      ['added', ['node0', 'node1']],
    ]);
  });

  it('files that joined one of the runs on screen are no question, even when the job already mixes two', () => {
    expect(mixedQuestion(capturedJob('torch1.13-mixed-runs'), new Set(['node1.log']))).toBeNull();
    expect(mixedQuestion(capturedJob('torch1.13-mixed-runs'), new Set(['node3.log']))).toBeNull();
  });

  it('a drop that brings both runs at once, onto nothing of theirs, is no question (MIXED_JOBS says it)', () => {
    expect(mixedQuestion(capturedJob('torch2.6-mixed-runs'), new Set([...A, ...B]))).toBeNull();
  });

  it('a drop bringing more of a run on screen and another run: that run is on screen and just added', () => {
    const q = mixedQuestion(
      capturedJob('torch2.6-mixed-runs', ['node0.log', ...A.slice(1), ...B]),
      new Set(['node1.log', ...B]),
    );
    expect(q!.runs.map((r) => r.source)).toEqual(['both', 'added']);
    expect(q!.addedFiles).toBe(3);
  });

  it('a single run never asks: more nodes of the restart run, or of a --log-dir tree', () => {
    const restart = capturedJob('torch2.6-c10d-restart-once-noshare');
    expect(restart.mixedJobs).toBeNull();
    expect(mixedQuestion(restart, new Set(['node2.log']))).toBeNull();
    const tree = capturedJob('torch2.6-c10d-logdir-restart');
    const added = new Set(tree.files.map((f) => f.file).filter((f) => f.startsWith('node2')));
    expect(added.size).toBeGreaterThan(1);
    expect(mixedQuestion(tree, added)).toBeNull();
  });

  it('names past the first few are counted, not listed', () => {
    const nodes = (p: string) => Array.from({ length: 20 }, (_, i) => `${p}${i}`);
    const job: Pick<JobModel, 'mixedJobs' | 'nodes' | 'files'> = {
      mixedJobs: {
        by: 'endpoint',
        groups: [
          { key: 'rdzv_endpoint=a:1', nodes: nodes('a'), files: nodes('a').map((n) => `${n}.log`) },
          { key: 'rdzv_endpoint=b:2', nodes: nodes('b'), files: nodes('b').map((n) => `${n}.log`) },
        ],
      },
      nodes: [],
      files: [],
    };
    const q = mixedQuestion(job, new Set(nodes('b').map((n) => `${n}.log`)));
    expect(q!.runs[1]).toMatchObject({ source: 'added', nodeCount: 20, fileCount: 20, startMs: null });
    expect(q!.runs[1]!.nodes).toHaveLength(SHOWN_NAMES);
    expect(q!.runs[1]!.files).toEqual(
      nodes('b')
        .slice(0, SHOWN_NAMES)
        .map((n) => `${n}.log`),
    );
  });
});
