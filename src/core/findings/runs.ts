import { simpleAdvice } from '../advice';
import type { Attempt } from '../model';
import type { Context } from './context';
import type { Draft } from './types';

// Restarts and mixed runs: what failed before each restart and whether the last attempt formed the world;
// logs of different runs dropped together.

export function restartDrafts(c: Context): Draft[] {
  const restarted = c.job.nodes.filter((n) => n.attempts.length > 1 || n.attempts.some((a) => a.index > 0));
  if (restarted.length === 0) return [];
  const most = restarted.reduce((a, b) => (b.attempts.length > a.attempts.length ? b : a));
  const last = most.attempts.at(-1)!;
  const before = most.attempts.filter((a) => a.failure !== null);
  const stages = [...new Set(before.map((a) => a.failure?.stage).filter((s): s is NonNullable<typeof s> => !!s))];
  const skews = attemptSkews(restarted.map((n) => n.attempts));
  const worst = skews.reduce<{ index: number; seconds: number } | null>(
    (w, x) => (w === null || x.seconds > w.seconds ? x : w),
    null,
  );
  return [
    {
      code: 'RESTARTS',
      severity: c.job.verdict === 'healthy' && last.formedWorld ? 'info' : 'warning',
      numbers: {
        nodes: restarted.map((n) => n.id).join(', '),
        attempts: most.attempts.length,
        restarts: before.length,
        stages: stages.join(', ') || null,
        left: before.at(-1)?.attemptsLeft ?? null,
        max: before.at(-1)?.maxRestarts ?? null,
        lastFormed: last.formedWorld ? 1 : null,
        // Skew per attempt: the spread of the nodes' starts of each attempt (two nodes or more placed).
        lastSkew: skews.find((x) => x.index === last.index)?.seconds ?? null,
        worstSkew: worst && skews.length > 1 ? worst.seconds : null,
        worstAttempt: worst && skews.length > 1 ? worst.index : null,
      },
      nodes: restarted.map((n) => n.id),
      evidence: before.slice(0, 3).map((a) => a.failure!.evidence),
      advice: [],
    },
  ];
}

export function mixedDrafts(c: Context): Draft[] {
  const m = c.job.mixedJobs;
  if (!m) return [];
  return [
    {
      code: 'MIXED_JOBS',
      severity: 'warning',
      numbers: {
        runs: m.groups.length,
        by: m.by,
        groups: m.groups.map((g) => `${g.key}: ${g.nodes.join(', ')}`).join('; '),
      },
      nodes: m.groups.flatMap((g) => g.nodes),
      evidence: [],
      advice: [simpleAdvice('collect-logs')],
    },
  ];
}

/** Per attempt index, how far apart the nodes that show it started it (seconds, two nodes or more). */
function attemptSkews(perNode: Attempt[][]): { index: number; seconds: number }[] {
  const starts = new Map<number, number[]>();
  for (const attempts of perNode)
    for (const a of attempts) {
      const t = a.start === null ? NaN : Date.parse(a.start);
      if (Number.isFinite(t)) starts.set(a.index, [...(starts.get(a.index) ?? []), t]);
    }
  return [...starts]
    .filter(([, ts]) => ts.length > 1)
    .map(([index, ts]) => ({ index, seconds: Math.round((maxOf(ts) - minOf(ts)) / 100) / 10 }))
    .sort((a, b) => a.index - b.index);
}

const minOf = (xs: number[]) => xs.reduce((a, b) => (b < a ? b : a));
const maxOf = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a));
