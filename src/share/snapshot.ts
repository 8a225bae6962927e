import type { AdviceId } from '../core/advice';
import type { FindingCode, P } from '../core/diagnosisText';
import type { Severity } from '../core/findings';
import type { Lang } from '../core/i18n';
import type {
  Attempt,
  EventKind,
  EvidenceLine,
  FailureStage,
  LimitFired,
  MixedJobs,
  NodeLagged,
  Note,
  Reason,
  Values,
  Verdict,
} from '../core/model';
import type { LimitId } from '../core/thresholds';
import type { AdviceValues } from './advice';
import { KINDS, STAGES, type Omission, type Wire, type WireNodeList, type WireValues } from './wire';

// A shared diagnosis as the receiver reads it: what the link holds, with names instead of indexes. All text is
// plain strings (never markup). Times are seconds from `t0`, the earliest torchrun launch.

export interface ShareView {
  lang: Lang;
  selectedNode: string | null;
  /** [from, to] in seconds from t0 (0.1 s resolution), or null for the whole job. */
  zoom: [number, number] | null;
}

export interface ShareEvent {
  kind: EventKind;
  /** Catalogue entry id (`rdzv-complete`…); `derived-launch` for a launch computed from a stated wait. */
  id: string;
  /** Seconds from t0, 0.1 s resolution; null when the line had no time. */
  t: number | null;
  stage: FailureStage | null;
}

export interface ShareNode {
  id: string;
  hostname: string | null;
  groupRank: number | null;
  /** Empty when the link left per-rank detail out (`omitted` has `ranks`). */
  globalRanks: number[];
  /** Seconds behind the earliest launch, to the millisecond, as the job model has it. */
  lagSeconds: number | null;
  isStoreHost: boolean;
  /** The rendezvous id (run_id) the node's agent used, when its logs print it. */
  runId: string | null;
  failureStage: FailureStage | null;
  /** First and last log line with a time, seconds from t0. */
  firstLine: number | null;
  lastLine: number | null;
  /** Milestones: the first event of each kind and catalogue entry (failures per stage). */
  events: ShareEvent[];
  /** The launch time is derived from a stated wait, not read from a line. */
  launchDerived: boolean;
  /** The node's agent runs, when it restarted (no times or evidence: the link keeps the counts). */
  attempts: Attempt[];
}

export interface ShareFailure {
  stage: FailureStage;
  reportedBy: string[];
  lateNodes: string[];
  absent: string[];
  timeoutSeconds: number | null;
  limit: LimitFired | null;
  reasoning: Reason[];
  evidence: EvidenceLine[];
  confidence: 'high' | 'low';
}

export interface ShareFinding {
  code: FindingCode;
  severity: Severity;
  numbers: P;
  /** LATE_NODE's latest late nodes with their lags (seconds, to the millisecond); empty for other findings. */
  late: NodeLagged[];
  nodes: string[];
  evidence: EvidenceLine[];
  advice: { id: AdviceId; values: AdviceValues }[];
}

export interface ShareLimit {
  id: LimitId;
  seconds: number;
  from: 'logs' | 'inferred' | 'default' | 'recommendation';
  applies: boolean;
  def: string;
  evidence: EvidenceLine | null;
}

export interface ShareClockOffset {
  node: string;
  offsetSeconds: number;
  boundSeconds: number;
  kind: 'time-zone' | 'clock';
  applied: boolean;
  evidence: EvidenceLine | null;
}

export interface ShareJobFacts {
  torchVersion: string | null;
  torchVersionEvidence: string | null;
  backend: string | null;
  nnodes: number | null;
  minNodes: number | null;
  maxNodes: number | null;
  nprocPerNode: number | null;
  rdzvEndpoint: string | null;
  rdzvId: string | null;
  rdzvConfigs: Record<string, string> | null;
  rdzvConfigsDefaulted: string[];
  rdzvConfigsEvidence: EvidenceLine | null;
  worldSize: number | null;
  worldNodes?: number | null;
}

export interface ShareSnapshot {
  /** The share format version the link was read as (after any upgrade). */
  version: number;
  /** The skewscope version that made the link. */
  app: string;
  /** ISO 8601, to the second. */
  createdAt: string;
  title: string;
  view: ShareView;
  /** What the sender's link left out to stay short (or chose not to share). */
  omitted: Omission[];
  verdict: Verdict;
  /** The earliest torchrun launch (else the earliest time seen), ISO 8601; null without any time. */
  t0: string | null;
  skewSeconds: number | null;
  skewAmongPlaced: { seconds: number; placed: number; total: number } | null;
  job: ShareJobFacts;
  nodes: ShareNode[];
  missingNodes: string[];
  missingCount: number;
  worldFormed: { nodes: number; evidence: EvidenceLine | null } | null;
  mixedJobs: MixedJobs | null;
  clockOffsets: ShareClockOffset[];
  failure: ShareFailure | null;
  findings: ShareFinding[];
  thresholds: ShareLimit[];
  notes: Note[];
}

