import { simpleAdvice } from '../advice';
import type { Context } from './context';
import type { Draft } from './types';

// STORE_UNREACHABLE: clients could not connect to the store and no log shows its host came late — the host
// may not have run at all, or the address is wrong or blocked.

export function storeUnreachableDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if ((f?.stage !== 'store-connect' && f?.stage !== 'rendezvous-connection') || c.hostLate) return [];
  return [
    {
      code: 'STORE_UNREACHABLE',
      severity: 'error',
      numbers: {
        endpoint: c.job.job.rdzvEndpoint,
        reporters: f.reportedBy.join(', '),
        limit: f.timeoutSeconds,
        source: f.limit?.from ?? null,
        missing: c.job.missingNodes.length ? c.job.missingNodes.join(', ') : null,
      },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [
        simpleAdvice('check-endpoint', null, { endpoint: c.job.job.rdzvEndpoint ?? '?' }),
        simpleAdvice('start-host-first'),
        c.rdzvAdvice(),
      ],
    },
  ];
}
