import { sameRdzvIdAdvice } from '../advice';
import type { Context } from './context';
import { evOf } from './evidence';
import type { Draft } from './types';

// RUN_ID_MISMATCH: nodes that met at one endpoint with different rendezvous ids never meet; no timeout fixes it.

export function runIds(c: Context): string[] {
  return [...new Set(c.job.nodes.map((n) => n.runId).filter((r): r is string => r !== null))];
}

export function runIdMismatch(c: Context): boolean {
  return c.dynamic && c.job.mixedJobs === null && runIds(c).length > 1;
}

export function runIdMismatchDrafts(c: Context): Draft[] {
  if (!runIdMismatch(c)) return [];
  return [
    {
      code: 'RUN_ID_MISMATCH',
      severity: 'error',
      numbers: {
        ids: runIds(c)
          .map((r) => `'${r}'`)
          .join(', '),
      },
      nodes: c.job.nodes.map((n) => n.id),
      evidence: c.job.nodes
        .flatMap((n) => evOf(n.events.find((e) => e.kind === 'launch' && e.fields.run_id !== undefined)))
        .slice(0, 4),
      advice: [sameRdzvIdAdvice(majorityRunId(c))],
    },
  ];
}

/** The id more nodes used than any other: the odd ones out change theirs to it. */
function majorityRunId(c: Context): string | null {
  const count = new Map<string, number>();
  for (const n of c.job.nodes) if (n.runId !== null) count.set(n.runId, (count.get(n.runId) ?? 0) + 1);
  const ranked = [...count.entries()].sort((a, b) => b[1] - a[1]);
  return ranked.length && (ranked.length === 1 || ranked[0]![1] > ranked[1]![1]) ? ranked[0]![0] : null;
}
