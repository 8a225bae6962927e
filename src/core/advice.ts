import type { JobFacts, JobModel } from './model';
import { causedNotLate } from './blame';
import { boundedSeconds, minOf } from './numbers';
import { RECOMMENDED_RDZV_SECONDS, hasStoreSync, type LimitInForce } from './thresholds';

// Remediation commands, derived from the job: its backend, its version, the keys it already set, how torch was
// installed and the skew it showed. Each command runs as shown: one line, no placeholder inside it, no comment
// (what to do with it lives in the advice's words, in diagnosisText.ts). torchrun reads any flag the command
// line leaves out from PET_<FLAG> (torch/distributed/argparse_util.py, 1.9–2.6), which makes an `export` the
// runnable form of a flag.

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
  'no-shared-store',
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
  | 'same-rdzv-id'
  | 'no-shared-store';

/** Where a command goes: a shell on every node before torchrun, the training script, the torchrun command line. */
export type CommandPlace = 'shell' | 'script' | 'torchrun';

export interface AdviceSpec {
  id: AdviceId;
  /** The exact change to copy, when there is one. */
  command: string | null;
  /** Where it goes (null without a command). */
  goesIn: CommandPlace | null;
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
  /** How the command is given, when already decided (a share link rebuilding the sender's advice). */
  form?: 'env' | 'flag';
}

/**
 * One `--rdzv_conf` value with every key that matters for the backend. It is not an append argument:
 * a second `--rdzv_conf` replaces the first, so the user's own keys are carried over.
 */
export function rdzvConfAdvice({ job, skewSeconds, hostLagSeconds, hostLate, form: given }: RdzvConfInput): AdviceSpec {
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
  // Keys the user typed came from a --rdzv_conf of theirs, which would win over the environment: edit that one.
  const typed = Object.keys(job.job.rdzvConfigs ?? {}).some(
    (k) => k !== 'rank' && !job.job.rdzvConfigsDefaulted.includes(k),
  );
  const form = given ?? (typed ? 'flag' : 'env');
  return {
    id: 'rdzv-conf',
    command: form === 'env' ? `export PET_RDZV_CONF="${value}"` : `--rdzv_conf="${value}"`,
    goesIn: form === 'env' ? 'shell' : 'torchrun',
    values: { value, seconds: t, backend, key: dynamic ? 'join_timeout' : 'timeout', form },
  };
}

/** How to upgrade depends on how torch was installed: pip can, a distribution's package cannot reach 2.4. */
export function upgradeAdvice(limit: number, install: JobFacts['torchInstall']): AdviceSpec {
  const how = install?.kind ?? 'unknown';
  return {
    id: 'upgrade-torch',
    command: how === 'pip' ? `python3 -m pip install --upgrade 'torch>=2.4'` : null,
    goesIn: how === 'pip' ? 'shell' : null,
    values: { seconds: limit, install: how },
  };
}

/** torch ≤ 2.3: the 300 s default of store_util.synchronize, raised in the installed file on every node. */
export function patchSynchronizeAdvice(job: JobModel, seconds: number): AdviceSpec | null {
  if (!hasStoreSync(job)) return null;
  // python3: Debian's torch has no `python`; every venv and conda env has python3 too.
  const file = `"$(python3 -c 'import torch.distributed.elastic.utils.store as m; print(m.__file__)')"`;
  return {
    id: 'patch-synchronize',
    command: `sed -i 's/barrier_timeout: float = 300/barrier_timeout: float = ${seconds}/' ${file}`,
    goesIn: 'shell',
    values: { seconds },
  };
}

/** A change to the job script, not a command: where the download goes. */
export function stageDataAdvice(): AdviceSpec {
  return { id: 'stage-data', command: null, goesIn: null, values: {} };
}

export type PgBackend = 'nccl' | 'gloo' | 'hccl';

/** The line in train.py, with the backend the logs show (none named: torch ≥ 2.0 picks one by device). */
export function pgTimeoutAdvice(seconds: number, backend: PgBackend | null): AdviceSpec {
  const arg = backend ? `"${backend}", ` : '';
  return {
    id: 'pg-timeout',
    command: `dist.init_process_group(${arg}timeout=datetime.timedelta(seconds=${seconds}))`,
    goesIn: 'script',
    values: { seconds, backend: backend ?? '' },
  };
}

export function hcclAdvice(connect: number): AdviceSpec {
  const v = Math.min(7200, Math.max(connect, 600));
  return { id: 'hccl-timeouts', command: `export HCCL_CONNECT_TIMEOUT=${v}`, goesIn: 'shell', values: { seconds: v } };
}

export function betterLogsAdvice(job: JobModel): AdviceSpec {
  const v = job.job.torchVersion ?? '';
  const glog = /^2\.(?:[3-9]|\d\d)|2\.3\+|2\.4\+/.test(v);
  const env = glog ? 'LOGLEVEL=INFO TORCH_LOGS=distributed' : 'LOGLEVEL=INFO';
  return { id: 'better-logs', command: `export ${env}`, goesIn: 'shell', values: { env } };
}

/** A rendezvous id safe to print in a shell line as it is. */
const PLAIN_ID = /^[\w.:-]{1,64}$/;

/** The id most nodes used, for the odd ones out; without one, the words say what to choose. */
export function sameRdzvIdAdvice(id: string | null): AdviceSpec {
  const plain = id !== null && PLAIN_ID.test(id) ? id : null;
  return {
    id: 'same-rdzv-id',
    command: plain ? `--rdzv_id=${plain}` : null,
    goesIn: plain ? 'torchrun' : null,
    values: plain ? { id: plain } : {},
  };
}

export function simpleAdvice(
  id: AdviceId,
  command: string | null = null,
  values: AdviceSpec['values'] = {},
): AdviceSpec {
  return { id, command, goesIn: command === null ? null : 'shell', values };
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
  // Only with every node placed: an unplaced node — or one whose log is missing — may be the late one, and the
  // answer would be made up.
  if (job.skewSeconds === null || job.nodes.some((n) => n.lagSeconds === null) || job.missingCount > 0) return null;
  // A worker that failed on its own error, or a node's own GPU: no limit would have let the start through.
  if (causedNotLate(job.failure)) return null;
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
