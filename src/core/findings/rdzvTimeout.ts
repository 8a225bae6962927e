import type { Context } from './context';
import { runIdMismatch } from './runIdMismatch';
import type { Draft } from './types';

// SKEW_EXCEEDS_RDZV_TIMEOUT: the nodes started further apart than the rendezvous waits (timeout for static
// and etcd, join_timeout for c10d — which ignores timeout). The limit says where its value comes from.

export function rdzvTimeoutDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (f?.stage !== 'rendezvous-timeout' || !c.rdzv || runIdMismatch(c)) return [];
  const userTimeout = c.job.job.rdzvConfigs?.timeout;
  const fired = f.limit && (f.limit.id === 'join-timeout' || f.limit.id === 'rdzv-timeout') ? f.limit : null;
  const key = (fired?.id ?? c.rdzv.id) === 'join-timeout' ? 'join_timeout' : 'timeout';
  const limit = fired?.seconds ?? c.rdzv.seconds;
  // The nodes present started well inside the limit and one with no log was waited for: the skew did not
  // exceed the limit as far as the logs show — the missing node was later than the limit, or never came.
  const skew = c.job.skewSeconds;
  const missing =
    c.job.missingCount > 0 && c.lateIds.length === 0 && skew !== null && skew < limit
      ? c.job.missingNodes.join(', ') || String(c.job.missingCount)
      : null;
  return [
    {
      code: 'SKEW_EXCEEDS_RDZV_TIMEOUT',
      severity: 'error',
      numbers: {
        key,
        limit,
        source: fired?.from ?? (c.rdzv.from === 'logs' ? 'logs' : 'default'),
        backend: c.backend,
        version: c.job.job.torchVersion,
        skew,
        missing,
        reporters: f.reportedBy.join(', '),
        late: c.lateIds.join(', ') || null,
        ignoredTimeout:
          c.dynamic && userTimeout !== undefined && !c.job.job.rdzvConfigsDefaulted.includes('timeout')
            ? userTimeout
            : null,
      },
      nodes: [...f.reportedBy, ...c.lateIds],
      evidence: [...f.evidence, ...(c.rdzv.evidence ? [c.rdzv.evidence] : [])],
      advice: [c.rdzvAdvice(), ...c.causeAdvice],
    },
  ];
}
