import type { ClockOffset, EvidenceLine, Failure, JobFacts, LogEvent, Note, Reason } from '../../model';
import { effectsOf } from '../../catalogue';
import { endpointHost } from '../../identity';
import type { LimitInForce } from '../../thresholds';
import { reachedStore } from '../storeHost';
import { restartCause, workerCrash } from './crash';
import { findCulprits } from './culprits';
import { nodeFailure, stillConnecting } from './own';
import { chooseStage, isConnectFailure, type StageChoice } from './stage';
import { limitFired, limitInForceFor } from './limit';
import { bogusHost, LOOPBACK, loopbackEndpoint, sameHost } from './address';
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
  /** The bare name of each missing node where its siblings' names give one (see world.ts missingNodes). */
  missingNames: (string | null)[];
}

/**
 * The store host when no log of it was given: the endpoint the agents used, else the host their connect
 * failures name. A host name that is really a number is the address being wrong, not a node being late.
 */
function absentHost(x: FailureInput, own: Map<string, LogEvent>, reasons: Reason[]): string[] {
  const named = [...own.values()]
    .flatMap((e) => [
      e,
      ...x.views.flatMap((v) => v.events.filter((y) => y.file === e.file && y.line <= e.line && e.line - y.line < 400)),
    ])
    .map((e) => e.fields.host ?? e.fields.host2)
    .find((h): h is string => typeof h === 'string' && h.length > 0);
  const host = x.facts.rdzvEndpoint ? endpointHost(x.facts.rdzvEndpoint) : named;
  if (!host) return [];
  if (loopbackEndpoint(host, x.views)) return [];
  const resolved = bogusHost(host);
  if (resolved !== null) {
    reasons.push({ code: 'bad-address', values: { host, resolved } });
    return [];
  }
  // Every node of the job is here and every one failed as a client: none of them served the store at that
  // address (an agent hosts it only when the endpoint is its own name or address), so no node was late.
  // An elastic job may have had up to max_nodes: its minimum being here does not make it all of them.
  const size = x.facts.maxNodes ?? x.facts.nnodes;
  const all = size !== null && x.views.length >= size && x.missing.length === 0;
  if (all && x.views.every((v) => CONNECT_STAGES.includes(own.get(v.node.id)?.stage ?? 'other'))) {
    reasons.push({ code: 'host-not-served', values: { host, nodes: x.views.length } });
    return [];
  }
  // The name never resolved: whether that host was up is unknown, so it is not named as the late one.
  const unresolved = x.views.some((v) =>
    v.events.some(
      (e) => effectsOf(e.id).nameUnresolved && e.fields.host !== undefined && sameHost(e.fields.host, host),
    ),
  );
  if (unresolved) {
    reasons.push({ code: 'name-unresolved', values: { host } });
    return [];
  }
  if (!reasons.some((r) => r.code === 'host-absent'))
    reasons.push({ code: 'host-absent', values: { host, missing: x.missing } });
  return [host];
}