export function expandWire(w: Wire, version: number): ShareSnapshot {
  const ids = w.N.i;
  const names = (l: WireNodeList | (number | [number, number])[]): string[] =>
    l.flatMap((x) =>
      typeof x === 'number'
        ? [ids[x]!]
        : typeof x === 'string'
          ? [x]
          : Array.from({ length: x[1] - x[0] + 1 }, (_, k) => ids[x[0] + k]!),
    );
  const ev = (i: number): EvidenceLine => {
    const [file, line, text] = w.e[i]!;
    return { file, line, text };
  };
  const evOrNull = (i: number | null) => (i === null ? null : ev(i));
  const values = (vals: WireValues): Values =>
    Object.fromEntries(Object.entries(vals).map(([k, x]) => [k, Array.isArray(x) ? names(x) : x]));
  const derived = new Set(w.N.o ?? []);
  const stage = (k: number): FailureStage | null => (k === 0 ? null : STAGES[k - 1]!);
  const store = new Set(w.N.x);
  const at = (i: number, ds: number | null): number | null => {
    if (ds === null) return null;
    const lag = w.N.l[i] ?? null;
    return lag === null ? ds / 10 : Math.round(lag + ds * 100) / 1000;
  };
  const nodes = ids.map((id, i): ShareNode => {
    const h = w.N.h[i]!;
    const lag = w.N.l[i] ?? null;
    const flat = w.N.e[i]!;
    const events: ShareEvent[] = [];
    for (let k = 0; k < flat.length; k += 4) {
      events.push({
        kind: KINDS[flat[k]!]!,
        id: w.I[flat[k + 1]!]!,
        t: at(i, flat[k + 2]!),
        stage: stage(flat[k + 3]!),
      });
    }
    return {
      id,
      hostname: h === 0 ? null : h === 1 ? id : h,
      groupRank: w.N.g[i] == null ? null : w.N.g[i]! + i,
      globalRanks: (w.N.r?.[i] ?? []).flatMap((x) =>
        typeof x === 'number' ? [x] : Array.from({ length: Math.max(0, x[1] - x[0] + 1) }, (_, k) => x[0] + k),
      ),
      lagSeconds: lag === null ? null : lag / 1000,
      isStoreHost: store.has(i),
      runId: w.N.u?.[i] ?? null,
      failureStage: stage(w.N.f[i]!),
      firstLine: at(i, w.N.a[i] ?? null),
      lastLine: at(i, w.N.z[i] ?? null),
      events,
      launchDerived: derived.has(i),
      attempts: (w.N.p?.[i] ?? []).map(([index, st, attemptsLeft, maxRestarts, formed]) => ({
        index,
        start: null,
        failure: st === 0 ? null : { stage: stage(st), evidence: { file: '', line: 0, text: '' } },
        attemptsLeft,
        maxRestarts,
        formedWorld: formed === 1,
        evidence: { file: '', line: 0, text: '' },
      })),
    };
  });
  const j = w.j;
  return {
    version,
    app: w.a,
    createdAt: new Date(w.c * 1000).toISOString().replace('.000Z', 'Z'),
    title: w.n,
    view: {
      lang: w.w[0],
      selectedNode: w.w[1] === null ? null : ids[w.w[1]]!,
      zoom: w.w[2] ? [w.w[2][0] / 10, w.w[2][1] / 10] : null,
    },
    omitted: [...w.o],
    verdict: w.d,
    t0: w.t === null ? null : new Date(w.t).toISOString(),
    skewSeconds: w.s === null ? null : w.s / 1000,
    skewAmongPlaced: w.S && { seconds: w.S[0] / 1000, placed: w.S[1], total: w.S[2] },
    job: {
      torchVersion: j[0],
      torchVersionEvidence: j[1],
      backend: j[2],
      nnodes: j[3],
      minNodes: j[4],
      maxNodes: j[5],
      nprocPerNode: j[6],
      rdzvEndpoint: j[7],
      rdzvId: j[8],
      rdzvConfigs: j[9] ? { ...j[9] } : null,
      rdzvConfigsDefaulted: [...j[10]],
      worldSize: j[11],
      rdzvConfigsEvidence: evOrNull(j[12]),
    },
    nodes,
    missingNodes: [...w.m],
    missingCount: w.M,
    worldFormed: w.W && { nodes: w.W[0], evidence: evOrNull(w.W[1]) },
    mixedJobs: w.X && {
      by: w.X[0],
      groups: w.X[1].map(([key, nodes]) => ({ key, nodes: names(nodes), files: [] })),
    },
    clockOffsets: w.k.map(([node, offsetSeconds, boundSeconds, tz, applied, e]) => ({
      node: typeof node === 'number' ? ids[node]! : node,
      offsetSeconds,
      boundSeconds,
      kind: tz ? 'time-zone' : 'clock',
      applied: applied === 1,
      evidence: evOrNull(e),
    })),
    failure: w.f && {
      stage: w.f[0],
      reportedBy: names(w.f[1]),
      lateNodes: names(w.f[2]),
      absent: [...(w.f[7] ?? [])],
      timeoutSeconds: w.f[3]?.[1] ?? null,
      limit: w.f[3] && { id: w.f[3][0], seconds: w.f[3][1], from: w.f[3][2], evidence: evOrNull(w.f[3][3]) },
      reasoning: w.f[4].map(([code, vals]) => ({ code, values: values(vals) })),
      evidence: w.f[5].map(ev),
      confidence: w.f[6] === 1 ? 'low' : 'high',
    },
    findings: w.F.map(([code, severity, numbers, nodeList, evidence, advice, late]) => ({
      code,
      severity,
      numbers: Object.fromEntries(
        Object.entries(numbers).map(([k, x]) => [k, Array.isArray(x) ? names(x).join(', ') : x]),
      ),
      late: late.map(([node, lag]) => ({
        node: typeof node === 'number' ? ids[node]! : node,
        lagSeconds: lag === null ? null : lag / 1000,
      })),
      nodes: names(nodeList),
      evidence: evidence.map(ev),
      advice: advice.map(([id, values]) => ({ id, values: { ...values } })),
    })),
    thresholds: w.T.map(([id, seconds, from, applies, def, e]) => ({
      id,
      seconds,
      from,
      applies: applies === 1,
      def,
      evidence: evOrNull(e),
    })),
    notes: w.q.map(([code, vals]) => ({ code, values: values(vals) })),
  };
}
