import {
  betterLogsAdvice,
  hcclAdvice,
  patchSynchronizeAdvice,
  pgTimeoutAdvice,
  rdzvConfAdvice,
  recommendedTimeout,
  sameRdzvIdAdvice,
  simpleAdvice,
  stageDataAdvice,
  upgradeAdvice,
  whatIf,
  type AdviceId,
  type AdviceSpec,
  type WhatIf,
} from './advice';
import { adviceText, findingText, type FindingCode, type P } from './diagnosisText';
import type { Lang } from './i18n';
import type { EvidenceLine, JobModel, JobNode, NodeEvent } from './model';
import { hasStoreSync, limitsInForce, rendezvousLimit, type LimitInForce } from './thresholds';

// The diagnosis: findings with stable codes, each with its numbers, its evidence lines and the advice that
// fixes it. Rules read the job model only; words come from diagnosisText.ts.

export type Severity = 'error' | 'warning' | 'info';

export interface Advice {
  id: AdviceId;
  title: string;
  reason: string;
  command: string | null;
  caveat: string | null;
  /** The values the words and the command were made from (a share link carries these, not the words). */
  values: Record<string, string | number>;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  title: string;
  detail: string;
  numbers: P;
  nodes: string[];
  evidence: EvidenceLine[];
  advice: Advice[];
}

export interface Diagnosis {
  findings: Finding[];
  thresholds: LimitInForce[];
  /** The rendezvous limit we recommend for this job, and what it would have done. */
  recommendedTimeout: number;
  whatIf: WhatIf | null;
}

/** Lags under this are ordinary start-up jitter, not a late node. */
const LATE_MIN_S = 10;
/** Time between a node's first log line and its torchrun launch that counts as pre-launch work. */
const PRELAUNCH_MIN_S = 30;
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

interface Draft {
  code: FindingCode;
  severity: Severity;
  numbers: P;
  nodes: string[];
  evidence: EvidenceLine[];
  advice: AdviceSpec[];
}

const evOf = (e: NodeEvent | undefined | null): EvidenceLine[] =>
  e ? [{ file: e.file, line: e.line, text: e.text }] : [];

export function diagnose(job: JobModel, lang: Lang = 'en'): Diagnosis {
  const limits = limitsInForce(job);
  const drafts = rules(job, limits);
  const findings = drafts
    .map((d): Finding => {
      const { title, detail } = findingText(lang, d.code, d.numbers);
      const advice = dedupe(d.advice).map((a) => ({
        id: a.id,
        command: a.command,
        values: a.values,
        ...adviceText(lang, a.id, a.values),
      }));
      return {
        code: d.code,
        severity: d.severity,
        title,
        detail,
        numbers: d.numbers,
        nodes: d.nodes,
        evidence: d.evidence,
        advice,
      };
    })
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  const rec = recommendedTimeout(job.skewSeconds);
  return { findings, thresholds: limits, recommendedTimeout: rec, whatIf: whatIf(job, limits, rec) };
}

function dedupe(a: AdviceSpec[]): AdviceSpec[] {
  const seen = new Set<string>();
  return a.filter((x) => !seen.has(x.id) && seen.add(x.id));
}

