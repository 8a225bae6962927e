import { recommendedTimeout, whatIf } from '../core/advice';
import { adviceText, findingText, type P } from '../core/diagnosisText';
import type { Diagnosis, Finding } from '../core/findings';
import { worstText } from '../core/findings/lateNode';
import type { Lang } from '../core/i18n';
import { SCHEMA_VERSION, type EvidenceLine, type JobModel, type JobNode, type NodeEvent } from '../core/model';
import { THRESHOLD_DEFS, type ClockStart, type LimitId, type LimitInForce } from '../core/thresholds';
import { rebuildAdvice } from './advice';
import type { ShareNode, ShareSnapshot } from './snapshot';

// A shared snapshot → the job model and the diagnosis the views already know how to show, with no logs.
// Titles, details and advice are rendered here, by core, in the reader's language; commands come from core's
// builders; the what-if and the recommended limit are recomputed from the lags.
//
// What the link does not carry comes back empty: files, identity hints, log line texts of events (`file` '',
// `line` 0, `text` ''). `snapshot.omitted` says what the sender's link left out.

export interface Restored {
  job: JobModel;
  diagnosis: Diagnosis;
}

/** How each limit is raised and when its clock starts (mirrors core's limitsInForce). */
const LIMIT_META: Record<LimitId, { knob: string | null; clockStarts: ClockStart }> = {
  'store-sync': { knob: null, clockStarts: 'launch' },
  'rdzv-timeout': { knob: '--rdzv_conf timeout=N', clockStarts: 'launch' },
  'join-timeout': { knob: '--rdzv_conf join_timeout=N', clockStarts: 'launch' },
  'read-timeout': { knob: '--rdzv_conf read_timeout=N', clockStarts: 'launch' },
  'last-call-timeout': { knob: '--rdzv_conf last_call_timeout=N', clockStarts: 'launch' },
  'pg-init': { knob: 'init_process_group(timeout=timedelta(seconds=N))', clockStarts: 'workers-started' },
  'exit-barrier': { knob: null, clockStarts: 'workers-finished' },
  'hccl-connect': { knob: 'export HCCL_CONNECT_TIMEOUT=N', clockStarts: 'workers-started' },
  'hccl-exec': { knob: 'export HCCL_EXEC_TIMEOUT=N', clockStarts: 'workers-started' },
  recommended: { knob: '--rdzv_conf timeout=N', clockStarts: 'launch' },
};

const NO_EVIDENCE: EvidenceLine = { file: '', line: 0, text: '' };

/** A word a sentence may hold as it is: a node id, an address, a stage or limit code (no spaces, no shell). */
const PLAIN = /^[\w.@:<>[\]/#%+=-]{1,120}$/;

/**
 * Text from a link is the sender's (or whoever edited the link), not skewscope's: where core's sentences take a
 * name, an endpoint or a key from it, anything but a plain word is shown in quotes, as data — so a tampered link
 * reads `the store at “$(curl …|sh)” could not be reached`, never as the tool's own words. Lists of names are
 * quoted name by name. Advice values need no quotes: the link's advice is kept only when core's own builders give
 * back exactly those values (advice.ts), and an endpoint there must be a host and a port.
 */
export function asData(x: string): string {
  return x
    .split(', ')
    .map((part) => (PLAIN.test(part) ? part : `“${part.replace(/[“”]/g, '"')}”`))
    .join(', ');
}

/**
 * The values that hold names and log text (node names, endpoints, store keys, versions, a format-1 link's
 * sentences); the others are core's own codes and phrases, checked against its tables when the link was read.
 */
const DATA_KEYS = new Set(
  'node nodes reporters late missing host key first worst endpoint waiters waiter victims unplaced ids groups files file activity value text error version backend runs'.split(
    ' ',
  ),
);

function dataValues<T extends string | number | null | string[]>(values: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(values).map(([k, x]) => [
      k,
      !DATA_KEYS.has(k) ? x : typeof x === 'string' ? asData(x) : Array.isArray(x) ? x.map(asData) : x,
    ]),
  ) as Record<string, T>;
}

