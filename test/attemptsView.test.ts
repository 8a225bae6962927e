import { describe, expect, it } from 'vitest';
import type { Attempt, JobModel } from '../src/core/model';
import { attemptBands, attemptsByNode, attemptViews, restartsOf } from '../src/ui/attempts';
import { bindT } from '../src/ui/i18n';
import { attemptEndWords } from '../src/ui/timeline/tips';
import { capturedJob } from './helpers';

// A restarted node's attempts as the timeline and the node details draw them, on real captured restarts
// (test/fixtures/captured: a worker that crashes once with --max-restarts, on 1.13 and 2.6, plain and --log-dir).

const node = (job: JobModel, id: string) => job.nodes.find((n) => n.id === id)!;
const en = bindT('en');

describe('attempts of a restarted node', () => {
  it('2.6 --log-dir: node0 failed in attempt 0, restarted with 1/1 left; attempt 1 never completed its rendezvous', () => {
    const job = capturedJob('torch2.6-c10d-logdir-restart');
    const views = attemptViews(node(job, 'node0').attempts);
    expect(views.map((a) => [a.index, a.ended?.stage ?? null, a.left, a.max, a.formedWorld, a.last])).toEqual([
      [0, 'worker-error', 1, 1, true, false],
      [1, null, null, null, false, true],
    ]);
    // Attempt 0 lasts until attempt 1 begins (12:01:30.092 → 12:01:58.168, the lines' own times).
    expect(views[0]!.startMs).toBe(Date.parse('2026-12-01T12:01:30.092Z'));
    expect(views[0]!.endMs).toBe(Date.parse('2026-12-01T12:01:58.168Z'));
    expect(views[1]!.endMs).toBeNull();
    expect(views[0]!.ended!.evidence.text).toContain('failed (exitcode: 1)');
    expect(views[0]!.evidence.text).toContain('Worker group FAILED. 1/1 attempts left; will restart');
    expect(restartsOf(views)).toBe(1);
    expect(attemptEndWords(en, views[0]!)).toBe('Worker error, then the worker group restarted (1/1 attempts left)');
    expect(attemptEndWords(en, views[1]!, node(job, 'node0').failureStage)).toMatch(
      /^The last attempt in its log: the node failed there \(.+\)$/,
    );
  });

  it('bands on a placed row: one per attempt, end to end, the last to the row end', () => {
    const job = capturedJob('torch2.6-c10d-logdir-restart');
    const views = attemptViews(node(job, 'node1').attempts);
    const rowEnd = Date.parse('2026-12-01T12:02:00Z');
    const bands = attemptBands(views, rowEnd);
    expect(bands.map((b) => b.attempt.index)).toEqual([0, 1]);
    expect(bands[0]!.endMs).toBe(bands[1]!.startMs);
    expect(bands[1]!.endMs).toBe(rowEnd);
    expect(bands.map((b) => b.endUnknown)).toEqual([false, false]);
    // node1 restarted first (its own worker crashed at 12:01:43.78): its attempt 1 formed the world.
    expect(views[1]!.formedWorld).toBe(true);
  });

  it('2.6 restart once: only node1 restarted — node0 and node2 only saw it re-join (restart_count stays 0)', () => {
    const job = capturedJob('torch2.6-c10d-restart-once-noshare');
    const byNode = attemptsByNode(job.nodes);
    expect([...byNode.keys()]).toEqual(['node1']);
    expect(byNode.get('node1')!.map((a) => [a.index, a.formedWorld, a.left, a.max])).toEqual([
      [0, true, 2, 2],
      [1, true, null, null],
    ]);
  });

  it('1.13: attempts without a time are listed but draw no band', () => {
    const job = capturedJob('torch1.13-c10d-restart-once');
    const views = attemptViews(node(job, 'node0').attempts);
    expect(views.map((a) => [a.index, a.startMs, a.ended?.stage ?? null, a.left])).toEqual([
      [0, null, 'worker-error', 2],
      [1, null, null, null],
    ]);
    expect(attemptBands(views, 0)).toEqual([]);
  });

  it('attempts the core did not keep are counted, and an attempt ends only where the very next one begins', () => {
    const at = (index: number, s: number | null, restarted: boolean): Attempt => ({
      index,
      start: s === null ? null : new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString(),
      failure: restarted ? { stage: 'other', evidence: { file: 'a.log', line: index, text: 'x' } } : null,
      attemptsLeft: restarted ? 100 - index : null,
      maxRestarts: restarted ? 100 : null,
      formedWorld: true,
      evidence: { file: 'a.log', line: index + 1, text: 'y' },
    });
    const views = attemptViews([at(0, 0, true), at(1, 10, true), at(40, 20, true), at(41, null, false)]);
    expect(views.map((a) => a.skippedBefore)).toEqual([0, 0, 38, 0]);
    expect(views.map((a) => a.endMs !== null)).toEqual([true, false, false, false]);
    // A band runs to the next attempt with a time; one without a time draws none.
    const bands = attemptBands(views, Date.UTC(2026, 0, 1, 0, 0, 30));
    expect(bands.map((b) => [b.attempt.index, (b.endMs - b.startMs) / 1000, b.endUnknown])).toEqual([
      [0, 10, false],
      [1, 10, true],
      [40, 10, true],
    ]);
    // "other" is no stage to name.
    expect(attemptEndWords(en, views[0]!)).toBe('A failure, then the worker group restarted (100/100 attempts left)');
  });
});