function rules(job: JobModel, limits: LimitInForce[]): Draft[] {
  const out: Draft[] = [];
  const f = job.failure;
  const byId = new Map(job.nodes.map((n) => [n.id, n]));
  const first = earliest(job.nodes);
  const host = job.nodes.find((n) => n.isStoreHost) ?? null;
  const backend = job.job.backend ?? 'static';
  const dynamic = backend === 'c10d' || backend === 'etcd-v2';
  const rdzv = rendezvousLimit(limits);
  const version = job.job.torchVersion ?? 'unknown';
  const prelaunch = prelaunchFindings(job);
  const prelaunchNodes = new Set(prelaunch.map((p) => p.nodes[0]!));

  // Who was late: the failure's late nodes, else nodes whose launch lags by LATE_MIN_S or more.
  const lateIds = f
    ? f.lateNodes.filter((id) => byId.has(id))
    : job.nodes.filter((n) => (n.lagSeconds ?? 0) >= LATE_MIN_S).map((n) => n.id);
  const lateNodes = lateIds.map((id) => byId.get(id)!);
  const hostLate = host !== null && lateIds.includes(host.id);
  const hostLag = hostLate ? host!.lagSeconds : null;
  const lateWord = lateIds.join(', ') || (f?.lateNodes.join(', ') ?? '');
  const causeAdvice: AdviceSpec[] = lateIds.some((id) => prelaunchNodes.has(id)) ? [stageDataAdvice()] : [];
  const rdzvAdvice = () => rdzvConfAdvice({ job, skewSeconds: job.skewSeconds, hostLagSeconds: hostLag, hostLate });

  for (const n of lateNodes) {
    // The text says late but the clock says early: the clock (or zone) is the suspect, not the text.
    const contradicted = f !== null && n.lagSeconds !== null && n.lagSeconds < LATE_MIN_S;
    out.push({
      code: 'LATE_NODE',
      severity: f ? 'error' : (n.lagSeconds ?? 0) >= 60 ? 'warning' : 'info',
      numbers: {
        node: n.id,
        lag: contradicted ? null : n.lagSeconds,
        clockSuspect: contradicted ? 1 : null,
        first: first?.id ?? null,
        victims: f && f.reportedBy.length ? f.reportedBy.join(', ') : null,
      },
      nodes: [n.id],
      evidence: [...evOf(n.events.find((e) => e.kind === 'launch')), ...evOf(ownFailure(n))].slice(0, 3),
      advice: prelaunchNodes.has(n.id) ? [stageDataAdvice()] : [],
    });
  }

  if (hostLate && f) {
    const limitName = dynamic ? 'read_timeout' : 'timeout';
    const lim = limits.find((l) => l.id === (dynamic ? 'read-timeout' : 'rdzv-timeout'));
    out.push({
      code: 'HOST_NODE_LATE',
      severity: 'error',
      numbers: {
        node: host!.id,
        role: dynamic ? 'the c10d rendezvous endpoint' : 'node_rank 0, static rendezvous',
        limitName,
        limit: lim?.seconds ?? null,
      },
      nodes: [host!.id],
      evidence: f.evidence.slice(0, 3),
      advice: [simpleAdvice('start-host-first'), rdzvAdvice(), ...causeAdvice],
    });
  }

  if (f?.stage === 'rank-assignment' && hasStoreSync(job) && (f.timeoutSeconds === 300 || f.timeoutSeconds === null)) {
    const upgradeTo = Math.max(recommendedTimeout(job.skewSeconds), 1800);
    const patch = patchSynchronizeAdvice(job, upgradeTo);
    out.push({
      code: 'SKEW_EXCEEDS_STORE_SYNC',
      severity: 'error',
      numbers: {
        late: lateWord || null,
        first: first?.id ?? null,
        skew: job.skewSeconds,
        waiters: f.reportedBy.join(', '),
        version,
        limit: 300,
        rdzvLimit: rdzv?.seconds ?? null,
      },
      nodes: [...f.reportedBy, ...lateIds],
      evidence: f.evidence,
      advice: [...causeAdvice, upgradeAdvice(upgradeTo), ...(patch ? [patch] : []), stageDataAdvice()],
    });
  }

  // Nodes that used different rendezvous ids never meet: no timeout fixes that.
  const runIds = [...new Set(job.nodes.map((n) => n.runId).filter((r): r is string => r !== null))];
  const runIdMismatch = dynamic && runIds.length > 1;
  if (runIdMismatch) {
    out.push({
      code: 'RUN_ID_MISMATCH',
      severity: 'error',
      numbers: { ids: runIds.map((r) => `'${r}'`).join(', ') },
      nodes: job.nodes.map((n) => n.id),
      evidence: job.nodes.flatMap((n) => evOf(n.events.find((e) => e.id === 'launch-config'))).slice(0, 4),
      advice: [sameRdzvIdAdvice()],
    });
  }

  if (f?.stage === 'rendezvous-timeout' && rdzv && !runIdMismatch) {
    const userTimeout = job.job.rdzvConfigs?.timeout;
    out.push({
      code: 'SKEW_EXCEEDS_RDZV_TIMEOUT',
      severity: 'error',
      numbers: {
        key: rdzv.id === 'join-timeout' ? 'join_timeout' : 'timeout',
        limit: rdzv.seconds,
        from: rdzv.from === 'logs' ? 'set in --rdzv_conf' : `default for ${backend}`,
        backend,
        skew: job.skewSeconds,
        reporters: f.reportedBy.join(', '),
        late: lateWord || 'the late node',
        ignoredTimeout:
          dynamic && userTimeout !== undefined && !job.job.rdzvConfigsDefaulted.includes('timeout')
            ? userTimeout
            : null,
      },
      nodes: [...f.reportedBy, ...lateIds],
      evidence: [...f.evidence, ...(rdzv.evidence ? [rdzv.evidence] : [])],
      advice: [rdzvAdvice(), ...causeAdvice],
    });
  }

  if ((f?.stage === 'store-connect' || f?.stage === 'rendezvous-connection') && !hostLate) {
    out.push({
      code: 'STORE_UNREACHABLE',
      severity: 'error',
      numbers: { endpoint: job.job.rdzvEndpoint, reporters: f.reportedBy.join(', '), limit: f.timeoutSeconds },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [
        simpleAdvice('check-endpoint', null, { endpoint: job.job.rdzvEndpoint ?? '?' }),
        simpleAdvice('start-host-first'),
        rdzvAdvice(),
      ],
    });
  }

  if (f?.stage === 'pg-init') {
    const pg = limits.find((l) => l.id === 'pg-init')!;
    out.push({
      code: 'PG_INIT_TIMEOUT',
      severity: 'error',
      numbers: { limit: f.timeoutSeconds ?? pg.seconds, reporters: f.reportedBy.join(', '), late: lateWord || null },
      nodes: [...f.reportedBy, ...lateIds],
      evidence: f.evidence,
      advice: [pgTimeoutAdvice(Math.max(1800, recommendedTimeout(job.skewSeconds))), stageDataAdvice()],
    });
  }

  if (f?.stage === 'comm-init') {
    const hccl = limits.find((l) => l.id === 'hccl-connect');
    out.push({
      code: 'COMM_INIT_TIMEOUT',
      severity: 'error',
      numbers: { lib: hccl ? 'HCCL' : 'NCCL', limit: f.timeoutSeconds, reporters: f.reportedBy.join(', ') },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: hccl ? [hcclAdvice(hccl.seconds * 5)] : [pgTimeoutAdvice(1800), simpleAdvice('nccl-debug')],
    });
  }

  if (f?.stage === 'collective-timeout') {
    const w = job.nodes.flatMap((n) => n.events).find((e) => e.id === 'collective-watchdog');
    const seq = w ? (/SeqNum=(\d+)/.exec(w.text)?.[1] ?? null) : null;
    out.push({
      code: 'NOT_A_STARTUP_PROBLEM',
      severity: 'warning',
      numbers: { seq, limit: f.timeoutSeconds },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [simpleAdvice('nccl-debug')],
    });
  }

  if (f?.stage === 'exit-barrier') {
    out.push({
      code: 'EXIT_BARRIER_TIMEOUT',
      severity: 'warning',
      numbers: { reporters: f.reportedBy.join(', ') },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [],
    });
  }

  if (f && (f.stage === 'other' || f.stage === 'worker-error' || f.stage === 'rendezvous-closed')) {
    const line = f.evidence[0]?.text.trim() ?? '';
    out.push({
      code: 'UNCLASSIFIED_FAILURE',
      severity: 'error',
      numbers: {
        error: line.replace(/^.*?(?=\b[\w.]*(?:Error|Exception)\b)/, '').slice(0, 160) || line.slice(0, 160),
        reporters: f.reportedBy.join(', '),
      },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [],
    });
  }

  // A healthy job that came close to (or past) a limit it happened not to hit.
  if (!f && job.skewSeconds !== null && job.skewSeconds >= LATE_MIN_S) {
    const candidates = limits.filter((l) => l.applies && (l.id === 'store-sync' || l.id === rdzv?.id));
    const tight = candidates.sort((a, b) => a.seconds - b.seconds)[0];
    if (tight && job.skewSeconds >= tight.seconds * 0.5) {
      out.push({
        code: 'SKEW_RISK',
        severity: 'warning',
        numbers: {
          skew: job.skewSeconds,
          limit: tight.seconds,
          limitName:
            tight.id === 'store-sync'
              ? 'rank-assignment wait (store synchronize)'
              : tight.id === 'join-timeout'
                ? 'join_timeout'
                : 'timeout',
          survived: job.skewSeconds > tight.seconds ? 1 : null,
          outcome: job.verdict === 'incomplete' ? 'incomplete' : 'healthy',
        },
        nodes: lateIds,
        evidence: lateNodes.flatMap((n) => evOf(n.events.find((e) => e.kind === 'launch'))).slice(0, 3),
        advice: [
          ...(tight.id === 'store-sync' ? [upgradeAdvice(recommendedTimeout(job.skewSeconds))] : [rdzvAdvice()]),
          ...causeAdvice,
        ],
      });
    }
  }

  for (const p of prelaunch) {
    out.push({ ...p, severity: lateIds.includes(p.nodes[0]!) ? 'warning' : 'info' });
  }

  if (job.missingNodes.length) {
    out.push({
      code: 'NODE_LOG_MISSING',
      severity: f ? 'warning' : 'info',
      numbers: { missing: job.missingNodes.join(', '), expected: job.job.nnodes, present: job.nodes.length },
      nodes: [],
      evidence: [],
      advice: [simpleAdvice('collect-logs')],
    });
  }

  for (const o of job.clockOffsets) {
    out.push(
      o.kind === 'time-zone'
        ? {
            code: 'TZ_MISMATCH',
            severity: 'info',
            numbers: { node: o.node, hours: o.offsetSeconds / 3600 },
            nodes: [o.node],
            evidence: [o.evidence],
            advice: [simpleAdvice('clock-sync')],
          }
        : {
            code: 'CLOCK_OFFSET',
            severity: 'warning',
            numbers: { node: o.node, offset: o.offsetSeconds, bound: o.boundSeconds, applied: o.applied ? 1 : null },
            nodes: [o.node],
            evidence: [o.evidence],
            advice: [simpleAdvice('clock-sync')],
          },
    );
  }

  if (job.verdict !== 'not-torchrun' && job.nodes.length && job.nodes.every((n) => n.launchTime === null)) {
    out.push({
      code: 'NO_TIMESTAMPS',
      severity: 'info',
      numbers: {},
      nodes: [],
      evidence: [],
      advice: [betterLogsAdvice(job)],
    });
  }
  return out;
}

