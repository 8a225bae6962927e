// The timeline's words built from the model's codes: limit labels from their ids and seconds, which limit
// fired, and what a row is missing. The core's own label and note strings are English; these are the
// catalogue's, in the language on screen.
import type { JobModel } from '../../core/model';
import type { LimitId } from '../../core/thresholds';
import type { ThresholdLine, TimelineRow } from '../../core/timeline';
import { formatLimit } from '../../i18n/index';
import type { T } from '../i18n';

/** `rendezvous timeout 30 s`, `join_timeout / read_timeout 60 s`, `300 s`. */
export function limitLabel(t: T, line: Pick<ThresholdLine, 'ids' | 'seconds'>): string {
  const ids = line.ids.filter((id) => id !== 'recommended' || line.ids.length === 1);
  const value = formatLimit(t.lang, line.seconds);
  if (ids.length === 0) return value;
  return t('limit.label', { names: ids.map((id) => t(`limit.${id}`)).join(' / '), value });
}

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

/** What a placed row cannot show, in words: no launch time (only its timed events are marked). */
export function rowGaps(t: T, row: TimelineRow): string[] {
  if (!row.placed) return [];
  const out: string[] = [];
  if (row.launchMs === null)
    out.push(t(row.markers.length > 0 ? 'timeline.gap.noLaunch' : 'timeline.gap.noLaunchNoEvents'));
  if (row.untimedEvents > 0) out.push(t('timeline.gap.untimed', { n: row.untimedEvents }));
  return out;
}

/** The phase kinds a node waits in: a log that stops in one of them stopped while the node was waiting. */
export const WAITING = new Set(['rendezvous', 'rank-assignment', 'workers-starting']);
