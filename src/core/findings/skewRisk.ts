import { recommendedTimeout, upgradeAdvice } from '../advice';
import { type Context, LATE_MIN_S } from './context';
import { evOf } from './evidence';
import type { Draft } from './types';

// SKEW_RISK: a job that survived (or whose logs stop) with its nodes started close to — or past — a limit it
// happened not to hit. A healthy job still teaches.

export function skewRiskDrafts(c: Context): Draft[] {
  const { job } = c;
  if (job.failure || job.skewSeconds === null || job.skewSeconds < LATE_MIN_S) return [];
  const candidates = c.limits.filter((l) => l.applies && (l.id === 'store-sync' || l.id === c.rdzv?.id));
  const tight = candidates.sort((a, b) => a.seconds - b.seconds)[0];
  if (!tight || job.skewSeconds < tight.seconds * 0.5) return [];
  return [
    {
      code: 'SKEW_RISK',
      severity: 'warning',
      numbers: {
        skew: job.skewSeconds,
        limit: tight.seconds,
        source: tight.from === 'logs' ? 'logs' : 'default',
        limitName:
          tight.id === 'store-sync'
            ? 'rank-assignment wait (store synchronize)'
            : tight.id === 'join-timeout'
              ? 'join_timeout'
              : 'timeout',
        survived: job.skewSeconds > tight.seconds ? 1 : null,
        outcome: job.verdict === 'incomplete' ? 'incomplete' : 'healthy',
      },
      nodes: c.lateIds,
      evidence: c.lateNodes.flatMap((n) => evOf(n.events.find((e) => e.kind === 'launch'))).slice(0, 3),
      advice: [
        ...(tight.id === 'store-sync'
          ? [upgradeAdvice(recommendedTimeout(job.skewSeconds), job.job.torchInstall)]
          : [c.rdzvAdvice()]),
        ...c.causeAdvice,
      ],
    },
  ];
}
