import { simpleAdvice } from '../advice';
import type { Context } from './context';
import { evOf } from './evidence';
import { ownError } from './workerCrash';
import type { Draft } from './types';

// RESTART_STORE_REUSED: the agents restarted after a first failure (a worker's error), and every later attempt
// died in init_process_group on an error raised at once (gloo could not connect its mesh) — no limit ran out.
// From 2.5 the workers reuse the agent's rendezvous TCPStore (`use_agent_store: True`) across attempts, and the
// restarted workers read what the previous attempt left there; the restarts could never succeed. Captured real
// 2.6 runs show it (test/fixtures/captured/torch2.6-static-restart-shared-store, -c10d-logdir-restart) and their
// TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 twins recover (…-restart-once-noshare, …-logdir-restart-noshare).

const SETUP = new Set(['pg-init', 'comm-init']);

export function restartStoreDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  // Sharing is off, or the failure was a limit running out (a late node after a restart is the usual story).
  if (!f || !SETUP.has(f.stage) || f.limit !== null || c.job.job.agentStoreShared === false) return [];
  const restarted = c.job.nodes.filter((n) => n.attempts.length > 1);
  // The first attempt failed otherwise (a worker's own error, before the first restart): the restarts then
  // failed in setup on every node that restarted. A first attempt failing the same way is not the reuse.
  const cause = f.reasoning.find((r) => r.code === 'restart-cause');
  if (restarted.length === 0 || !cause) return [];
  if (!restarted.every((n) => n.failureStage !== null && SETUP.has(n.failureStage))) return [];
  const causeNodes = Array.isArray(cause.values.nodes) ? cause.values.nodes.map(String) : [];
  // The first failure as the node that caused it shows it (its worker's own error), else the agent's report.
  const causer = c.job.nodes.find((n) => causeNodes.includes(n.id));
  const own = causer ? ownError(causer.events) : undefined;
  const agentSaid = restarted.map((n) => n.attempts[0]!.failure).find((x) => x !== null)?.evidence;
  const first = own ? evOf(own) : agentSaid ? [agentSaid] : [];
  const shown = c.job.job.agentStoreShared === true;
  return [
    {
      code: 'RESTART_STORE_REUSED',
      severity: 'error',
      numbers: {
        nodes: restarted.map((n) => n.id).join(', '),
        attempts: Math.max(...restarted.map((n) => n.attempts.length)),
        cause: causeNodes.join(', ') || null,
        firstStage: typeof cause.values.stage === 'string' ? cause.values.stage : null,
        shown: shown ? 1 : null,
        version: c.version,
      },
      nodes: [...new Set([...causeNodes, ...restarted.map((n) => n.id)])],
      evidence: [...first, ...f.evidence.slice(0, 2)],
      advice: [simpleAdvice('no-shared-store', 'export TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1')],
    },
  ];
}
