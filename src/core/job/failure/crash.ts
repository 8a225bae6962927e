import { effectsOf } from '../../catalogue';
import type { FailureStage, LogEvent } from '../../model';
import { lastRound } from '../attempts';
import { nodeFailure } from './own';
import { WAIT_STAGES, abortedByWatchdog, type NodeView } from './view';

// A worker that crashed with its own error (not a timeout) before the others' workers got through
// init_process_group: they then wait for its ranks until their limit runs out. The crash is the cause; the
// waits are consequences, whatever limit they hit.

/** Stages in which a node waits for the ranks (or the agent) of another node: a crash there leaves them waiting
 * (a collective's watchdog too: its peer's ranks are gone, so the collective never completes). */
const WORKER_WAITS: FailureStage[] = ['pg-init', 'comm-init', 'rank-assignment', 'exit-barrier', 'collective-timeout'];

export interface Crash {
  crashers: string[];
  waiters: string[];
  waitStage: FailureStage;
}

export function workerCrash(views: NodeView[], own: Map<string, LogEvent>): Crash | null {
  const primary = [...own.entries()].filter(([, e]) => e.role === 'primary' || e.stage === 'exit-barrier');
  const waiting = primary.filter(([, e]) => WORKER_WAITS.includes(e.stage!));
  const watchdog = waiting.some(([, e]) => e.stage === 'collective-timeout' || e.stage === 'comm-init');
  const crashed = [...own.entries()].filter(
    ([, e]) => e.stage === 'worker-error' && !(watchdog && abortedByWatchdog(e)),
  );
  if (crashed.length === 0 || waiting.length === 0) return null;
  const viewOf = new Map(views.map((v) => [v.node.id, v]));
  // With times, the crash must come before the waits end (a crash after them is a consequence too).
  const t = (id: string, e: LogEvent) => viewOf.get(id)!.timeOf(e);
  // A wait ended by the peer going away ended because of the crash, whenever its untimed lines seem to be.
  let firstWaitEnd = Infinity;
  for (const [id, e] of waiting)
    if (!effectsOf(e.id).peerGone) firstWaitEnd = Math.min(firstWaitEnd, t(id, e) ?? Infinity);
  const causes = crashed.filter(([id, e]) => (t(id, e) ?? -Infinity) <= firstWaitEnd);
  if (causes.length === 0) return null;
  const stages = waiting.map(([, e]) => e.stage!);
  const waitStage = WORKER_WAITS.find((s) => stages.includes(s))!;
  return { crashers: causes.map(([id]) => id), waiters: waiting.map(([id]) => id), waitStage };
}

/** Events of a node's first round: before the first restart of its worker group in each file. */
function firstRound(evs: LogEvent[]): LogEvent[] {
  const firstRestart = new Map<string, number>();
  for (const e of evs)
    if (e.kind === 'restart') firstRestart.set(e.file, Math.min(firstRestart.get(e.file) ?? Infinity, e.line));
  return evs.filter(
    (e) => !/[\\/]attempt_[1-9]\d*[\\/]/.test(e.file) && e.line < (firstRestart.get(e.file) ?? Infinity),
  );
}

/**
 * When the agents restarted: the nodes whose worker crashed with its own error in the first round (the cause
 * every restart then carried). Null when nobody restarted or the first failures were not worker crashes.
 */
export function restartCause(views: NodeView[]): { nodes: string[]; stage: FailureStage } | null {
  const restarted = views.some((v) => v.events.some((e) => e.kind === 'restart'));
  if (!restarted) return null;
  const nodes: string[] = [];
  for (const v of views) {
    const round = firstRound(v.events);
    if (round.length === lastRound(v.events).length) continue;
    const f = nodeFailure(round);
    if (f && f.role === 'primary' && f.stage === 'worker-error') nodes.push(v.node.id);
  }
  return nodes.length ? { nodes, stage: 'worker-error' } : null;
}

export { WAIT_STAGES };
