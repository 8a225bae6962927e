import { effectsOf } from '../../catalogue';
import { statedSeconds } from '../../durations';
import type { EvidenceLine, FailureStage, JobFacts, LimitFired, LogEvent, Note } from '../../model';
import { hasStoreSync, type LimitId, type LimitInForce } from '../../thresholds';
import type { NodeView } from './view';

// The limit that fired, and where its value comes from. Printed in the logs wins; else the defaults in force
// for this version and backend — unless the time the failure took contradicts the default (a c10d
// join_timeout assumed at 600 s on a job that gave up 35 s after its launch), where the elapsed time wins.

/** The limit each stage runs against for the backend (and, for rank assignment, the version). */
function limitIdFor(stage: FailureStage, dynamic: boolean, storeSync: boolean): LimitId | null {
  switch (stage) {
    case 'store-connect':
      return dynamic ? 'read-timeout' : 'rdzv-timeout';
    case 'rendezvous-connection':
      return 'read-timeout';
    case 'rendezvous-timeout':
    case 'rendezvous-closed':
      return dynamic ? 'join-timeout' : 'rdzv-timeout';
    case 'rank-assignment':
      // ≤ 2.3: the 300 s synchronize; from 2.4 the store's own timeout (static: timeout; c10d: read_timeout).
      return storeSync ? 'store-sync' : dynamic ? 'read-timeout' : 'rdzv-timeout';
    case 'pg-init':
      return 'pg-init';
    case 'comm-init':
      return 'pg-init';
    case 'collective-timeout':
      return 'pg-init';
    case 'exit-barrier':
      return 'exit-barrier';
    default:
      return null;
  }
}

/** The seconds of the limit a stage waits against, as in force for this job (printed, or the default). */
export function limitInForceFor(stage: FailureStage, facts: JobFacts, limits: LimitInForce[]): number | null {
  const dynamic = facts.backend === 'c10d' || facts.backend === 'etcd-v2';
  const id = limitIdFor(stage, dynamic, hasStoreSync(facts));
  return limits.find((l) => l.id === id)?.seconds ?? null;
}

/** A default the elapsed time contradicts by more than this factor is replaced by the elapsed time. */
const CONTRADICTION = 0.6;
/** Connect deadlines retried with back-off end up to ~2.5× late (2.6: 30 s ran 42–73 s), so they infer nothing. */
const RETRIED_STAGES: FailureStage[] = ['store-connect', 'rendezvous-connection'];

/** Limits that are constants in PyTorch's code: nothing configures them, so no elapsed time can contradict them. */
const CONSTANT_LIMITS: LimitId[] = ['store-sync', 'exit-barrier'];
/** How far above a failure the lines of its exception chain reach. */
const CHAIN_LINES = 400;

/** The failures, then the lines of their chains that state a limit, nearest first. */
function stating(fired: { view: NodeView; event: LogEvent }[], stage: FailureStage): LogEvent[] {
  const out = fired.map((f) => f.event);
  const family = (s: FailureStage | undefined) =>
    s === stage || (s !== undefined && RETRIED_STAGES.includes(s) && RETRIED_STAGES.includes(stage));
  for (const { view, event } of fired)
    for (const e of view.events)
      if (
        e !== event &&
        e.file === event.file &&
        e.line <= event.line &&
        event.line - e.line <= CHAIN_LINES &&
        family(e.stage) &&
        effectsOf(e.id).limit
      )
        out.push(e);
  return out;
}

const ev = (e: LogEvent): EvidenceLine => ({ file: e.file, line: e.line, text: e.text });

export function limitFired(
  stage: FailureStage,
  fired: { view: NodeView; event: LogEvent }[],
  facts: JobFacts,
  limits: LimitInForce[],
): { limit: LimitFired | null; notes: Note[] } {
  const dynamic = facts.backend === 'c10d' || facts.backend === 'etcd-v2';
  // HCCL builds its links against its own connect timeout, not the process group's.
  const hccl = stage === 'comm-init' && fired.some((f) => effectsOf(f.event.id).comm === 'hccl');
  const id = hccl ? 'hccl-connect' : limitIdFor(stage, dynamic, hasStoreSync(facts));
  // 1. Printed by the failure itself, or by the lines of its chain (the connect timeout inside a
  // RendezvousConnectionError's traceback).
  for (const event of stating(fired, stage)) {
    const lim = effectsOf(event.id).limit;
    const s = lim ? statedSeconds(event.fields, lim) : null;
    if (s !== null && s > 0) {
      const lid = effectsOf(event.id).comm === 'hccl' ? 'hccl-connect' : (id ?? 'pg-init');
      return { limit: { id: lid, seconds: round(s), from: 'logs', evidence: ev(event) }, notes: [] };
    }
  }
  if (id === null) return { limit: null, notes: [] };
  // Every failure was an error raised at once (a peer gone, an address not found): no wait ran out.
  if (fired.length > 0 && fired.every((f) => effectsOf(f.event.id).immediate)) return { limit: null, notes: [] };
  const inForce = limits.find((l) => l.id === id);
  if (!inForce) return { limit: null, notes: [] };
  if (inForce.from === 'logs')
    return { limit: { id, seconds: inForce.seconds, from: 'logs', evidence: inForce.evidence }, notes: [] };
  // 2. A default: check it against how long the failing nodes waited from their launch.
  const elapsed = elapsedSinceLaunch(fired);
  if (
    elapsed !== null &&
    !RETRIED_STAGES.includes(stage) &&
    !CONSTANT_LIMITS.includes(id) &&
    elapsed.seconds < inForce.seconds * CONTRADICTION
  ) {
    return {
      limit: { id, seconds: round(elapsed.seconds), from: 'inferred', evidence: elapsed.evidence },
      notes: [
        {
          code: 'limit-inferred',
          values: { limit: id, assumed: inForce.seconds, elapsed: Math.round(elapsed.seconds), node: elapsed.node },
        },
      ],
    };
  }
  return {
    limit: { id, seconds: inForce.seconds, from: 'default', evidence: null },
    notes: [{ code: 'limit-assumed', values: { limit: id, seconds: inForce.seconds, version: facts.torchVersion } }],
  };
}

/** The shortest time from a failing node's own launch (a line's time) to its failure (a line's own time). */
function elapsedSinceLaunch(
  fired: { view: NodeView; event: LogEvent }[],
): { seconds: number; evidence: EvidenceLine; node: string } | null {
  let best: { seconds: number; evidence: EvidenceLine; node: string } | null = null;
  for (const { view, event } of fired) {
    if (view.node.launchFrom !== 'line' || view.node.launchTime === null) continue;
    // Only a failure line with its own time: an untimed traceback takes the time of the line above it, a lower
    // bound that would "infer" a limit far shorter than the one that fired.
    if (event.clocks.length === 0) continue;
    const t = view.timeOf(event);
    if (t === null) continue;
    const s = (t - Date.parse(view.node.launchTime)) / 1000;
    if (s > 0 && (best === null || s < best.seconds)) best = { seconds: s, evidence: ev(event), node: view.node.id };
  }
  return best;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
