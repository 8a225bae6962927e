// The timeline's words built from the model's codes: limit labels from their ids and seconds, which limit
// fired, lane names, and what a row is missing — the catalogue's, in the language on screen.
import type { ThresholdLine, TimelineLane, TimelineRow } from '../../core/timeline';
import { formatLimit } from '../../i18n/index';
import type { T } from '../i18n';

export { firedLine } from '../../ingest/view/fired';

/** `rendezvous timeout 30 s`, `join_timeout / read_timeout 60 s`, `300 s`. */
export function limitLabel(t: T, line: Pick<ThresholdLine, 'ids' | 'seconds'>): string {
  const ids = line.ids.filter((id) => id !== 'recommended' || line.ids.length === 1);
  const value = formatLimit(t.lang, line.seconds);
  if (ids.length === 0) return value;
  return t('limit.label', { names: ids.map((id) => t(`limit.${id}`)).join(' / '), value });
}

/** A rank lane's name: `rank 4`, or `local rank 1` when the global rank is not known. */
export function laneName(t: T, lane: Pick<TimelineLane, 'rank' | 'localRank'>): string {
  return lane.rank !== null
    ? t('timeline.lane.rank', { n: String(lane.rank) })
    : t('timeline.lane.localRank', { n: String(lane.localRank ?? '?') });
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
