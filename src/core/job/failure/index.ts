import type { ClockOffset, EvidenceLine, Failure, JobFacts, LogEvent, Note, Reason } from '../../model';
import type { LimitInForce } from '../../thresholds';
import { reachedStore } from '../storeHost';
import { restartCause, workerCrash } from './crash';
import { findCulprits } from './culprits';
import { limitFired } from './limit';
import { nodeFailure } from './own';
import { chooseStage, type StageChoice } from './stage';
import { CONNECT_STAGES, WAIT_STAGES, type NodeView } from './view';

export type { NodeView } from './view';
export { nodeFailure } from './own';
export { LATE_MIN_S } from './culprits';

// Which failure killed the job, who reported it, who caused it, and which limit fired. The node that reports a
// timeout is usually not the one that was late: the early nodes wait, the late one finds the others gone.
// Each step leaves its reasons as codes with values.

const MAX_REPORTER_EVIDENCE = 6;
const MAX_EVIDENCE = 9;

const ev = (e: LogEvent): EvidenceLine => ({ file: e.file, line: e.line, text: e.text });

export interface FailureInput {
  views: NodeView[];
  facts: JobFacts;
  limits: LimitInForce[];
  offsets: ClockOffset[];
  missing: string[];
}

/** A primary failure while waiting for others inside the store (rank assignment, a wait in the rendezvous). */
function waitedInStore(e: LogEvent | undefined): boolean {
  return e !== undefined && e.role === 'primary' && e.stage !== undefined && WAIT_STAGES.includes(e.stage);
}

/**
 * c10d logs at the default level do not say who hosts the store; the node that waited in the rendezvous while
 * every other failing node could not reach the store is the one that could wait: the host.
 */
function inferHost(x: FailureInput, own: Map<string, LogEvent>): { view: NodeView; reason: Reason } | null {
  if (x.facts.backend !== 'c10d') return null;
  const waiting = x.views.filter((v) => own.get(v.node.id)?.stage === 'rendezvous-timeout');
  const others = [...own.entries()].filter(([id]) => id !== waiting[0]?.node.id);
  if (waiting.length !== 1 || others.length === 0 || !others.every(([, e]) => CONNECT_STAGES.includes(e.stage!)))
    return null;
  return {
    view: waiting[0]!,
    reason: { code: 'host-inferred', values: { host: waiting[0]!.node.id, hostStage: 'rendezvous-timeout' } },
  };
}

export function analyseFailure(x: FailureInput): { failure: Failure | null; notes: Note[] } {
  const own = new Map<string, LogEvent>();
  for (const v of x.views) {
    const f = nodeFailure(v.events);
    if (f) own.set(v.node.id, f);
  }
  if (own.size === 0) return { failure: null, notes: [] };

  const reasons: Reason[] = [];
  let host = x.views.find((v) => v.node.isStoreHost) ?? null;
  if (!host) {
    const inferred = inferHost(x, own);
    if (inferred) {
      host = inferred.view;
      host.node.isStoreHost = true;
      reasons.push(inferred.reason);
    }
  }
  const reachedBy = new Set(
    x.views.filter((v) => reachedStore(v.events) || waitedInStore(own.get(v.node.id))).map((v) => v.node.id),
  );
  const crash = workerCrash(x.views, own);
  const choice: StageChoice = crash
    ? {
        stage: 'worker-error',
        arrivedLate: new Set(),
        pool: [...own.entries()].filter(([id]) => crash.waiters.includes(id)),
        hostWasUp: true,
        reasons: [
          { code: 'worker-crash', values: { nodes: crash.crashers, waiters: crash.waiters, stage: crash.waitStage } },
        ],
      }
    : chooseStage(x.views, own, host, reachedBy);
  const { stage, pool } = choice;
  const viewOf = new Map(x.views.map((v) => [v.node.id, v]));
  const firedBy = (ids: string[]) => ids.map((id) => ({ view: viewOf.get(id)!, event: own.get(id)! }));
  // The limit as the waiting nodes state it, before the culprits are known: a lag far below it did not matter.
  const waitedLimit = crash
    ? null
    : limitFired(stage, firedBy(pool.filter(([, e]) => e.stage === stage).map(([id]) => id)), x.facts, x.limits).limit;
  const culprits = crash
    ? { late: new Set(crash.crashers), reasons: [] as Reason[], missingLikely: false }
    : findCulprits({
        ...x,
        own,
        stage,
        choice,
        host,
        restartCause: restartCause(x.views),
        statedLimitSeconds: waitedLimit && waitedLimit.from !== 'default' ? waitedLimit.seconds : null,
      });
  const late = culprits.late;

  const reportedBy = pool.filter(([id, e]) => (crash || e.stage === stage) && !late.has(id)).map(([id]) => id);
  const reporters = reportedBy.length ? reportedBy : pool.filter(([, e]) => e.stage === stage).map(([id]) => id);
  const evidence: EvidenceLine[] = [];
  for (const id of reporters.slice(0, MAX_REPORTER_EVIDENCE)) evidence.push(ev(own.get(id)!));
  for (const id of late) {
    const e = own.get(id);
    if (e && evidence.length < MAX_EVIDENCE && !evidence.some((y) => y.file === e.file && y.line === e.line))
      evidence.push(ev(e));
  }
  const fired = firedBy(reporters);
  // A crash's waiters ran out of their own limit: that is the limit that fired.
  const { limit, notes } = limitFired(crash ? crash.waitStage : stage, fired, x.facts, x.limits);
  const confidence = fired.some((f) => f.event.confidence !== 'low') ? 'high' : 'low';
  return {
    failure: {
      stage,
      reportedBy: reporters,
      lateNodes: [...late].sort(),
      timeoutSeconds: limit?.seconds ?? null,
      limit,
      reasoning: [...reasons, ...choice.reasons, ...culprits.reasons],
      evidence,
      confidence,
    },
    notes,
  };
}
