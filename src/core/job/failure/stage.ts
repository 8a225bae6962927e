import { effectsOf } from '../../catalogue';
import type { FailureStage, LogEvent, Reason } from '../../model';
import { CONNECT_STAGES, PIPELINE, WAIT_STAGES, type NodeView } from './view';

// Which stage killed the job. Clients that could not reach a store host that was up and waiting came after it
// gave up: their connect failure is a consequence of their own lateness, not the stage. Then one stage, the
// first failure in time, or — without times — the stage most nodes report.

export interface StageChoice {
  stage: FailureStage;
  /** Nodes whose own failure was a consequence of arriving late (named late by the text). */
  arrivedLate: Set<string>;
  /** Candidates the stage was chosen from: node id and its failure. */
  pool: [string, LogEvent][];
  hostWasUp: boolean;
  reasons: Reason[];
}

export function chooseStage(
  views: NodeView[],
  own: Map<string, LogEvent>,
  host: NodeView | null,
  reachedBy: Set<string>,
): StageChoice {
  const reasons: Reason[] = [];
  const hostFail = host ? (own.get(host.node.id) ?? null) : null;
  const primaries = [...own.entries()].filter(([, e]) => e.role === 'primary');
  // Was the store host up while others failed to connect? Only if it waited (a wait-stage failure of its own)
  // and some other node shows it got through to it. If every other node failed to connect, the host came
  // late — it then waits alone.
  const reachedHost = [...reachedBy].some((id) => id !== host?.node.id);
  const hostWasUp =
    hostFail !== null && hostFail.role === 'primary' && WAIT_STAGES.includes(hostFail.stage!) && reachedHost;
  const arrivedLate = new Set<string>();
  if (hostWasUp) {
    for (const [id, e] of primaries) if (id !== host!.node.id && CONNECT_STAGES.includes(e.stage!)) arrivedLate.add(id);
    if (arrivedLate.size)
      reasons.push({
        code: 'host-up-others-late',
        values: { host: host!.node.id, hostStage: hostFail!.stage!, nodes: [...arrivedLate] },
      });
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

  const viewOf = new Map(views.map((v) => [v.node.id, v]));
  const timeOf = (id: string, e: LogEvent) => viewOf.get(id)!.timeOf(e);
  if (pool.every(([id, e]) => timeOf(id, e) !== null)) {
    const first = [...pool].sort((a, b) => timeOf(...a)! - timeOf(...b)!)[0]!;
    reasons.push({ code: 'first-failure-in-time', values: { stage: first[1].stage!, node: first[0] } });
    return { stage: first[1].stage!, arrivedLate, pool, hostWasUp, reasons };
  }
  const ranked = [...byStage.entries()].sort(
    (a, b) => b[1].length - a[1].length || PIPELINE.indexOf(a[0]) - PIPELINE.indexOf(b[0]),
  );
  reasons.push({ code: 'most-reported-stage', values: { stage: ranked[0]![0], count: ranked[0]![1].length } });
  return { stage: ranked[0]![0], arrivedLate, pool, hostWasUp, reasons };
}

/** The failure is a client that never got to its store (whatever phase it was in): a connect failure. */
function isConnectFailure(e: LogEvent): boolean {
  return effectsOf(e.id).stage === 'store-connect';
}
