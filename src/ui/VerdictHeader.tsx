import { memo } from 'react';
import { causedNotLate } from '../core/blame';
import { zhSpacing } from '../core/i18n';
import { missingNodesText } from './format';
import { formatSeconds, listSome } from '../i18n/index';
import { byName, type JobView, type LateSummary } from '../ingest/index';
import { AnalysisText, useT, type T } from './i18n';
import { lateList } from './lateNodes';

interface Props {
  job: JobView;
  late: LateSummary;
  /** The job's node count (its nodes may still be on their way). */
  nodeCount: number;
}

/**
 * Late nodes as the headline names them: one by name; many as a count and the worst by lag (latest first,
 * node9 before node10 on a tie), never a list of thousands. Late nodes of a job that ran are said to be so.
 */
function lateNodesText(t: T, job: JobView, late: LateSummary): string {
  // A worker that failed on its own error (or a node's own GPU) caused it: it was not late.
  const cause = causedNotLate(job.failure);
  if (cause && late.count === 1) return t('verdict.causeOne', { nodes: late.worst[0]!.id });
  if (cause && late.count > 1) return t('verdict.causeCount', { n: late.count, nodes: lateList(t, late) });
  if (late.count === 1)
    return t(late.culprits ? 'verdict.lateOne' : 'verdict.lateOneRan', { nodes: late.worst[0]!.id });
  if (late.count > 1)
    return t(late.culprits ? 'verdict.lateCount' : 'verdict.lateCountRan', { n: late.count, nodes: lateList(t, late) });
  return t(job.verdict === 'failed' ? 'verdict.noLateIdentified' : 'verdict.noLate');
}

/** The job's skew; when only some nodes have a launch time, the skew among them as a lower bound. */
function skewText(t: T, job: JobView): string {
  if (job.skewSeconds !== null) return formatSeconds(t.lang, job.skewSeconds);
  const some = job.skewAmongPlaced;
  if (some)
    return t('verdict.skewAmong', {
      value: formatSeconds(t.lang, some.seconds),
      placed: some.placed,
      total: some.total,
    });
  return t('verdict.unknown');
}

/** The limit that fired with where its value comes from: an assumed default is never shown as a fact. */
function timeoutText(t: T, job: JobView): string {
  const f = job.failure;
  if (f?.limit) return t(`verdict.limitFrom.${f.limit.from}`, { value: formatSeconds(t.lang, f.limit.seconds) });
  return f?.timeoutSeconds == null ? '—' : formatSeconds(t.lang, f.timeoutSeconds);
}

function nodeCountText(t: T, job: JobView, seen: number): string {
  const expected = job.job.nnodes ?? job.job.maxNodes;
  return expected !== null && expected !== seen ? t('verdict.nodesOf', { seen, expected }) : t('count', { n: seen });
}

export const VerdictHeader = memo(function VerdictHeader({ job, late, nodeCount }: Props) {
  const t = useT();
  const { failure, verdict } = job;
  const headline = failure ? t(`stage.headline.${failure.stage}`) : t(`verdict.summary.${verdict}`);
  const unknown = t('verdict.unknown');
  const facts: [string, string, string?][] = [
    [t('verdict.fact.skew'), skewText(t, job), 'skew'],
    [t('verdict.fact.timeout'), timeoutText(t, job)],
    [t('verdict.fact.nodes'), nodeCountText(t, job, nodeCount)],
    [t('verdict.fact.torch'), job.job.torchVersion ?? unknown],
    [t('verdict.fact.backend'), job.job.backend ?? unknown],
  ];

  return (
    <section className={`card verdict verdict--${verdict}`} aria-labelledby="verdict-headline">
      <div className="verdict__top">
        <span className="verdict__badge" data-testid="verdict" data-verdict={verdict}>
          {t(`verdict.label.${verdict}`)}
        </span>
        {failure && failure.reportedBy.length > 0 && (
          <span className="verdict__reported">
            {t('verdict.reportedBy', { nodes: listSome(t.lang, [...failure.reportedBy].sort(byName), 8) })}
          </span>
        )}
      </div>
      <h1 id="verdict-headline" className="verdict__headline">
        {headline}
      </h1>
      <p className="verdict__late" data-testid="late-nodes">
        {lateNodesText(t, job, late)}
      </p>
      <dl className="facts">
        {facts.map(([label, value, testId]) => (
          <div key={label} className="facts__item">
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
      {failure && failure.reasoning.length > 0 && (
        <ul className="verdict__reasoning" data-testid="reasoning">
          {failure.reasoning.map((line, i) => (
            <li key={i}>
              <AnalysisText item={line} kind="reason" />
            </li>
          ))}
        </ul>
      )}
      {job.missingNodes.length > 0 && (
        <p className="verdict__missing">
          {zhSpacing(
            t.lang,
            t('verdict.missing', {
              nodes: missingNodesText(t.lang, job, 8),
            }),
          )}
        </p>
      )}
    </section>
  );
});
