import { patchSynchronizeAdvice, recommendedTimeout, stageDataAdvice, upgradeAdvice } from '../advice';
import { missingIsCulprit } from '../blame';
import { hasStoreSync } from '../thresholds';
import type { Context } from './context';
import type { Draft } from './types';

// SKEW_EXCEEDS_STORE_SYNC: on torch ≤ 2.3 the rank assignment after the rendezvous waits at most 300 s
// (store_util.synchronize) and no flag raises it — the seed problem.

export function storeSyncDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (f?.stage !== 'rank-assignment' || !hasStoreSync(c.job)) return [];
  if (f.timeoutSeconds !== 300 && f.timeoutSeconds !== null) return [];
  const upgradeTo = Math.max(recommendedTimeout(c.job.skewSeconds), 1800);
  const patch = patchSynchronizeAdvice(c.job, upgradeTo);
  return [
    {
      code: 'SKEW_EXCEEDS_STORE_SYNC',
      severity: 'error',
      numbers: {
        late: c.lateIds.join(', ') || null,
        // No node present was late and a node has no log: that one is who they waited for.
        missing: c.lateIds.length === 0 && missingIsCulprit(f) ? c.job.missingNodes.join(', ') || null : null,
        first: c.first?.id ?? null,
        skew: c.job.skewSeconds,
        waiters: f.reportedBy.join(', '),
        version: c.version,
        limit: 300,
        rdzvLimit: c.rdzv?.seconds ?? null,
      },
      nodes: [...f.reportedBy, ...c.lateIds],
      evidence: f.evidence,
      advice: [
        ...c.causeAdvice,
        upgradeAdvice(upgradeTo, c.job.job.torchInstall),
        ...(patch ? [patch] : []),
        stageDataAdvice(),
      ],
    },
  ];
}
