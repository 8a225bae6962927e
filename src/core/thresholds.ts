import { effectsOf } from './catalogue';
import RAW from './data/thresholds.json';
import { statedSeconds } from './durations';
import { torchMinor } from './job/facts';
import { boundedSeconds } from './numbers';
import type { EvidenceLine, JobFacts, JobModel, LimitFired } from './model';

// The startup timeouts as data (data/thresholds.json: value, what it bounds, source, versions, how to raise
// it — the shared research notes), and the ones in force for one job: what its logs printed, else the
// defaults of its PyTorch version and backend, saying which.

export interface ThresholdDef {
  id: string;
  seconds: number;
  what: string;
  source_path: string;
  versions: string[];
  how_to_raise: string;
  evidence: string;
}

export const THRESHOLD_DEFS: ThresholdDef[] = RAW as ThresholdDef[];

export type LimitId =
  | 'store-sync'
  | 'rdzv-timeout'
  | 'join-timeout'
  | 'read-timeout'
  | 'last-call-timeout'
  | 'pg-init'
  | 'exit-barrier'
  | 'hccl-connect'
  | 'hccl-exec'
  | 'recommended';

/** When a limit's clock starts, for drawing it on the timeline. */
export type ClockStart = 'launch' | 'rendezvous-complete' | 'workers-started' | 'workers-finished';

export interface LimitInForce {
  id: LimitId;
  seconds: number;
  /**
   * Printed in the logs, inferred from elapsed time (a failure N s after the launch with a stated wait), the
   * default of this version/backend (an assumption: no log shows it), or our recommendation (a reference line).
   */
  from: 'logs' | 'inferred' | 'default' | 'recommendation';
  evidence: EvidenceLine | null;
  /** How to raise it; null when no flag can (the ≤2.3 synchronize wait). */
  knob: string | null;
  /** False when the job's version or backend does not use it (kept so the UI can say so). */
  applies: boolean;
  clockStarts: ClockStart;
  /** The entry of data/thresholds.json it comes from. */
  def: string;
  sourcePath: string;
}

export const RECOMMENDED_RDZV_SECONDS = 1800;

const defOf = (id: string): ThresholdDef => {
  const d = THRESHOLD_DEFS.find((t) => t.id === id);
  if (!d) throw new Error(`threshold ${id} missing from data/thresholds.json`);
  return d;
};

/** Version as a number (2.03 for 2.3); ranges like "≤2.0" and "2.1–2.2" read as their upper end. */
export function versionOf(job: JobModel): number | null {
  return versionOfFacts(job.job);
}

function versionOfFacts(facts: JobFacts): number | null {
  const v = facts.torchVersion;
  if (!v) return null;
  const range = /[–-]\s*(\d+\.\d+)/.exec(v);
  return torchMinor(range ? range[1]! : v);
}

/**
 * True when the ≤ 2.3 rank-assignment `synchronize` (300 s, not configurable) may be in the startup path:
 * the version is unknown, or it (or the lower end of an inferred range like "2.3–2.4") is below 2.4.
 */
export function hasStoreSync(job: JobModel | JobFacts): boolean {
  const v = 'job' in job ? job.job.torchVersion : job.torchVersion;
  if (!v) return true;
  const low = /^(?:≤|<=)/.test(v) ? 0 : torchMinor(v);
  return low === null || low < 2.04;
}

/** What the limits read of an event: the catalogue entry's stated limit, its stage, where it is. */
export interface LimitEvent {
  id: string;
  stage?: string | undefined;
  file: string;
  line: number;
  text: string;
  fields: Record<string, string>;
}

function ev(e: LimitEvent | undefined): EvidenceLine | null {
  return e ? { file: e.file, line: e.line, text: e.text } : null;
}

/** The limits in force for a built job (the fired one as the analysis found it). */
export function limitsInForce(job: JobModel): LimitInForce[] {
  return limitsOf(
    job.job,
    job.nodes.flatMap((n) => n.events),
    job.failure?.limit ?? null,
  );
}

