import { formatSeconds, listText } from '../i18n/index';
import type { LateSummary, NodeLag } from '../ingest/index';
import type { T } from './i18n';

/** `node5 (+3 min 27 s)`, or the name alone without a launch time. */
export function nodeLagText(t: T, node: NodeLag): string {
  return node.lag === null ? node.id : t('late.withLag', { node: node.id, lag: formatSeconds(t.lang, node.lag) });
}

/**
 * The late nodes as a summary names them: the worst few by lag, latest first, then how many more —
 * `node5 (+207 s), node1 (+187 s) and 39 more`, never a list of thousands.
 */
export function lateList(
  t: T,
  late: Pick<LateSummary, 'count' | 'worst'>,
  shown = late.worst.length,
  lags = true,
): string {
  const names = late.worst.slice(0, shown).map((n) => (lags ? nodeLagText(t, n) : n.id));
  const more = late.count - names.length;
  return more > 0 ? t('list.more', { list: names.join(t('list.sep')), n: more }) : listText(t.lang, names);
}
