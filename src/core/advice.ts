import type { JobModel } from './model';
import { boundedSeconds, minOf } from './numbers';
import { RECOMMENDED_RDZV_SECONDS, hasStoreSync, type LimitInForce } from './thresholds';

// Remediation commands, derived from the job: its backend, its version, the keys it already set and the skew
// it showed. Texts live in diagnosisText.ts; this file decides the values.

/** Every advice id, for readers that validate what they are given (share links). */
export const ADVICE_IDS = [
  'rdzv-conf',
  'upgrade-torch',
  'patch-synchronize',
  'stage-data',
  'start-host-first',
  'pg-timeout',
  'hccl-timeouts',
  'nccl-debug',
  'better-logs',
  'clock-sync',
  'collect-logs',
  'check-endpoint',
  'same-rdzv-id',
] as const;

export type AdviceId =
  | 'rdzv-conf'
  | 'upgrade-torch'
  | 'patch-synchronize'
  | 'stage-data'
  | 'start-host-first'
  | 'pg-timeout'
  | 'hccl-timeouts'
  | 'nccl-debug'
  | 'better-logs'
  | 'clock-sync'
  | 'collect-logs'
  | 'check-endpoint'
  | 'same-rdzv-id';

export interface AdviceSpec {
  id: AdviceId;
  /** The exact change to copy, when there is one. */
  command: string | null;
  /** Values the texts refer to. */
  values: Record<string, string | number>;
}

/** A rendezvous limit for the observed skew: 1.5× the skew plus two minutes, in 5-minute steps, never below 1800 s. */
export function recommendedTimeout(skewSeconds: number | null): number {
  const need = (skewSeconds ?? 0) * 1.5 + 120;
  return Math.max(RECOMMENDED_RDZV_SECONDS, Math.ceil(need / 300) * 300);
}

export interface RdzvConfInput {
  job: JobModel;
  skewSeconds: number | null;
  /** The store host was late: c10d clients then need a longer read_timeout to connect at all. */
  hostLagSeconds: number | null;
  hostLate: boolean;
}

/**
 * One `--rdzv_conf` value with every key that matters for the backend. It is not an append argument:
 * a second `--rdzv_conf` replaces the first, so the user's own keys are carried over.
 */
export function rdzvConfAdvice({ job, skewSeconds, hostLagSeconds, hostLate }: RdzvConfInput): AdviceSpec {
  const backend = job.job.backend ?? 'static';
  const dynamic = backend === 'c10d' || backend === 'etcd-v2';
  const keys: Record<string, string> = {};
  for (const [k, v] of Object.entries(job.job.rdzvConfigs ?? {})) {
    if (k === 'rank' || job.job.rdzvConfigsDefaulted.includes(k)) continue;
    // c10d ignores `timeout`; keeping it would suggest it matters.
    if (dynamic && k === 'timeout') continue;
    keys[k] = v;
  }
  const t = recommendedTimeout(skewSeconds);
  const raise = (k: string, v: number) => {
    // The user's value is log text: one past a year (`timeout=1e308`) is replaced, not kept in the command.
    const cur = boundedSeconds(keys[k], 's');
    keys[k] = String(cur !== null ? Math.max(cur, v) : v);
  };
  if (dynamic) {
    raise('join_timeout', t);
    if (hostLate) raise('read_timeout', Math.max(300, Math.ceil(((hostLagSeconds ?? t) * 1.5) / 60) * 60));
    const { minNodes, maxNodes } = job.job;
    if (minNodes !== null && maxNodes !== null && minNodes < maxNodes)
      raise('last_call_timeout', Math.max(60, Math.ceil(((skewSeconds ?? 60) * 1.5) / 60) * 60));
  } else {
    raise('timeout', t);
  }
  const value = Object.entries(keys)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return {
    id: 'rdzv-conf',
    command: `torchrun --rdzv_conf="${value}" …`,
    values: { value, seconds: t, backend, key: dynamic ? 'join_timeout' : 'timeout' },
  };
}

export function upgradeAdvice(limit: number): AdviceSpec {
  return {
    id: 'upgrade-torch',
    command: `pip install 'torch>=2.4'   # then: torchrun --rdzv_conf="timeout=${limit}" …`,
    values: { seconds: limit },
  };
}

/** torch ≤ 2.3: the 300 s default of store_util.synchronize, raised in the installed file on every node. */
export function patchSynchronizeAdvice(job: JobModel, seconds: number): AdviceSpec | null {
  if (!hasStoreSync(job)) return null;
  const file = `"$(python -c 'import torch.distributed.elastic.utils.store as m; print(m.__file__)')"`;
  return {
    id: 'patch-synchronize',
    command: `sed -i 's/barrier_timeout: float = 300/barrier_timeout: float = ${seconds}/' ${file}`,
    values: { seconds },
  };
}

export function stageDataAdvice(): AdviceSpec {
  return {
    id: 'stage-data',
    command:
      'torchrun … train.py   # download/unpack inside train.py after dist.init_process_group(), or stage the data before the job',
    values: {},
  };
}

