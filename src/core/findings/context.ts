import { rdzvConfAdvice, stageDataAdvice, type AdviceSpec, type PgBackend } from '../advice';
import { effectsOf } from '../catalogue';
import type { JobModel, JobNode, NodeEvent } from '../model';
import { rendezvousLimit, type LimitInForce } from '../thresholds';
import { prelaunchDrafts } from './prelaunch';
import type { Draft } from './types';

// What every finding rule reads, computed once per diagnosis: the job, its limits, who was late, the store
// host, the backend, the pre-launch work, and the advice several rules share.

/** Lags under this are ordinary start-up jitter, not a late node. */
export const LATE_MIN_S = 10;

export interface Context {
  job: JobModel;
  limits: LimitInForce[];
  byId: Map<string, JobNode>;
  first: JobNode | null;
  host: JobNode | null;
  backend: string;
  dynamic: boolean;
  rdzv: LimitInForce | undefined;
  version: string;
  prelaunch: Draft[];
  prelaunchNodes: Set<string>;
  lateIds: string[];
  lateNodes: JobNode[];
  hostLate: boolean;
  /** Stage-data advice when a late node did pre-launch work. */
  causeAdvice: AdviceSpec[];
  /** The process group's backend, as the communicator messages show it; null when none printed. */
  pgBackend: PgBackend | null;
  rdzvAdvice: () => AdviceSpec;
}

export function earliest(nodes: JobNode[]): JobNode | null {
  let best: JobNode | null = null;
  for (const n of nodes) if (n.lagSeconds !== null && (best === null || n.lagSeconds < best.lagSeconds!)) best = n;
  return best;
}

export function ownFailure(n: JobNode): NodeEvent | undefined {
  return n.events.filter((e) => e.stage !== undefined && e.stage === n.failureStage).at(-1);
}

export function contextOf(job: JobModel, limits: LimitInForce[]): Context {
  const f = job.failure;
  const byId = new Map(job.nodes.map((n) => [n.id, n]));
  const host = job.nodes.find((n) => n.isStoreHost) ?? null;
  const backend = job.job.backend ?? 'static';
  const prelaunch = prelaunchDrafts(job);
  const prelaunchNodes = new Set(prelaunch.map((p) => p.nodes[0]!));
  // Who was late: the failure's culprits, else nodes whose launch lags by LATE_MIN_S or more.
  const lateIds = f
    ? f.lateNodes.filter((id) => byId.has(id))
    : job.nodes.filter((n) => (n.lagSeconds ?? 0) >= LATE_MIN_S).map((n) => n.id);
  const hostLate = host !== null && lateIds.includes(host.id);
  const causeAdvice: AdviceSpec[] = lateIds.some((id) => prelaunchNodes.has(id)) ? [stageDataAdvice()] : [];
  // With runs mixed, lags count from the first node of the late node's own run.
  const run = job.mixedJobs?.groups.find((g) => lateIds.some((id) => g.nodes.includes(id)));
  return {
    job,
    limits,
    byId,
    first: earliest(run ? job.nodes.filter((n) => run.nodes.includes(n.id)) : job.nodes),
    host,
    backend,
    dynamic: backend === 'c10d' || backend === 'etcd-v2',
    rdzv: rendezvousLimit(limits),
    version: job.job.torchVersion ?? 'unknown',
    prelaunch,
    prelaunchNodes,
    lateIds,
    lateNodes: lateIds.map((id) => byId.get(id)!),
    hostLate,
    causeAdvice,
    pgBackend: pgBackendOf(job),
    rdzvAdvice: () =>
      rdzvConfAdvice({
        job,
        skewSeconds: job.skewSeconds,
        hostLagSeconds: hostLate ? host!.lagSeconds : null,
        hostLate,
      }),
  };
}

function pgBackendOf(job: JobModel): PgBackend | null {
  for (const n of job.nodes)
    for (const e of n.events) {
      const comm = effectsOf(e.id).comm;
      if (comm) return comm;
    }
  return null;
}
