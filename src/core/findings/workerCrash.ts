import type { NodeEvent } from '../model';
import type { Context } from './context';
import { evOf } from './evidence';
import type { Draft } from './types';

// WORKER_CRASH: a worker failed with its own error and the other nodes then waited for its ranks until their
// limit ran out. The crash is the cause; the others' timeouts are consequences, and no node was late — so this
// finding replaces the lateness and "unclassified" readings of the same failure.

/** The failure analysis read the job as a worker crash the others waited on. */
export function crashReason(c: Context): { nodes: string[]; waiters: string[]; stage: string } | null {
  const r = c.job.failure?.reasoning.find((x) => x.code === 'worker-crash');
  if (!r) return null;
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return { nodes: list(r.values.nodes), waiters: list(r.values.waiters), stage: String(r.values.stage ?? '') };
}

/** The worker's own exception on a crashing node: the line that says what went wrong, not the agent's report. */
export function ownError(events: NodeEvent[]): NodeEvent | undefined {
  const worker = events.filter((e) => e.stage === 'worker-error');
  return worker.find((e) => e.kind === 'failure' || e.kind === 'error') ?? worker[0];
}

export function workerCrashDrafts(c: Context): Draft[] {
  const crash = crashReason(c);
  const f = c.job.failure;
  if (!crash || !f) return [];
  const crashers = c.job.nodes.filter((n) => crash.nodes.includes(n.id));
  const errors = crashers.map((n) => ownError(n.events)).filter((e): e is NodeEvent => e !== undefined);
  const line = errors[0]?.text.trim() ?? '';
  const at = line.search(/\b[\w.]{0,200}(?:Error|Exception)\b/);
  return [
    {
      code: 'WORKER_CRASH',
      severity: 'error',
      numbers: {
        nodes: crash.nodes.join(', '),
        error: line ? (at >= 0 ? line.slice(at) : line).slice(0, 160) : null,
        waiters: crash.waiters.join(', ') || null,
        waitStage: crash.stage || null,
        limit: f.limit?.seconds ?? null,
        source: f.limit?.from ?? null,
      },
      nodes: [...crash.nodes, ...crash.waiters],
      evidence: [...errors.slice(0, 2).flatMap((e) => evOf(e)), ...f.evidence.slice(0, 2)].slice(0, 4),
      advice: [],
    },
  ];
}
