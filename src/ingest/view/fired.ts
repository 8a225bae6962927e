import type { JobModel } from '../../core/model';
import type { LimitId } from '../../core/thresholds';
import type { ThresholdLine } from '../../core/timeline';

/** The limits each failure stage runs into, most specific first (as the core's timeline reasons about it). */
const STAGE_LIMITS: Partial<Record<NonNullable<JobModel['failure']>['stage'], LimitId[]>> = {
  'store-connect': ['rdzv-timeout', 'read-timeout'],
  'rendezvous-connection': ['read-timeout', 'join-timeout'],
  'rendezvous-timeout': ['rdzv-timeout', 'join-timeout'],
  'rendezvous-closed': ['rdzv-timeout', 'join-timeout'],
  'rank-assignment': ['store-sync'],
  'pg-init': ['pg-init'],
  'comm-init': ['hccl-connect', 'pg-init'],
  'exit-barrier': ['exit-barrier'],
};

/** The key of the limit line that fired: the job's failure timeout, on a line of a limit its stage runs into. */
export function firedLine(job: Pick<JobModel, 'failure'>, lines: ThresholdLine[]): string | null {
  const f = job.failure;
  if (!f) return null;
  // The core says which limit fired: its line is the one holding that limit at that value.
  if (f.limit) {
    const exact = lines.find((l) => l.ids.includes(f.limit!.id as LimitId) && l.seconds === f.limit!.seconds);
    if (exact) return exact.key;
  }
  if (f.timeoutSeconds === null) return null;
  const candidates = lines.filter((l) => l.kind === 'limit' && l.seconds === f.timeoutSeconds);
  if (candidates.length === 0) return null;
  const ids = STAGE_LIMITS[f.stage] ?? [];
  const byStage = candidates.find((l) => l.ids.some((id) => ids.includes(id)));
  return (byStage ?? candidates[0]!).key;
}
