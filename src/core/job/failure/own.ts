import { effectsOf } from '../../catalogue';
import type { FailureStage, LogEvent } from '../../model';
import { endsInRestart, lastRound } from '../attempts';
import { CONNECT_STAGES, WAIT_STAGES, abortedByWatchdog, isFailureSignal, stoppedFromOutside } from './view';

// A node's own failure: the exception that ended its agent — its last primary signal, specific stages first.
// Only the node's last rendezvous round counts (a failure its agent restarted from is the restart's story),
// and once its workers finished only the exit barrier can still fail it: keep-alive and shutdown errors of a
// finished agent are noise. A node visibly torn down (its workers signalled, its rendezvous shutdown failing,
// its traceback cut) has failed even when no primary message is in its log; a connect failure it recovered
// from is not a failure.

/** Where a node waits on the store during startup (not the exit barrier, where a reset is a finished peer). */
const STARTUP_WAITS: FailureStage[] = [...CONNECT_STAGES, ...WAIT_STAGES, 'rendezvous-closed'];

const specific = (e: LogEvent) => e.stage !== 'other' && e.stage !== 'worker-error';

/**
 * An exception no frame places (its traceback cut away, or shown by pytest's margin) that the agent then
 * reports as a worker's failure (`failed (exitcode: N) local_rank: …`, ChildFailedError): it was raised in
 * that worker — the entry's user-code stage, not an unplaced `other`.
 */
function workersOwn(pick: LogEvent, live: LogEvent[]): LogEvent {
  const userStage = effectsOf(pick.id).userCodeStage;
  if (pick.stage !== 'other' || !userStage || pick.frames?.length) return pick;
  const reported = live.some(
    (e) => e.file === pick.file && e.line > pick.line && e.stage === 'worker-error' && e.role === 'consequence',
  );
  return reported ? { ...pick, stage: userStage } : pick;
}

/**
 * An agent whose own worker failed first (a segfault, an exception: not the watchdog's SIGABRT, not the
 * agent's own SIGTERM) waits at the exit barrier for the other agents and times out there: its failure is the
 * worker's, the exit barrier its consequence.
 */
function workerFailedFirst(pick: LogEvent, live: LogEvent[]): LogEvent | null {
  if (pick.stage !== 'exit-barrier') return null;
  const watchdog = live.some((e) => e.file === pick.file && e.line < pick.line && e.stage === 'collective-timeout');
  return (
    live.find(
      (e) =>
        e.file === pick.file &&
        e.line < pick.line &&
        e.stage === 'worker-error' &&
        effectsOf(e.id).reportsWorkerExit === true &&
        e.fields.exitcode !== undefined &&
        !stoppedFromOutside(e) &&
        !(watchdog && abortedByWatchdog(e)),
    ) ?? null
  );
}

export function nodeFailure(events: LogEvent[]): LogEvent | null {
  const last = lastRound(events);
  // A log that ends right after a restart shows no outcome of the new round: the failure that caused the
  // restart is what the log shows of how the node ended. A failure in the new round (its rendezvous found
  // closed, even as a consequence) is that round's outcome.
  const inconclusive =
    endsInRestart(events) && !last.some((e) => isFailureSignal(e) && (e.role === 'primary' || e.kind === 'failure'));
  const round = inconclusive ? events : last;
  const finishedAt = new Map<string, number>();
  const reachedUntil = new Map<string, number>();
  for (const e of round) {
    if (e.kind === 'exit') finishedAt.set(e.file, Math.min(finishedAt.get(e.file) ?? Infinity, e.line));
    if (effectsOf(e.id).store === 'reached' || effectsOf(e.id).store === 'lost')
      reachedUntil.set(e.file, Math.max(reachedUntil.get(e.file) ?? 0, e.line));
  }
  // (The launcher's own report of the outcome comes after the finish by design: ChildFailedError.)
  const afterFinish = (e: LogEvent) =>
    e.line > (finishedAt.get(e.file) ?? Infinity) && e.stage !== 'exit-barrier' && !effectsOf(e.id).finalReport;
  // The last line, per file, that shows the node reached the store: connect failures before it were recovered.
  const recovered = (e: LogEvent) =>
    e.stage !== undefined && CONNECT_STAGES.includes(e.stage) && (reachedUntil.get(e.file) ?? -1) > e.line;
  const live = round.filter((e) => !afterFinish(e) && !recovered(e));

  const prim = live.filter((e) => isFailureSignal(e) && e.role === 'primary');
  const pick = (prim.some(specific) ? prim.filter(specific) : prim).at(-1);
  if (pick) return workerFailedFirst(pick, live) ?? workersOwn(pick, live);
  // Only consequences: failure-kind ones and signs of being torn down — not benign errors such as a quick
  // exit-barrier race or a reset connection at the end of a healthy run.
  // A store lost while the frames show the node waiting in a startup stage is its host going away under it.
  const lostInStartup = (e: LogEvent) =>
    effectsOf(e.id).store === 'lost' && e.stage !== undefined && STARTUP_WAITS.includes(e.stage);
  const cons = live.filter(
    (e) => e.stage !== undefined && (e.kind === 'failure' || effectsOf(e.id).tornDown === true || lostInStartup(e)),
  );
  // A launcher's summary that the command failed (stage `other`) says less than the worker failure it follows.
  const told = cons.some(specific) ? cons.filter(specific) : cons.filter((e) => e.stage === 'worker-error');
  return (told.length ? told : cons).at(-1) ?? null;
}

/**
 * A node with no failure of its own whose log ends on connect attempts being retried (no store reached after
 * them): it was still trying to reach the store when its log was taken. Its last retry, or null.
 */
export function stillConnecting(events: LogEvent[]): LogEvent | null {
  const round = lastRound(events);
  let retry: LogEvent | null = null;
  for (const e of round) {
    const fx = effectsOf(e.id);
    if (fx.connectRetry) retry = e;
    else if (retry && (fx.store !== undefined || e.kind === 'rendezvous-complete' || e.kind === 'workers-started'))
      retry = null;
  }
  return retry;
}
