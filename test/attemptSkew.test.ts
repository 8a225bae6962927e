import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import { capturedJob } from './helpers';

// Skew per attempt (issue 9, item 6): each restart meets in its own rendezvous round, so how far apart the
// nodes started it is measured per attempt. The real 2.6 run torch2.6-static-restart-shared-store: the agents
// restart twice (attempts 0, 1, 2), each node's attempts with their own start times.

describe('skew per attempt', () => {
  const job = capturedJob('torch2.6-static-restart-shared-store');
  const restarts = diagnose(job).findings.find((f) => f.code === 'RESTARTS')!;

  it('gives the spread of the nodes’ starts of the last attempt, from their own attempts', () => {
    const last = Math.max(...job.nodes.flatMap((n) => n.attempts.map((a) => a.index)));
    const starts = job.nodes.flatMap((n) => n.attempts.filter((a) => a.index === last && a.start).map((a) => a.start!));
    expect(starts.length).toBeGreaterThan(1);
    const ms = starts.map((s) => Date.parse(s));
    const spread = Math.round((Math.max(...ms) - Math.min(...ms)) / 100) / 10;
    expect(restarts.numbers.lastSkew).toBe(spread);
  });

  it('says it in both languages', () => {
    const en = diagnose(job, 'en').findings.find((f) => f.code === 'RESTARTS')!;
    const zh = diagnose(job, 'zh').findings.find((f) => f.code === 'RESTARTS')!;
    expect(en.detail).toMatch(/the last one's nodes started within [\d.]+ s of each other/);
    expect(zh.detail).toMatch(/最后一次尝试中各节点的启动相差在 [\d.]+ 秒以内/);
  });
});
