import { effectsOf } from '../../catalogue';
import type { FailureStage, LogEvent, Reason } from '../../model';
import { lastRound } from '../attempts';
import { CONNECT_STAGES, PIPELINE, WAIT_STAGES, type NodeView } from './view';

// Which stage killed the job. Clients that could not reach a store host that was up came after it gave up:
// their connect failure is a consequence of their own lateness, not the stage. Then one stage, the first
// failure in time (failures within a few seconds of each other are one event seen from several nodes: the
// earliest stage of the startup is its cause), or — without times — the stage most nodes report.

/** Failures this close in time are one event seen from several nodes. */
const SAME_MOMENT_MS = 3000;

export interface StageChoice {
  stage: FailureStage;
  /** Nodes whose own failure was a consequence of arriving late (named late by the text). */
  arrivedLate: Set<string>;
  /** Candidates the stage was chosen from: node id and its failure. */
  pool: [string, LogEvent][];
  hostWasUp: boolean;
  reasons: Reason[];
}

/** The failure is a client that never got to its store (whatever phase it was in): a connect failure. */
export function isConnectFailure(e: LogEvent): boolean {
  return effectsOf(e.id).stage === 'store-connect';
}

/** Nodes that reached the store and lost it while still in the rendezvous of their last round. */
function lostInRendezvous(views: NodeView[]): string[] {
  return views
    .filter((v) => {
      const round = lastRound(v.events);
      return (
        round.some((e) => effectsOf(e.id).store === 'lost') && !round.some((e) => e.kind === 'rendezvous-complete')
      );
    })
    .map((v) => v.node.id);
}

/**
 * When a timeout with no time of its own fired: at least its limit after its wait began. The line above only
 * bounds it from below (a store host that started late waits out its join timeout long after the clients that
 * could not reach it gave up), so its wait's start, a line with a time of its own, plus the limit says more.
 */
function waitEnd(v: NodeView, e: LogEvent, limitSeconds: (stage: FailureStage) => number | null): number | null {
  if (!WAIT_STAGES.includes(e.stage!) || !v.lowerBound(e)) return null;
  const bound = v.timeOf(e);
  const limit = limitSeconds(e.stage!);
  if (bound === null || limit === null) return null;
  let began: number | null = null;
  for (const x of v.events)
    if (x.file === e.file && x.line < e.line && WAIT_STARTS.has(x.kind) && x.clocks.length > 0) began = v.timeOf(x);
  return began === null ? null : Math.max(bound, began + limit * 1000);
}

/** Where a node's waits begin, or after: its launch, its rendezvous (the rank exchange follows it closely). */
const WAIT_STARTS = new Set<LogEvent['kind']>(['launch', 'rendezvous-begin', 'rendezvous-complete', 'workers-started']);

