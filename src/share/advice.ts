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
  type AdviceId,
  type AdviceSpec,
} from '../core/advice';
import type { P } from '../core/diagnosisText';
import type { Advice } from '../core/findings';
import type { JobFacts, JobModel } from '../core/model';

// Advice travels as its id and the values its sentences use; the receiver rebuilds the command with core's own
// builders and keeps it only when they give back exactly those values. So a link cannot carry a command of its
// own making (`curl … | sh` shown as skewscope's advice): every command shown comes from core's templates.
//
// The sender takes the values core's Finding.advice carries, then checks that the rebuilt advice says the
// same words and gives the same command.

export type AdviceValues = Record<string, string | number>;

/** The values behind one piece of advice. */
export function adviceValuesOf(a: Advice): AdviceValues {
  return a.values;
}

/** Core's advice for these values, or null when core would not produce exactly them (a tampered link). */
export function rebuildAdvice(id: AdviceId, values: AdviceValues): AdviceSpec | null {
  const seconds = typeof values.seconds === 'number' ? values.seconds : NaN;
  const positive = Number.isInteger(seconds) && seconds > 0 && seconds <= 1e7;
  let spec: AdviceSpec | null = null;
  switch (id) {
    case 'rdzv-conf': {
      const { value, backend, form } = values;
      const configs = typeof value === 'string' ? parseConf(value) : null;
      const skew = skewFor(seconds);
      if (!configs || typeof backend !== 'string' || !/^[\w-]{1,32}$/.test(backend) || skew === undefined) break;
      if (form !== 'env' && form !== 'flag') break;
      const job = stubJob({ backend, rdzvConfigs: configs });
      spec = rdzvConfAdvice({ job, skewSeconds: skew, hostLagSeconds: null, hostLate: false, form });
      break;
    }
    case 'upgrade-torch': {
      // The install kind the sender saw decides the command; rebuilt from a stand-in path of that kind.
      const install =
        values.install === 'pip'
          ? { kind: 'pip' as const, path: '/venv/lib/python3/site-packages' }
          : values.install === 'distro'
            ? { kind: 'distro' as const, path: '/usr/lib/python3/dist-packages' }
            : null;
      if (positive) spec = upgradeAdvice(seconds, install);
      break;
    }
    case 'patch-synchronize':
      // Only offered on torch ≤ 2.3; the stub names a version where it applies.
      if (positive) spec = patchSynchronizeAdvice(stubJob({ torchVersion: '1.13' }), seconds);
      break;
    case 'pg-timeout': {
      const b = values.backend;
      if (positive && (b === '' || b === 'nccl' || b === 'gloo' || b === 'hccl'))
        spec = pgTimeoutAdvice(seconds, b || null);
      break;
    }
    case 'hccl-timeouts':
      if (positive) spec = hcclAdvice(seconds);
      break;
    case 'better-logs': {
      // Two forms: with TORCH_LOGS for the glog-prefixed versions (2.3+), without for older ones.
      const env = values.env;
      spec = betterLogsAdvice(
        stubJob({ torchVersion: typeof env === 'string' && /TORCH_LOGS/.test(env) ? '2.6' : '1.13' }),
      );
      break;
    }
    case 'check-endpoint':
      // An endpoint is a host and a port (or '?' when the logs name none): nothing a shell or a sentence would read.
      if (typeof values.endpoint === 'string' && /^(?:[\w.:[\]<>%-]{1,120}|\?)$/.test(values.endpoint))
        spec = simpleAdvice(id, null, { endpoint: values.endpoint });
      break;
    case 'stage-data':
      spec = stageDataAdvice();
      break;
    case 'same-rdzv-id':
      spec = sameRdzvIdAdvice(typeof values.id === 'string' ? values.id : null);
      break;
    case 'no-shared-store':
      spec = simpleAdvice(id, 'export TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1');
      break;
    case 'start-host-first':
    case 'nccl-debug':
    case 'clock-sync':
    case 'collect-logs':
      spec = simpleAdvice(id);
      break;
  }
  return spec && sameValues(spec.values, values) ? spec : null;
}

function sameValues(a: P | AdviceValues, b: AdviceValues): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** A skew for which core recommends exactly `seconds` (multiples of 300 s from 1800), or undefined. */
function skewFor(seconds: number): number | null | undefined {
  if (seconds === recommendedTimeout(null)) return null;
  const skew = (seconds - 270) / 1.5;
  return skew > 0 && recommendedTimeout(skew) === seconds ? skew : undefined;
}

/** `k=v,k=v` back into rdzv_configs; keys and values from a small, shell-inert alphabet. */
function parseConf(value: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  if (value === '') return out;
  for (const pair of value.split(',')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]{0,39})=([\w.:<>+/-]{0,120})$/.exec(pair);
    const [, key, val] = m ?? [];
    if (key === undefined || val === undefined || key in out) return null;
    out[key] = val;
  }
  return out;
}

/** A job model with only the facts the advice builders read. */
export function stubJob(facts: Partial<JobFacts>): JobModel {
  return {
    schemaVersion: 1,
    verdict: 'failed',
    failure: null,
    skewSeconds: null,
    skewAmongPlaced: null,
    nodes: [],
    job: {
      torchVersion: null,
      torchVersionEvidence: null,
      backend: null,
      nnodes: null,
      minNodes: null,
      maxNodes: null,
      nprocPerNode: null,
      rdzvEndpoint: null,
      rdzvId: null,
      rdzvConfigs: null,
      rdzvConfigsDefaulted: [],
      rdzvConfigsEvidence: null,
      worldSize: null,
      worldNodes: null,
      torchInstall: null,
      agentStoreShared: null,
      envTimeouts: {},
      ...facts,
    },
    missingNodes: [],
    missingCount: 0,
    worldFormed: null,
    mixedJobs: null,
    clockOffsets: [],
    notes: [],
    files: [],
  };
}
