import type { JobModel } from '../core/model';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Node ids by lag, latest first (numerically), unknown lags last, then by name (node2 before node10). */
export function byLag(job: Pick<JobModel, 'nodes'>, ids: readonly string[]): string[] {
  const lag = new Map(job.nodes.map((n) => [n.id, n.lagSeconds]));
  return [...ids].sort((a, b) => (lag.get(b) ?? -Infinity) - (lag.get(a) ?? -Infinity) || collator.compare(a, b));
}
