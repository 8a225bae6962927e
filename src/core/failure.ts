import { parseTimedelta } from './time';
import type { EvidenceLine, Failure, FailureStage, JobFacts, JobNode, LogEvent } from './model';
import { CATALOGUE } from './catalogue';

// Which failure killed the job, who reported it, and who was late. The node that reports a timeout is
// usually not the one that was late: the early nodes wait, the late one finds the others gone. The rules
// below read that from the logs alone; each rule that fires leaves a sentence in `reasoning`.

export interface NodeView {
  node: JobNode;
  events: LogEvent[];
  /** Instant (ms) of an event on the job clock, when it has one. */
  timeOf: (e: LogEvent) => number | null;
}

/** Startup order: when nothing else decides, the earlier stage is the likelier root. */
const PIPELINE: FailureStage[] = [
  'store-connect',
  'rendezvous-connection',
  'rendezvous-timeout',
  'rendezvous-closed',
  'rank-assignment',
  'pg-init',
  'comm-init',
  'worker-error',
  'collective-timeout',
  'exit-barrier',
  'other',
];

const CONNECT_STAGES: FailureStage[] = ['store-connect', 'rendezvous-connection'];
const WAIT_STAGES: FailureStage[] = ['rendezvous-timeout', 'rank-assignment', 'pg-init'];
const ENTRY = new Map(CATALOGUE.map((e) => [e.id, e]));

/** Signs that a node got through to the store host: it joined, waited with it, or lost it later. */
const REACHED_IDS = new Set(['connection-lost', 'dyn-shutdown-failed', 'dyn-joined', 'rdzv-complete', 'workers-start']);
const REACHED_STAGES: FailureStage[] = ['rank-assignment', 'rendezvous-timeout', 'pg-init', 'comm-init'];
function reached(events: LogEvent[]): boolean {
  return events.some(
    (e) => REACHED_IDS.has(e.id) || (e.role === 'primary' && e.stage !== undefined && REACHED_STAGES.includes(e.stage)),
  );
}

const isFailureSignal = (e: LogEvent) => (e.kind === 'failure' || e.kind === 'error') && e.stage !== undefined;

/** The node's own failure: its last primary signal (the exception that ended the agent), specific stages first. */
export function nodeFailure(events: LogEvent[]): LogEvent | null {
  const prim = events.filter((e) => isFailureSignal(e) && e.role === 'primary');
  const specific = prim.filter((e) => e.stage !== 'other' && e.stage !== 'worker-error');
  const pick = (specific.length ? specific : prim).at(-1);
  if (pick) return pick;
  // Only consequences: report the failure-kind ones (not benign errors such as a quick exit-barrier race).
  return events.filter((e) => e.kind === 'failure' && e.stage !== undefined).at(-1) ?? null;
}

