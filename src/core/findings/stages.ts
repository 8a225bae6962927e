import { hcclAdvice, pgTimeoutAdvice, recommendedTimeout, simpleAdvice, stageDataAdvice } from '../advice';
import type { Context } from './context';
import type { Draft } from './types';
import { crashReason } from './workerCrash';

// The failures past the rendezvous: init_process_group, communicator setup, a collective during training,
// the exit barrier, and whatever fits no known startup stage.

export function pgInitDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  // A timeout finding needs a limit that ran out: an error raised at once names none (limit.ts).
  if (f?.stage !== 'pg-init' || f.limit === null) return [];
  const pg = c.limits.find((l) => l.id === 'pg-init')!;
  return [
    {
      code: 'PG_INIT_TIMEOUT',
      severity: 'error',
      numbers: {
        limit: f.timeoutSeconds ?? pg.seconds,
        source: f.limit?.from ?? (pg.from === 'logs' ? 'logs' : 'default'),
        reporters: f.reportedBy.join(', '),
        late: c.lateIds.join(', ') || null,
      },
      nodes: [...f.reportedBy, ...c.lateIds],
      evidence: f.evidence,
      advice: [pgTimeoutAdvice(Math.max(1800, recommendedTimeout(c.job.skewSeconds)), c.pgBackend), stageDataAdvice()],
    },
  ];
}

export function commInitDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (f?.stage !== 'comm-init') return [];
  const hccl = c.limits.find((l) => l.id === 'hccl-connect');
  return [
    {
      code: 'COMM_INIT_TIMEOUT',
      severity: 'error',
      numbers: {
        lib: hccl ? 'HCCL' : 'NCCL',
        limit: f.timeoutSeconds,
        source: f.limit?.from ?? null,
        reporters: f.reportedBy.join(', '),
        late: c.lateIds.join(', ') || null,
      },
      nodes: [...f.reportedBy, ...c.lateIds],
      evidence: f.evidence,
      advice: hccl ? [hcclAdvice(hccl.seconds * 5)] : [pgTimeoutAdvice(1800, c.pgBackend), simpleAdvice('nccl-debug')],
    },
  ];
}

export function collectiveDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (f?.stage !== 'collective-timeout') return [];
  const w = c.job.nodes
    .flatMap((n) => n.events)
    .find((e) => e.stage === 'collective-timeout' && e.fields.seq !== undefined);
  return [
    {
      code: 'NOT_A_STARTUP_PROBLEM',
      severity: 'warning',
      numbers: { seq: w?.fields.seq ?? null, limit: f.timeoutSeconds },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [simpleAdvice('nccl-debug')],
    },
  ];
}

export function exitBarrierDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (f?.stage !== 'exit-barrier') return [];
  return [
    {
      code: 'EXIT_BARRIER_TIMEOUT',
      severity: 'warning',
      numbers: { reporters: f.reportedBy.join(', ') },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [],
    },
  ];
}

export function unclassifiedDrafts(c: Context): Draft[] {
  const f = c.job.failure;
  if (!f || (f.stage !== 'other' && f.stage !== 'worker-error' && f.stage !== 'rendezvous-closed')) return [];
  if (crashReason(c)) return [];
  const line = f.evidence[0]?.text.trim() ?? '';
  const at = line.search(/\b[\w.]{0,200}(?:Error|Exception)\b/);
  return [
    {
      code: 'UNCLASSIFIED_FAILURE',
      severity: 'error',
      numbers: {
        error: (at >= 0 ? line.slice(at) : line).slice(0, 160),
        reporters: f.reportedBy.join(', '),
        lowConfidence: f.confidence === 'low' ? 1 : null,
      },
      nodes: f.reportedBy,
      evidence: f.evidence,
      advice: [],
    },
  ];
}
