import type { JobModel } from '../core/model';
import { formatSeconds, listSome, listText } from '../i18n/index';
import { AnalysisText, useT, type T } from './i18n';
import { byLag } from './lateNodes';

interface Props {
  job: JobModel;
}

/** Late nodes as the headline names them: latest first, the first few of a long list and a count. */
function lateNodesText(t: T, job: JobModel): string {
  const { failure, verdict } = job;
  if (failure && failure.lateNodes.length > 0)
    return t(failure.lateNodes.length === 1 ? 'verdict.lateOne' : 'verdict.lateMany', {
      nodes: listSome(t.lang, byLag(job, failure.lateNodes), 8),
    });
  return t(verdict === 'failed' ? 'verdict.noLateIdentified' : 'verdict.noLate');
}

/** The job's skew; when only some nodes have a launch time, the skew among them as a lower bound. */
function skewText(t: T, job: JobModel): string {
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

function nodeCountText(t: T, job: JobModel): string {
  const seen = job.nodes.length;
  const expected = job.job.nnodes ?? job.job.maxNodes;
  return expected !== null && expected !== seen ? t('verdict.nodesOf', { seen, expected }) : t('count', { n: seen });
}

export function VerdictHeader({ job }: Props) {
  const t = useT();
  const { failure, verdict } = job;
  const headline = failure ? t(`stage.headline.${failure.stage}`) : t(`verdict.summary.${verdict}`);
  const unknown = t('verdict.unknown');
  const facts: [string, string, string?][] = [
    [t('verdict.fact.skew'), skewText(t, job), 'skew'],
    [t('verdict.fact.timeout'), failure?.timeoutSeconds == null ? '—' : formatSeconds(t.lang, failure.timeoutSeconds)],
    [t('verdict.fact.nodes'), nodeCountText(t, job)],
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
            {t('verdict.reportedBy', { nodes: listSome(t.lang, failure.reportedBy, 8) })}
          </span>
        )}
      </div>
      <h1 id="verdict-headline" className="verdict__headline">
        {headline}
      </h1>
      <p className="verdict__late" data-testid="late-nodes">
        {lateNodesText(t, job)}
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
        <p className="verdict__missing">{t('verdict.missing', { nodes: listText(t.lang, job.missingNodes) })}</p>
      )}
    </section>
  );
}