export function pgTimeoutAdvice(seconds: number): AdviceSpec {
  return {
    id: 'pg-timeout',
    command: `dist.init_process_group(backend, timeout=datetime.timedelta(seconds=${seconds}))`,
    values: { seconds },
  };
}

export function hcclAdvice(connect: number): AdviceSpec {
  const v = Math.min(7200, Math.max(connect, 600));
  return {
    id: 'hccl-timeouts',
    command: `export HCCL_CONNECT_TIMEOUT=${v}   # on every node, before torchrun; HCCL_EXEC_TIMEOUT likewise if execution waits`,
    values: { seconds: v },
  };
}

export function betterLogsAdvice(job: JobModel): AdviceSpec {
  const v = job.job.torchVersion ?? '';
  const glog = /^2\.(?:[3-9]|\d\d)|2\.3\+|2\.4\+/.test(v);
  const env = glog ? 'LOGLEVEL=INFO TORCH_LOGS=distributed' : 'LOGLEVEL=INFO';
  return {
    id: 'better-logs',
    command: `${env} torchrun … 2>&1 | ts '[%Y-%m-%d %H:%M:%.S]' | tee node$NODE_RANK.log   # or: kubectl logs --timestamps POD`,
    values: { env },
  };
}

export function sameRdzvIdAdvice(): AdviceSpec {
  return { id: 'same-rdzv-id', command: 'torchrun --rdzv_id="$JOB_ID" … # the same value on every node', values: {} };
}

export function simpleAdvice(
  id: AdviceId,
  command: string | null = null,
  values: AdviceSpec['values'] = {},
): AdviceSpec {
  return { id, command, values };
}

/**
 * Would every node have made it with the limit that bound the start at T? Usually the rendezvous limit (every
 * node waits for the last from its own launch). When the store host was late the clients' connect deadline
 * bound it instead: each client waits for the host, so a client makes it if the host came within T of it.
 */
export interface WhatIf {
  /** The limit modelled: the rendezvous limit, or the clients' connect deadline when the store host was late. */
  limitId: string;
  timeoutSeconds: number;
  skewSeconds: number;
  allMadeIt: boolean;
  /** T minus the skew (negative: short by that much). */
  spareSeconds: number;
  /** A limit T does not move (the ≤ 2.3 synchronize) that still stops the job, or null. */
  blockedBy: { id: 'store-sync'; seconds: number } | null;
  perNode: { node: string; lagSeconds: number; spareSeconds: number; madeIt: boolean }[];
}

export function whatIf(job: JobModel, limits: LimitInForce[], timeoutSeconds: number): WhatIf | null {
  // Only with every node placed: an unplaced node may be the late one, and the answer would be made up.
  if (job.skewSeconds === null || job.nodes.some((n) => n.lagSeconds === null)) return null;
  const host = job.nodes.find((n) => n.isStoreHost);
  const f = job.failure;
  const hostLate =
    f !== null &&
    host !== undefined &&
    host.lagSeconds !== null &&
    f.lateNodes.includes(host.id) &&
    (f.stage === 'store-connect' || f.stage === 'rendezvous-connection');
  if (hostLate) {
    // Each client waited for the host from its own launch.
    const perNode = job.nodes.map((n) => {
      const wait = n.id === host.id ? 0 : Math.max(0, host.lagSeconds! - n.lagSeconds!);
      return {
        node: n.id,
        lagSeconds: n.lagSeconds!,
        spareSeconds: round1(timeoutSeconds - wait),
        madeIt: wait < timeoutSeconds,
      };
    });
    return {
      limitId: f.limit?.id ?? 'read-timeout',
      timeoutSeconds,
      skewSeconds: job.skewSeconds,
      allMadeIt: perNode.every((p) => p.madeIt),
      spareSeconds: round1(minOf(perNode.map((p) => p.spareSeconds))),
      blockedBy: null,
      perNode,
    };
  }
  const sync = limits.find((l) => l.id === 'store-sync' && l.applies);
  const blocked = sync && job.skewSeconds > sync.seconds ? { id: 'store-sync' as const, seconds: sync.seconds } : null;
  const cap = blocked ? Math.min(timeoutSeconds, sync!.seconds) : timeoutSeconds;
  const perNode = job.nodes
    .filter((n) => n.lagSeconds !== null)
    .map((n) => ({
      node: n.id,
      lagSeconds: n.lagSeconds!,
      spareSeconds: round1(cap - n.lagSeconds!),
      madeIt: n.lagSeconds! < cap,
    }));
  return {
    limitId:
      limits.find((l) => (l.id === 'rdzv-timeout' || l.id === 'join-timeout') && l.applies)?.id ?? 'rdzv-timeout',
    timeoutSeconds,
    skewSeconds: job.skewSeconds,
    allMadeIt: perNode.every((p) => p.madeIt),
    spareSeconds: round1(cap - job.skewSeconds),
    blockedBy: blocked,
    perNode,
  };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