export function analyseFailure(views: NodeView[], facts: JobFacts): Failure | null {
  const reasoning: string[] = [];
  const own = new Map<string, LogEvent>();
  for (const v of views) {
    const f = nodeFailure(v.events);
    if (f) own.set(v.node.id, f);
  }
  if (own.size === 0) return null;

  const host = views.find((v) => v.node.isStoreHost) ?? null;
  const hostFail = host ? (own.get(host.node.id) ?? null) : null;
  const primaries = [...own.entries()].filter(([, e]) => e.role === 'primary');
  const stagesOf = (id: string) => own.get(id)?.stage;
  // Was the store host up while others failed to connect? Only if it waited (a wait-stage failure of its own)
  // and some other node shows it got through to it: it joined, waited with it, or lost the connection when
  // the host gave up. If every other node failed to connect, the host came late — it then waits alone.
  const reachedHost = views.some((v) => v.node.id !== host?.node.id && reached(v.events));
  const hostWasUp =
    hostFail !== null && hostFail.role === 'primary' && WAIT_STAGES.includes(hostFail.stage!) && reachedHost;
  const demoted = new Set<string>();
  if (hostWasUp) {
    for (const [id, e] of primaries) {
      if (id !== host!.node.id && CONNECT_STAGES.includes(e.stage!)) demoted.add(id);
    }
    if (demoted.size) {
      const who = [...demoted].join(', ');
      reasoning.push(
        demoted.size === 1
          ? `The store host ${host!.node.id} was up and waiting (${hostFail!.stage}); ${who} could not reach it because it had already given up — ${who} arrived late.`
          : `The store host ${host!.node.id} was up and waiting (${hostFail!.stage}); ${who} could not reach it because it had already given up — they arrived late.`,
      );
    }
  }
  // pg-init: a worker that could not reach the (agent) store after the others timed out waiting for it.
  const pgWaiters = primaries.filter(([, e]) => e.stage === 'pg-init' && e.id !== 'client-connect-timeout');
  if (pgWaiters.length) {
    const lateToPg = primaries.filter(([, e]) => e.id === 'client-connect-timeout' && e.stage === 'pg-init');
    for (const [id] of lateToPg) demoted.add(id);
    if (lateToPg.length) {
      reasoning.push(
        `${pgWaiters.map(([id]) => id).join(', ')} timed out in init_process_group waiting for the others; ${lateToPg
          .map(([id]) => id)
          .join(', ')} reached init_process_group only after that and found the store gone.`,
      );
    }
  }

  const candidates = primaries.filter(([id]) => !demoted.has(id));
  const pool = candidates.length ? candidates : [...own.entries()];
  const byStage = new Map<FailureStage, [string, LogEvent][]>();
  for (const c of pool) {
    const st = c[1].stage!;
    byStage.set(st, [...(byStage.get(st) ?? []), c]);
  }
  let stage: FailureStage;
  if (byStage.size === 1) {
    stage = [...byStage.keys()][0]!;
  } else {
    const timeOf = (id: string, e: LogEvent) => views.find((v) => v.node.id === id)!.timeOf(e);
    const timed = pool.every(([id, e]) => timeOf(id, e) !== null);
    if (timed) {
      const first = [...pool].sort((a, b) => timeOf(...a)! - timeOf(...b)!)[0]!;
      stage = first[1].stage!;
      reasoning.push(`Several nodes failed differently; the first failure in time was ${stage} on ${first[0]}.`);
    } else {
      const ranked = [...byStage.entries()].sort(
        (a, b) => b[1].length - a[1].length || PIPELINE.indexOf(a[0]) - PIPELINE.indexOf(b[0]),
      );
      stage = ranked[0]![0];
      reasoning.push(
        `Nodes failed in different stages and the logs lack the times to order them; ${stage} was reported by the most nodes (${ranked[0]![1].length}).`,
      );
    }
  }

  // Late nodes.
  const late = new Set<string>(demoted);
  if (!hostWasUp && host && CONNECT_STAGES.includes(stage) && !own.has(host.node.id)) {
    late.add(host.node.id);
    reasoning.push(
      `Nodes failed to connect to the store on ${host.node.id}, which left no failure of its own in the logs: it started late or not at all.`,
    );
  } else if (!hostWasUp && host && CONNECT_STAGES.includes(stage) && stagesOf(host.node.id) !== stage) {
    late.add(host.node.id);
    reasoning.push(
      `The other nodes timed out connecting to the store on ${host.node.id} (node_rank 0 / the rendezvous endpoint), so the store host was the late one; its own later failure (${stagesOf(host.node.id)}) is a consequence.`,
    );
  }
  const keyNamed = new Set<string>();
  for (const v of views) {
    for (const e of v.events) {
      if (e.id !== 'wait-timeout-keys' || !e.fields.keys) continue;
      for (const r of waitedRanks(e.fields.keys)) {
        const owner = views.find((w) => (r.group ? w.node.groupRank === r.rank : w.node.globalRanks.includes(r.rank)));
        if (owner && !keyNamed.has(owner.node.id)) {
          keyNamed.add(owner.node.id);
          late.add(owner.node.id);
          reasoning.push(
            `${v.node.id} waited for store key ${r.key}, which ${r.group ? 'node' : 'rank'} ${r.rank} on ${owner.node.id} writes: ${owner.node.id} was late.`,
          );
        }
      }
    }
  }
  if (late.size === 0) {
    const lags = views.filter((v) => v.node.lagSeconds !== null);
    const max = Math.max(0, ...lags.map((v) => v.node.lagSeconds!));
    if (max >= 10) {
      for (const v of lags) if (v.node.lagSeconds! >= Math.max(10, max * 0.5)) late.add(v.node.id);
      reasoning.push(`By launch times, ${[...late].join(', ')} started ${Math.round(max)} s after the first node.`);
    }
  }

  const reportedBy = pool.filter(([id, e]) => e.stage === stage && !late.has(id)).map(([id]) => id);
  const reporters = reportedBy.length ? reportedBy : pool.filter(([, e]) => e.stage === stage).map(([id]) => id);
  const evidence: EvidenceLine[] = [];
  for (const id of reporters.slice(0, 6)) {
    const e = own.get(id)!;
    evidence.push({ file: e.file, line: e.line, text: e.text });
  }
  for (const id of late) {
    const e = own.get(id);
    if (e && evidence.length < 9 && !evidence.some((x) => x.file === e.file && x.line === e.line))
      evidence.push({ file: e.file, line: e.line, text: e.text });
  }
  const fired = reporters.map((id) => own.get(id)!);
  return {
    stage,
    reportedBy: reporters,
    lateNodes: [...late].sort(),
    timeoutSeconds: timeoutOf(stage, fired, facts),
    reasoning,
    evidence,
  };
}

/** `/default_pg/0//cpu//0/4` → rank 4; `…/torchelastic/role_info/2` → group rank 2. */
function waitedRanks(keys: string): { key: string; rank: number; group: boolean }[] {
  const out: { key: string; rank: number; group: boolean }[] = [];
  for (const key of keys.split(/,\s*/)) {
    const role = /torchelastic\/role_info\/(\d+)$/.exec(key);
    if (role) out.push({ key, rank: Number(role[1]), group: true });
    const pg = /\/default_pg\/.*\/(\d+)$/.exec(key);
    if (pg) out.push({ key, rank: Number(pg[1]), group: false });
  }
  return out;
}

function timeoutOf(stage: FailureStage, fired: LogEvent[], facts: JobFacts): number | null {
  const conf = facts.rdzvConfigs ?? {};
  if (stage === 'rank-assignment' && fired.some((e) => e.id === 'socket-timeout')) return 300;
  if (stage === 'rendezvous-timeout') {
    if (facts.backend === 'c10d' || fired.some((e) => e.id === 'rdzv-timeout-error'))
      return Number(conf.join_timeout ?? 600);
    if (conf.timeout) return Number(conf.timeout);
  }
  for (const e of fired) {
    const t = ENTRY.get(e.id)?.effects?.limit;
    if (!t) continue;
    const raw = e.fields[t.field];
    if (raw === undefined) continue;
    if (t.unit === 'timedelta') return parseTimedelta(raw);
    const n = Number(raw);
    if (!Number.isFinite(n)) continue;
    if (t.unit === 'ms' || (t.unit === 'unit-field' && e.fields.unit === 'ms')) return n / 1000;
    return n;
  }
  if (stage === 'rendezvous-connection' && facts.backend === 'c10d') return Number(conf.read_timeout ?? 60);
  if (stage === 'exit-barrier') return 300;
  return null;
}