export function chooseStage(
  views: NodeView[],
  own: Map<string, LogEvent>,
  host: NodeView | null,
  reachedBy: Set<string>,
  limitSeconds: (stage: FailureStage) => number | null = () => null,
): StageChoice {
  const reasons: Reason[] = [];
  const viewOf = new Map(views.map((v) => [v.node.id, v]));
  const timeOf = (id: string, e: LogEvent) => viewOf.get(id)!.timeOf(e);
  const hostFail = host ? (own.get(host.node.id) ?? null) : null;
  const primaries = [...own.entries()].filter(([, e]) => e.role === 'primary');
  // Was the store host up while others failed to connect? If it waited (a wait-stage failure of its own) and
  // another node got through to it; or, with no log of the host, if a node reached the store and lost it
  // before its rendezvous completed — the host was there, then gave up. Only clients that failed after the
  // host was up arrived late; one that gave up before the host launched was early, and the host was late.
  const reachedHost = [...reachedBy].some((id) => id !== host?.node.id);
  const gone = host === null ? lostInRendezvous(views) : [];
  const hostWasUp =
    (hostFail !== null && hostFail.role === 'primary' && WAIT_STAGES.includes(hostFail.stage!) && reachedHost) ||
    gone.length > 0;
  const hostUpMs = host?.node.launchTime ? Date.parse(host.node.launchTime) : null;
  const arrivedLate = new Set<string>();
  if (hostWasUp) {
    for (const [id, e] of primaries) {
      if (id === host?.node.id || !CONNECT_STAGES.includes(e.stage!) || gone.includes(id)) continue;
      const t = timeOf(id, e);
      if (hostUpMs === null || t === null || t >= hostUpMs) arrivedLate.add(id);
    }
    if (arrivedLate.size && hostFail)
      reasons.push({
        code: 'host-up-others-late',
        values: { host: host!.node.id, hostStage: hostFail.stage!, nodes: [...arrivedLate] },
      });
  }
  if (gone.length > 0 && arrivedLate.size > 0) {
    // The host's own wait ended the rendezvous: the stage is its timeout, though its log is not here.
    reasons.push({
      code: 'host-gone',
      values: { nodes: gone, hostStage: 'rendezvous-timeout', late: [...arrivedLate] },
    });
    const pool = [...own.entries()].filter(([id]) => gone.includes(id));
    return { stage: 'rendezvous-timeout', arrivedLate, pool, hostWasUp, reasons };
  }
  // pg-init: a worker that could not reach the (agent) store after the others timed out waiting for it.
  const pgWaiters = primaries.filter(([, e]) => e.stage === 'pg-init' && !isConnectFailure(e));
  if (pgWaiters.length) {
    const lateToPg = primaries.filter(([, e]) => e.stage === 'pg-init' && isConnectFailure(e));
    for (const [id] of lateToPg) arrivedLate.add(id);
    if (lateToPg.length)
      reasons.push({
        code: 'pg-waiters-late-arrival',
        values: { waiters: pgWaiters.map(([id]) => id), nodes: lateToPg.map(([id]) => id) },
      });
  }

  const candidates = primaries.filter(([id]) => !arrivedLate.has(id));
  const pool = candidates.length ? candidates : [...own.entries()];
  const byStage = new Map<FailureStage, [string, LogEvent][]>();
  for (const c of pool) byStage.set(c[1].stage!, [...(byStage.get(c[1].stage!) ?? []), c]);
  if (byStage.size === 1) return { stage: [...byStage.keys()][0]!, arrivedLate, pool, hostWasUp, reasons };

  if (pool.every(([id, e]) => timeOf(id, e) !== null)) {
    const at = new Map(pool.map((c) => [c, waitEnd(viewOf.get(c[0])!, c[1], limitSeconds) ?? timeOf(...c)!]));
    const sorted = [...pool].sort((a, b) => at.get(a)! - at.get(b)!);
    const t0 = at.get(sorted[0]!)!;
    // Of the failures at the first moment, the one earliest in the startup — after the waits that ended it: a
    // client that lost the store when its host's timeout fired is that timeout seen from the client.
    const lost = (e: LogEvent) => (effectsOf(e.id).store === 'lost' ? 1 : 0);
    const first = sorted
      .filter((c) => at.get(c)! - t0 <= SAME_MOMENT_MS)
      .sort((a, b) => lost(a[1]) - lost(b[1]) || PIPELINE.indexOf(a[1].stage!) - PIPELINE.indexOf(b[1].stage!))[0]!;
    reasons.push({ code: 'first-failure-in-time', values: { stage: first[1].stage!, node: first[0] } });
    return { stage: first[1].stage!, arrivedLate, pool, hostWasUp, reasons };
  }
  const ranked = [...byStage.entries()].sort(
    (a, b) => b[1].length - a[1].length || PIPELINE.indexOf(a[0]) - PIPELINE.indexOf(b[0]),
  );
  reasons.push({ code: 'most-reported-stage', values: { stage: ranked[0]![0], count: ranked[0]![1].length } });
  return { stage: ranked[0]![0], arrivedLate, pool, hostWasUp, reasons };
}
