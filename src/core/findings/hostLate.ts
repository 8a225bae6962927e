import { simpleAdvice } from '../advice';
import type { Context } from './context';
import type { Draft } from './types';

// HOST_NODE_LATE: the node hosting the rendezvous store came late. The clients gave up connecting once their
// connect deadline ran out — that is the limit that fired (read_timeout for c10d, timeout for static, as the
// failure's own line states it), and the one the advice raises; the host's own later failure is a consequence.

const LIMIT_KEY: Record<string, string> = {
  'read-timeout': 'read_timeout',
  'rdzv-timeout': 'timeout',
  'join-timeout': 'join_timeout',
};

export function hostLateDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (!c.hostLate || !f) return [];
  const fired = f.limit && LIMIT_KEY[f.limit.id] ? f.limit : null;
  const fallback = c.limits.find((l) => l.id === (c.dynamic ? 'read-timeout' : 'rdzv-timeout'));
  return [
    {
      code: 'HOST_NODE_LATE',
      severity: 'error',
      numbers: {
        node: c.host!.id,
        lag: c.host!.lagSeconds,
        role: c.dynamic ? 'the c10d rendezvous endpoint' : 'node_rank 0, static rendezvous',
        limitName: fired ? LIMIT_KEY[fired.id]! : c.dynamic ? 'read_timeout' : 'timeout',
        limit: fired?.seconds ?? fallback?.seconds ?? null,
        source: fired?.from ?? (fallback?.from === 'logs' ? 'logs' : 'default'),
      },
      nodes: [c.host!.id],
      evidence: f.evidence.slice(0, 3),
      advice: [simpleAdvice('start-host-first'), c.rdzvAdvice(), ...c.causeAdvice],
    },
  ];
}
