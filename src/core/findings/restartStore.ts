import { simpleAdvice } from '../advice';
import { effectsOf } from '../catalogue';
import { torchMinor } from '../job/facts';
import { maxOf } from '../numbers';
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
  if (!f || !SETUP.has(f.stage) || f.limit !== null || !sharesStore(c)) return [];
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
        attempts: maxOf(restarted.map((n) => n.attempts.length)),
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

/**
 * ROUND_STORE_REUSED: an elastic job grew (a node joined after the world formed: "Detected N new nodes"), the
 * agents met again in a new round, and that round's rank assignment never completed. 2.5+ agents share the
 * first round's rendezvous TCPStore; rank 0 does not publish the bootstrap store again for the new round, so the
 * wait runs out whatever the limit. A real 2.6 run shows it (test/fixtures/captured/torch2.6-c10d-elastic-late-
 * join) and its TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 twin admits the late node (…-elastic-late-join-noshare).
 */
export function roundStoreDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (!f || f.stage !== 'rank-assignment' || !sharesStore(c)) return [];
  const grew = c.job.nodes.filter((n) => n.events.some((e) => effectsOf(e.id).grewWorld));
  if (grew.length === 0) return [];
  // The nodes that joined the grown world: those that never took part in the first round's world.
  const joined = c.job.nodes.filter((n) => n.groupRank === null && n.failureStage !== null).map((n) => n.id);
  return [
    {
      code: 'ROUND_STORE_REUSED',
      severity: 'error',
      numbers: {
        nodes: grew.map((n) => n.id).join(', '),
        joined: joined.join(', ') || null,
        limit: f.limit?.seconds ?? null,
        source: f.limit?.from ?? null,
        shown: c.job.job.agentStoreShared === true ? 1 : null,
        version: c.version,
      },
      nodes: [...new Set([...joined, ...grew.map((n) => n.id)])],
      evidence: [
        ...grew.slice(0, 1).flatMap((n) => evOf(n.events.find((e) => effectsOf(e.id).grewWorld))),
        ...f.evidence.slice(0, 2),
      ],
      advice: [simpleAdvice('no-shared-store', 'export TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1')],
    },
  ];
}

/** The workers share the agent's store: the logs say so, or torch is 2.5+ and the logs say nothing. */
function sharesStore(c: Context): boolean {
  const shared = c.job.job.agentStoreShared;
  if (shared !== null) return shared;
  const minor = torchMinor(c.job.job.torchVersion);
  return minor !== null && minor >= 2.05;
}