function earliest(nodes: JobNode[]): JobNode | null {
  return nodes.filter((n) => n.lagSeconds !== null).sort((a, b) => a.lagSeconds! - b.lagSeconds!)[0] ?? null;
}

function ownFailure(n: JobNode): NodeEvent | undefined {
  return n.events.filter((e) => e.stage !== undefined && e.stage === n.failureStage).at(-1);
}

function prelaunchFindings(job: JobModel): Draft[] {
  const out: Draft[] = [];
  for (const n of job.nodes) {
    if (!n.launchTime || !n.firstLine?.time) continue;
    const gap = (Date.parse(n.launchTime) - Date.parse(n.firstLine.time)) / 1000;
    const activity = n.events.filter((e) => e.id === 'prelaunch-activity');
    if (gap < PRELAUNCH_MIN_S && !(activity.length && gap >= 5)) continue;
    const words = [...new Set(activity.map((e) => activityWord(e.text)))].slice(0, 4).join(', ');
    out.push({
      code: 'PRELAUNCH_WORK',
      severity: 'info',
      numbers: { node: n.id, seconds: Math.round(gap), activity: words || null },
      nodes: [n.id],
      evidence: [
        { file: n.firstLine.file, line: n.firstLine.line, text: n.firstLine.text },
        ...activity.slice(0, 3).map((e) => ({ file: e.file, line: e.line, text: e.text })),
        ...evOf(n.events.find((e) => e.kind === 'launch')),
      ],
      advice: [stageDataAdvice()],
    });
  }
  return out;
}

function activityWord(text: string): string {
  const m =
    /([Dd]ownload\w*|[Uu]npack\w*|[Ee]xtract\w*|tar -x\w*|pip install|Pulling|rsync|aws s3|gsutil|wget|curl|sha256sum|Copying|' -> ')/.exec(
      text,
    );
  const w = m?.[1] ?? 'work';
  return w === "' -> '" ? 'cp' : w.toLowerCase();
}