/** The limits in force for these facts and events; `fired` replaces the value of the limit it names. */
export function limitsOf(
  facts: JobFacts,
  events: readonly LimitEvent[],
  fired: LimitFired | null = null,
): LimitInForce[] {
  const out: LimitInForce[] = [];
  const conf = facts.rdzvConfigs ?? {};
  const backend = facts.backend ?? 'static';
  const dynamic = backend === 'c10d' || backend === 'etcd-v2';
  const v = versionOfFacts(facts);
  const fromConf = (key: string, def: ThresholdDef, applies: boolean, clockStarts: ClockStart, id: LimitId) => {
    // What rdzv_configs printed is text from the log: a value past a year (`'timeout': '1e308'`) is not used.
    const n = boundedSeconds(conf[key], 's');
    const stated = n !== null && n > 0 && !facts.rdzvConfigsDefaulted.includes(key);
    out.push({
      id,
      seconds: n !== null && n > 0 ? n : def.seconds,
      from: stated ? 'logs' : 'default',
      evidence: stated ? facts.rdzvConfigsEvidence : null,
      knob: `--rdzv_conf ${key}=N`,
      applies,
      clockStarts,
      def: def.id,
      sourcePath: def.source_path,
    });
  };

  const sync = defOf('elastic_store_synchronize_startup');
  // The ≤2.3 synchronize prints no limit of its own: a rank-assignment failure that states none is its evidence.
  const syncFired = events.find((e) => e.stage === 'rank-assignment' && !effectsOf(e.id).limit);
  out.push({
    id: 'store-sync',
    seconds: sync.seconds,
    from: 'default',
    evidence: ev(syncFired),
    knob: null,
    applies: hasStoreSync(facts) && !dynamic,
    clockStarts: 'launch',
    def: sync.id,
    sourcePath: sync.source_path,
  });
  fromConf('timeout', defOf('launchconfig_rdzv_timeout'), !dynamic, 'launch', 'rdzv-timeout');
  if (dynamic || conf.join_timeout !== undefined)
    fromConf('join_timeout', defOf('dynamic_join_timeout'), dynamic, 'launch', 'join-timeout');
  if (dynamic || conf.read_timeout !== undefined)
    fromConf('read_timeout', defOf('c10d_read_timeout'), dynamic, 'launch', 'read-timeout');
  const { minNodes, maxNodes } = facts;
  if (dynamic && minNodes !== null && maxNodes !== null && minNodes < maxNodes)
    fromConf('last_call_timeout', defOf('dynamic_last_call_timeout'), true, 'launch', 'last-call-timeout');

  // init_process_group: the value a failure printed, else 1800 (gloo) / 600 (NCCL from 2.2).
  const nccl = events.some((e) => commOf(e) === 'nccl');
  const pgDef = defOf(nccl && (v === null || v >= 2.02) ? 'pg_nccl_default_timeout' : 'pg_default_timeout');
  const pgSeen = statedLimit(events, (e) => e.stage === 'pg-init' || e.stage === 'comm-init');
  out.push({
    id: 'pg-init',
    seconds: pgSeen?.seconds ?? pgDef.seconds,
    from: pgSeen ? 'logs' : 'default',
    evidence: pgSeen?.evidence ?? null,
    knob: 'init_process_group(timeout=timedelta(seconds=N))',
    applies: true,
    clockStarts: 'workers-started',
    def: pgDef.id,
    sourcePath: pgDef.source_path,
  });
  const exit = defOf('agent_exit_barrier');
  out.push({
    id: 'exit-barrier',
    seconds: exit.seconds,
    from: 'default',
    evidence: null,
    knob: null,
    applies: true,
    clockStarts: 'workers-finished',
    def: exit.id,
    sourcePath: exit.source_path,
  });
  const hccl = events.filter((e) => commOf(e) === 'hccl');
  if (hccl.length) {
    const hc = defOf('hccl_connect_timeout');
    // What a failure printed fired; else what the job exported (HCCL's errors print no value of their own).
    const stated = statedLimit(hccl, (e) => e.stage === 'comm-init') ?? facts.envTimeouts.HCCL_CONNECT_TIMEOUT;
    out.push({
      id: 'hccl-connect',
      seconds: stated?.seconds ?? hc.seconds,
      from: stated ? 'logs' : 'default',
      evidence: stated?.evidence ?? ev(hccl[0]),
      knob: 'export HCCL_CONNECT_TIMEOUT=N',
      applies: true,
      clockStarts: 'workers-started',
      def: hc.id,
      sourcePath: hc.source_path,
    });
    const he = defOf('hccl_exec_timeout');
    const exec = facts.envTimeouts.HCCL_EXEC_TIMEOUT;
    out.push({
      id: 'hccl-exec',
      seconds: exec?.seconds ?? he.seconds,
      from: exec ? 'logs' : 'default',
      evidence: exec?.evidence ?? null,
      knob: 'export HCCL_EXEC_TIMEOUT=N',
      applies: true,
      clockStarts: 'workers-started',
      def: he.id,
      sourcePath: he.source_path,
    });
  }
  const rec = defOf('launchconfig_rdzv_timeout');
  out.push({
    id: 'recommended',
    seconds: RECOMMENDED_RDZV_SECONDS,
    from: 'recommendation',
    evidence: null,
    knob: dynamic ? '--rdzv_conf join_timeout=N' : '--rdzv_conf timeout=N',
    applies: true,
    clockStarts: 'launch',
    def: rec.id,
    sourcePath: rec.source_path,
  });
  if (fired) {
    const l = out.find((x) => x.id === fired.id);
    if (l && (l.from === 'default' || fired.from === 'logs')) {
      l.seconds = fired.seconds;
      l.from = fired.from;
      l.evidence = fired.evidence ?? l.evidence;
    }
  }
  return out;
}

/** The communicator an event comes from: a watchdog names its library (WorkNCCL / WorkHCCL), others their entry. */
function commOf(e: LimitEvent): string | null {
  const lib = e.fields.lib?.toLowerCase();
  if (lib === 'nccl' || lib === 'hccl') return lib;
  return effectsOf(e.id).comm ?? null;
}

/** The first limit a matching event states (its catalogue entry says which field and unit). */
function statedLimit(
  events: readonly LimitEvent[],
  pick: (e: LimitEvent) => boolean,
): { seconds: number; evidence: EvidenceLine } | null {
  for (const e of events) {
    if (!pick(e)) continue;
    const lim = effectsOf(e.id).limit;
    const s = lim ? statedSeconds(e.fields, lim) : null;
    if (s !== null && s > 0) return { seconds: s, evidence: { file: e.file, line: e.line, text: e.text } };
  }
  return null;
}

/** The limit that governs how late a node may join the rendezvous, for this backend. */
export function rendezvousLimit(limits: LimitInForce[]): LimitInForce | undefined {
  return limits.find((l) => (l.id === 'rdzv-timeout' || l.id === 'join-timeout') && l.applies);
}
