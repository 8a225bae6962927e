import { effectsOf } from '../../catalogue';
import type { LogEvent } from '../../model';
import { CONNECT_STAGES, isFailureSignal } from './view';

// A node's own failure: the exception that ended its agent — its last primary signal, specific stages first.
// A node visibly torn down (its workers signalled, its rendezvous shutdown failing, its traceback cut) has
// failed even when no primary message is in its log; a connect failure it recovered from is not a failure.

const specific = (e: LogEvent) => e.stage !== 'other' && e.stage !== 'worker-error';

export function nodeFailure(events: LogEvent[]): LogEvent | null {
  // The last line, per file, that shows the node reached the store: connect failures before it were recovered.
  const reachedUntil = new Map<string, number>();
  for (const e of events)
    if (effectsOf(e.id).store === 'reached') reachedUntil.set(e.file, Math.max(reachedUntil.get(e.file) ?? 0, e.line));
  const recovered = (e: LogEvent) =>
    e.stage !== undefined && CONNECT_STAGES.includes(e.stage) && (reachedUntil.get(e.file) ?? -1) > e.line;

  const prim = events.filter((e) => isFailureSignal(e) && e.role === 'primary' && !recovered(e));
  const pick = (prim.some(specific) ? prim.filter(specific) : prim).at(-1);
  if (pick) return pick;
  // Only consequences: failure-kind ones and signs of being torn down — not benign errors such as a quick
  // exit-barrier race or a reset connection at the end of a healthy run.
  const cons = events.filter(
    (e) => e.stage !== undefined && (e.kind === 'failure' || effectsOf(e.id).tornDown === true) && !recovered(e),
  );
  return (cons.some(specific) ? cons.filter(specific) : cons).at(-1) ?? null;
}
