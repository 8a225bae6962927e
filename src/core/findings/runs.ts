import { simpleAdvice } from '../advice';
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