export function restore(s: ShareSnapshot, lang: Lang = s.view.lang): Restored {
  const t0 = s.t0 === null ? null : Date.parse(s.t0);
  const iso = (seconds: number | null): string | null =>
    seconds === null || t0 === null ? null : new Date(t0 + Math.round(seconds * 1000)).toISOString();
  const edge = (which: 'firstLine' | 'lastLine', seconds: number | null): NodeEvent | null => {
    const time = iso(seconds);
    return time === null
      ? null
      : { kind: 'info', id: which, time, timeFrom: 'line', file: '', line: 0, text: '', fields: {} };
  };
  const node = (n: ShareNode): JobNode => ({
    id: n.id,
    hostname: n.hostname,
    groupRank: n.groupRank,
    globalRanks: [...n.globalRanks],
    files: [],
    identity: [],
    launchTime: iso(n.lagSeconds),
    launchFrom: n.lagSeconds === null ? null : n.launchDerived ? 'derived' : 'line',
    firstLine: edge('firstLine', n.firstLine),
    lastLine: edge('lastLine', n.lastLine),
    lagSeconds: n.lagSeconds,
    isStoreHost: n.isStoreHost,
    runId: n.runId,
    events: n.events.map((e) => {
      const time = iso(e.t);
      const ev: NodeEvent = {
        kind: e.kind,
        id: e.id,
        time,
        timeFrom: time === null ? null : e.id === 'derived-launch' ? 'derived' : 'line',
        file: '',
        line: 0,
        text: '',
        fields: {},
      };
      if (e.stage) ev.stage = e.stage;
      return ev;
    }),
    failureStage: n.failureStage,
    agents: 1,
    attempts: n.attempts.map((a) => ({ ...a })),
  });
  const job: JobModel = {
    schemaVersion: SCHEMA_VERSION,
    verdict: s.verdict,
    failure: s.failure && {
      ...s.failure,
      reportedBy: [...s.failure.reportedBy],
      lateNodes: [...s.failure.lateNodes],
      absent: [...s.failure.absent],
      reasoning: s.failure.reasoning.map((r) => ({ code: r.code, values: dataValues(r.values) })),
      evidence: [...s.failure.evidence],
      limit: s.failure.limit && { ...s.failure.limit },
    },
    skewSeconds: s.skewSeconds,
    skewAmongPlaced: s.skewAmongPlaced && { ...s.skewAmongPlaced },
    nodes: s.nodes.map(node),
    job: {
      ...s.job,
      rdzvConfigs: s.job.rdzvConfigs && { ...s.job.rdzvConfigs },
      rdzvConfigsDefaulted: [...s.job.rdzvConfigsDefaulted],
      worldNodes: s.worldFormed?.nodes ?? null,
      // Links do not carry install paths; the advice that used one travels as its values.
      torchInstall: null,
      agentStoreShared: null,
      envTimeouts: {},
    },
    missingNodes: [...s.missingNodes],
    missingCount: s.missingCount,
    worldFormed: s.worldFormed && { nodes: s.worldFormed.nodes, evidence: s.worldFormed.evidence ?? NO_EVIDENCE },
    mixedJobs: s.mixedJobs && {
      by: s.mixedJobs.by,
      groups: s.mixedJobs.groups.map((g) => ({ ...g, nodes: [...g.nodes], files: [] })),
    },
    clockOffsets: s.clockOffsets.map((o) => ({ ...o, evidence: o.evidence ?? NO_EVIDENCE })),
    notes: s.notes.map((n) => ({ code: n.code, values: dataValues(n.values) })),
    files: [],
  };

  const dynamic = s.job.backend === 'c10d' || s.job.backend === 'etcd-v2';
  const thresholds: LimitInForce[] = s.thresholds.map((t) => {
    const meta = LIMIT_META[t.id];
    return {
      id: t.id,
      seconds: t.seconds,
      from: t.from,
      evidence: t.evidence,
      knob: t.id === 'recommended' && dynamic ? '--rdzv_conf join_timeout=N' : meta.knob,
      applies: t.applies,
      clockStarts: meta.clockStarts,
      def: t.def,
      sourcePath: THRESHOLD_DEFS.find((d) => d.id === t.def)?.source_path ?? '',
    };
  });
  const findings = s.findings.map((f): Finding => {
    const late = f.late.map((n) => ({ ...n }));
    const { title, detail } = findingText(
      lang,
      f.code,
      dataValues(f.numbers),
      late.map((n) => ({ ...n, node: asData(n.node) })),
    );
    // `numbers.worst` is the list's English text (what the JSON has carried): the link carries the list only.
    const numbers: P = { ...f.numbers };
    if (f.code === 'LATE_NODE' && late.length && numbers.worst === undefined)
      numbers.worst = Number(numbers.count) > 1 ? worstText(late) : null;
    return {
      code: f.code,
      severity: f.severity,
      title,
      detail,
      numbers,
      ...(late.length ? { late } : {}),
      nodes: [...f.nodes],
      evidence: [...f.evidence],
      // Checked when the link was read: core rebuilds every advice the link names.
      advice: f.advice.flatMap((a) => {
        const spec = rebuildAdvice(a.id, a.values);
        return spec
          ? [
              {
                id: a.id,
                command: spec.command,
                goesIn: spec.goesIn,
                values: spec.values,
                ...adviceText(lang, a.id, a.values),
              },
            ]
          : [];
      }),
    };
  });
  const rec = recommendedTimeout(s.skewSeconds);
  return { job, diagnosis: { findings, thresholds, recommendedTimeout: rec, whatIf: whatIf(job, thresholds, rec) } };
}
