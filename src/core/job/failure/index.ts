import type { ClockOffset, EvidenceLine, Failure, JobFacts, LogEvent, Note } from '../../model';
import type { LimitInForce } from '../../thresholds';
import { reachedStore } from '../storeHost';
import { findCulprits } from './culprits';
import { limitFired } from './limit';
import { nodeFailure } from './own';
import { chooseStage } from './stage';
import { WAIT_STAGES, type NodeView } from './view';

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

export function analyseFailure(x: FailureInput): { failure: Failure | null; notes: Note[] } {
  const own = new Map<string, LogEvent>();
  for (const v of x.views) {
    const f = nodeFailure(v.events);
    if (f) own.set(v.node.id, f);
  }
  if (own.size === 0) return { failure: null, notes: [] };

  const host = x.views.find((v) => v.node.isStoreHost) ?? null;
  const reachedBy = new Set(
    x.views.filter((v) => reachedStore(v.events) || waitedInStore(own.get(v.node.id))).map((v) => v.node.id),
  );
  const choice = chooseStage(x.views, own, host, reachedBy);
  const { stage, pool } = choice;
  const culprits = findCulprits({ ...x, own, stage, choice, host });
  const late = culprits.late;

  const reportedBy = pool.filter(([id, e]) => e.stage === stage && !late.has(id)).map(([id]) => id);
  const reporters = reportedBy.length ? reportedBy : pool.filter(([, e]) => e.stage === stage).map(([id]) => id);
  const evidence: EvidenceLine[] = [];
  for (const id of reporters.slice(0, MAX_REPORTER_EVIDENCE)) evidence.push(ev(own.get(id)!));
  for (const id of late) {
    const e = own.get(id);
    if (e && evidence.length < MAX_EVIDENCE && !evidence.some((y) => y.file === e.file && y.line === e.line))
      evidence.push(ev(e));
  }
  const viewOf = new Map(x.views.map((v) => [v.node.id, v]));
  const fired = reporters.map((id) => ({ view: viewOf.get(id)!, event: own.get(id)! }));
  const { limit, notes } = limitFired(stage, fired, x.facts, x.limits);
  const confidence = fired.some((f) => f.event.confidence !== 'low') ? 'high' : 'low';
  return {
    failure: {
      stage,
      reportedBy: reporters,
      lateNodes: [...late].sort(),
      timeoutSeconds: limit?.seconds ?? null,
      limit,
      reasoning: [...choice.reasons, ...culprits.reasons],
      evidence,
      confidence,
    },
    notes,
  };
}

/** A primary failure while waiting for others inside the store (rank assignment, a wait in the rendezvous). */
function waitedInStore(e: LogEvent | undefined): boolean {
  return e !== undefined && e.role === 'primary' && e.stage !== undefined && WAIT_STAGES.includes(e.stage);
}
