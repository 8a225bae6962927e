import { effectsOf } from '../catalogue';
import { statedSeconds } from '../durations';
import type { LogEvent } from '../model';

// When a node's torchrun started: the first launch line with a time; failing that, a failure that states how
// long it waited since the launch (a connect timeout, the master's wait for clients), minus that wait; failing
// that, the last time the job script printed (`date`) above its first launch line — a bound: torchrun started
// at or after it; failing that, the first timed line a little below the launch, before anything ended (torch
// ≤ 2.0 prints its launch untimed while the etcd rendezvous it starts at once logs with a time) — a bound too:
// torchrun started then or a little before.

export interface Launch {
  ms: number | null;
  from: 'line' | 'derived' | null;
  /** The failure whose stated wait placed the launch, when derived. */
  derivedFrom: { event: LogEvent; waited: number } | null;
  /** The job script's printed time that placed the launch, when no launch line has a time of its own. */
  scriptClock?: LogEvent;
  /** The first timed line just below the untimed launch that placed it. */
  clockBelow?: LogEvent;
}

/** Seconds the event says it waited since the node's launch, or null. */
export function waitedSinceLaunch(e: LogEvent): number | null {
  const fx = effectsOf(e.id);
  // A connect timeout inside init_process_group waited since the worker started, not since the launch.
  if (!fx.waitedSinceLaunch || (fx.stage !== undefined && e.stage !== fx.stage)) return null;
  return statedSeconds(e.fields, fx.waitedSinceLaunch);
}

export function placeLaunch(evs: LogEvent[], timeOf: (e: LogEvent) => number | null): Launch {
  let ms: number | null = null;
  for (const e of evs) {
    if (e.kind !== 'launch') continue;
    const t = timeOf(e);
    if (t !== null && (ms === null || t < ms)) ms = t;
  }
  if (ms !== null) return { ms, from: 'line', derivedFrom: null };
  for (const e of evs) {
    const w = waitedSinceLaunch(e);
    const t = w === null ? null : timeOf(e);
    if (w !== null && t !== null) return { ms: t - w * 1000, from: 'derived', derivedFrom: { event: e, waited: w } };
  }
  const clock = scriptClockAbove(evs, timeOf);
  if (clock) return { ms: clock.ms, from: 'line', derivedFrom: null, scriptClock: clock.event };
  const below = clockBelow(evs, timeOf);
  if (below) return { ms: below.ms, from: 'line', derivedFrom: null, clockBelow: below.event };
  return { ms: null, from: null, derivedFrom: null };
}

/** Lines below an untimed launch within which a timed line still places it (the rendezvous' first lines). */
const BELOW_LAUNCH_LINES = 40;

/**
 * The first timed event a few lines below the node's first launch line (same file), while its startup is still
 * going: before any failure after a wait, exit, restart or completed rendezvous.
 */
function clockBelow(evs: LogEvent[], timeOf: (e: LogEvent) => number | null): { event: LogEvent; ms: number } | null {
  let first: LogEvent | null = null;
  for (const e of evs)
    if (e.kind === 'launch' && (first === null || (e.file === first.file && e.line < first.line))) first = e;
  if (first === null) return null;
  const below = evs
    .filter((e) => e.file === first.file && e.line > first.line && e.line - first.line <= BELOW_LAUNCH_LINES)
    .sort((a, b) => a.line - b.line);
  for (const e of below) {
    // A failure raised at once (a rendezvous found closed) still bounds the launch; one after a wait does not.
    const startup = e.kind === 'launch' || e.kind === 'info' || e.kind === 'rendezvous-begin';
    if (!startup && !effectsOf(e.id).immediate) return null;
    const t = e.clocks.length ? timeOf(e) : null;
    if (t !== null) return { event: e, ms: t };
  }
  return null;
}

/** The last script-printed time above the node's first launch line, in that line's file. */
function scriptClockAbove(
  evs: LogEvent[],
  timeOf: (e: LogEvent) => number | null,
): { event: LogEvent; ms: number } | null {
  let first: LogEvent | null = null;
  for (const e of evs)
    if (e.kind === 'launch' && (first === null || (e.file === first.file && e.line < first.line))) first = e;
  if (first === null) return null;
  let best: { event: LogEvent; ms: number } | null = null;
  for (const e of evs) {
    if (e.file !== first.file || e.line >= first.line || !effectsOf(e.id).scriptClock) continue;
    const t = timeOf(e);
    if (t !== null && (best === null || e.line > best.event.line)) best = { event: e, ms: t };
  }
  return best;
}
