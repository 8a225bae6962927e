// A restarted node's attempts as the views draw them (the timeline's bands, the node detail's list): the
// core's attempts (restart_count, what ended each, attempts left, whether its rendezvous completed) with the
// instants they span. Pure data, made once per job.
import type { Attempt, EvidenceLine, FailureStage } from '../core/model';
import type { NodeView } from '../ingest/index';

export interface AttemptView {
  /** restart_count: 0 for the first run of the worker group. */
  index: number;
  /** Its first line's instant on the job clock (ms), when that line has a time. */
  startMs: number | null;
  /** Where the next attempt began; null for the node's last attempt, or when the next one's start is unknown. */
  endMs: number | null;
  /** What failed before it restarted (a failure line, or the restart line when none precedes it). */
  ended: { stage: FailureStage | null; evidence: EvidenceLine } | null;
  /** "N/M attempts left" as the restart printed it. */
  left: number | null;
  max: number | null;
  /** Its rendezvous completed (a `restart_count` result names it). */
  formedWorld: boolean;
  last: boolean;
  /** The line to open for it: its restart line when it restarted, else its first line. */
  evidence: EvidenceLine;
  /**
   * Attempts the core did not keep between the one before and this one (a log appended to across hundreds of
   * restarts keeps its first and last ones).
   */
  skippedBefore: number;
}

const msOf = (iso: string | null): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

export function attemptViews(attempts: readonly Attempt[]): AttemptView[] {
  return attempts.map((a, i) => {
    const next = attempts[i + 1];
    const prev = attempts[i - 1];
    return {
      index: a.index,
      startMs: msOf(a.start),
      // An attempt ends where the next one begins only when that is the very next one.
      endMs: next && next.index === a.index + 1 ? msOf(next.start) : null,
      ended: a.failure,
      left: a.attemptsLeft,
      max: a.maxRestarts,
      formedWorld: a.formedWorld,
      last: next === undefined,
      evidence: a.evidence,
      skippedBefore: prev ? Math.max(0, a.index - prev.index - 1) : 0,
    };
  });
}

/** The attempts of the nodes that restarted, by node id (nodes that never restarted are not in it). */
export function attemptsByNode(nodes: readonly Pick<NodeView, 'id' | 'attempts'>[]): Map<string, AttemptView[]> {
  const out = new Map<string, AttemptView[]>();
  for (const n of nodes) if (n.attempts.length > 0) out.set(n.id, attemptViews(n.attempts));
  return out;
}

/** How many times the node's log shows its worker group restarting. */
export const restartsOf = (attempts: readonly AttemptView[]) => attempts.filter((a) => a.ended !== null).length;

export interface AttemptBand {
  attempt: AttemptView;
  startMs: number;
  endMs: number;
  /**
   * The band runs to the next attempt drawn, but attempts not kept or not timed lie between: this one ended
   * somewhere before, nothing says where.
   */
  endUnknown: boolean;
}

/**
 * The span of each attempt on a placed row: from its start to the next one's (the last to the row's end).
 * Attempts without a time are left out; the band before them runs on to the next attempt with one.
 */
export function attemptBands(attempts: readonly AttemptView[], rowEndMs: number): AttemptBand[] {
  const out: AttemptBand[] = [];
  attempts.forEach((a, i) => {
    if (a.startMs === null) return;
    let end = rowEndMs;
    let endUnknown = false;
    for (const b of attempts.slice(i + 1)) {
      if (b.startMs === null || b.skippedBefore > 0) endUnknown = true;
      if (b.startMs !== null) {
        end = b.startMs;
        break;
      }
    }
    out.push({ attempt: a, startMs: a.startMs, endMs: Math.max(a.startMs, end), endUnknown });
  });
  return out;
}