/** Workers that could not reach MASTER_ADDR because it is a number, not a host: the address is wrong. */
function badWorkerAddress(own: Map<string, LogEvent>, reasons: Reason[]): void {
  for (const e of own.values()) {
    const host = e.stage === 'pg-init' && isConnectFailure(e) ? (e.fields.host ?? e.fields.host2) : undefined;
    const resolved = host ? bogusHost(host) : null;
    if (host && resolved !== null) {
      reasons.push({ code: 'bad-address', values: { host, resolved } });
      return;
    }
  }
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

/**
 * In a one-node job the agent's store is its own (on loopback): a client that cannot reach another address
 * is a worker's, connecting to MASTER_ADDR in init_process_group.
 */
function workersOfOneNode(e: LogEvent, facts: JobFacts): LogEvent {
  if (facts.maxNodes !== 1 || !isConnectFailure(e) || e.stage === 'pg-init') return e;
  const host = e.fields.host ?? e.fields.host2;
  return host && !LOOPBACK.test(host) ? { ...e, stage: 'pg-init' } : e;
}

/**
 * While others failed, a node whose log ends still retrying to reach the store never got there: its connect
 * failure is implied (as a primary signal of its own, low confidence), so the stage can be its connect and not
 * only the wait of the node it never reached.
 */
function stillConnectingNodes(x: FailureInput, own: Map<string, LogEvent>, reasons: Reason[]): void {
  const nodes: string[] = [];
  for (const v of x.views) {
    if (own.has(v.node.id)) continue;
    const e = stillConnecting(v.events);
    if (!e) continue;
    own.set(v.node.id, { ...e, kind: 'failure', stage: 'store-connect', role: 'primary', confidence: 'low' });
    nodes.push(v.node.id);
  }
  if (nodes.length) reasons.push({ code: 'still-connecting', values: { nodes } });
}

export function analyseFailure(x: FailureInput): { failure: Failure | null; notes: Note[] } {
  const own = new Map<string, LogEvent>();
  for (const v of x.views) {
    const f = nodeFailure(v.events);
    if (f) own.set(v.node.id, workersOfOneNode(f, x.facts));
  }
  if (own.size === 0) return { failure: null, notes: [] };

  const reasons: Reason[] = [];
  stillConnectingNodes(x, own, reasons);
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
    : chooseStage(x.views, own, host, reachedBy, (stage) => limitInForceFor(stage, x.facts, x.limits));
  const { stage, pool } = choice;
  const viewOf = new Map(x.views.map((v) => [v.node.id, v]));
  const firedBy = (ids: string[]) => ids.map((id) => ({ view: viewOf.get(id)!, event: own.get(id)! }));
  // The limit as the waiting nodes state it, before the culprits are known: a lag far below it did not matter.
  const waitedLimit = crash
    ? null
    : limitFired(stage, firedBy(pool.filter(([, e]) => e.stage === stage).map(([id]) => id)), x.facts, x.limits).limit;
  const culprits = crash
    ? { late: new Set(crash.crashers), reasons: [] as Reason[], missingLikely: false, absent: [] as string[] }
    : findCulprits({
        ...x,
        own,
        stage,
        choice,
        host,
        restartCause: restartCause(x.views),
        statedLimitSeconds: waitedLimit && waitedLimit.from !== 'default' ? waitedLimit.seconds : null,
        assumedLimitSeconds: waitedLimit && waitedLimit.from === 'default' ? waitedLimit.seconds : null,
      });
  const late = culprits.late;
  // A node whose own workers crashed is the culprit of a worker error (the ChildFailedError host).
  if (!crash && stage === 'worker-error' && late.size === 0)
    for (const [id, e] of own) if (e.stage === 'worker-error') late.add(id);
  // Every node's workers failed with one error: the cause is what they share (the command, the script), not a node.
  const alike = stage === 'worker-error' && x.missing.length === 0 ? sameErrorEverywhere(x.views, late) : null;
  if (alike) {
    late.clear();
    culprits.reasons.push({ code: 'same-error-everywhere', values: alike });
  }
  const absent = culprits.absent.length
    ? culprits.absent
    : late.size === 0 && CONNECT_STAGES.includes(stage) && !host
      ? absentHost(x, own, culprits.reasons)
      : [];
  if (late.size === 0 && stage === 'pg-init') badWorkerAddress(own, culprits.reasons);

  // Nodes that lost the store while they waited in another startup stage (the host gave up under them) were
  // waiting for the same late node: they report it too.
  const alsoWaited = (e: LogEvent) =>
    WAIT_STAGES.includes(stage) && e.role === 'consequence' && effectsOf(e.id).store === 'lost';
  const inPool = new Set(pool.map(([id]) => id));
  const reportedBy = [
    ...pool.filter(([id, e]) => (crash || e.stage === stage || alsoWaited(e)) && !late.has(id)),
    ...[...own.entries()].filter(([id, e]) => !inPool.has(id) && !late.has(id) && alsoWaited(e)),
  ].map(([id]) => id);
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
  // A node's own hardware or driver fault ended it: no limit ran out, whatever the stage's usual one is.
  const localFault = culprits.reasons.some((r) => r.code === 'local-fault');
  const { limit, notes } = localFault
    ? { limit: null, notes: [] }
    : limitFired(crash ? crash.waitStage : stage, fired, x.facts, x.limits);
  const confidence = fired.some((f) => f.event.confidence !== 'low') ? 'high' : 'low';
  return {
    failure: {
      stage,
      reportedBy: reporters,
      lateNodes: [...late].sort(),
      absent,
      timeoutSeconds: limit?.seconds ?? null,
      limit,
      reasoning: [...reasons, ...choice.reasons, ...culprits.reasons],
      evidence,
      confidence,
    },
    notes,
  };
}

/** An exception line from its type on (`RuntimeError: CUDA error: …`), numbers and addresses alike. */
function errorShape(text: string): string | null {
  const m = /\b[A-Z]\w{0,80}(?:Error|Exception)\b.{0,300}/.exec(text);
  return m ? m[0].replace(/0x[0-9a-f]+|\d+/gi, '#').trim() : null;
}

/**
 * Every node of the job (two or more, none missing) blamed for a worker error, and each one's first worker
 * exception reads the same: one shared cause (launch flags, the script, the environment), not a culprit.
 */
function sameErrorEverywhere(views: NodeView[], blamed: Set<string>): { nodes: string[]; error: string } | null {
  if (views.length < 2 || blamed.size !== views.length) return null;
  let shape: string | null = null;
  let shown = '';
  for (const v of views) {
    const first = v.events.find(
      (e) =>
        e.kind === 'failure' && e.stage === 'worker-error' && !effectsOf(e.id).reportsWorkerExit && errorShape(e.text),
    );
    const s = first ? errorShape(first.text) : null;
    if (s === null || (shape !== null && s !== shape)) return null;
    shape = s;
    shown = /\b[A-Z]\w{0,80}(?:Error|Exception)\b.{0,160}/.exec(first!.text)![0];
  }
  return { nodes: views.map((v) => v.node.id), error: shown };
}
