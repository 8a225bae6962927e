import type { JobModel } from '../core/model';
import { reasonText } from '../core/notesText';
import { formatSeconds, listText } from './format';
import { STAGE_WORDS, VERDICT_LABEL, VERDICT_SUMMARY } from './words';

interface Props {
  job: JobModel;
}

function lateNodesText({ failure, verdict }: JobModel): string {
  if (failure && failure.lateNodes.length > 0) {
    const n = failure.lateNodes.length;
    return `Late ${n === 1 ? 'node' : 'nodes'}: ${listText(failure.lateNodes)}`;
  }
  return verdict === 'failed' ? 'No late node identified' : 'No late node';
}

function nodeCountText(job: JobModel): string {
  const seen = job.nodes.length;
  const expected = job.job.nnodes ?? job.job.maxNodes;
  return expected !== null && expected !== seen ? `${seen} of ${expected}` : String(seen);
}

export function VerdictHeader({ job }: Props) {
  const { failure, verdict } = job;
  const headline = failure ? STAGE_WORDS[failure.stage] : VERDICT_SUMMARY[verdict];
  const facts: [string, string, string?][] = [
    ['Launch skew', job.skewSeconds === null ? 'unknown' : formatSeconds(job.skewSeconds), 'skew'],
    ['Timeout', failure?.timeoutSeconds == null ? '—' : formatSeconds(failure.timeoutSeconds)],
    ['Nodes', nodeCountText(job)],
    ['PyTorch', job.job.torchVersion ?? 'unknown'],
    ['Rendezvous backend', job.job.backend ?? 'unknown'],
  ];

  return (
    <section className={`card verdict verdict--${verdict}`} aria-labelledby="verdict-headline">
      <div className="verdict__top">
        <span className="verdict__badge" data-testid="verdict" data-verdict={verdict}>
          {VERDICT_LABEL[verdict]}
        </span>
        {failure && failure.reportedBy.length > 0 && (
          <span className="verdict__reported">reported by {listText(failure.reportedBy)}</span>
        )}
      </div>
      <h1 id="verdict-headline" className="verdict__headline">
        {headline}
      </h1>
      <p className="verdict__late" data-testid="late-nodes">
        {lateNodesText(job)}
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
        <ul className="verdict__reasoning">
          {failure.reasoning.map((line, i) => (
            <li key={i}>{reasonText('en', line)}</li>
          ))}
        </ul>
      )}
      {job.missingNodes.length > 0 && (
        <p className="verdict__missing">
          No logs for {listText(job.missingNodes)}, although the world size implies{' '}
          {job.missingNodes.length === 1 ? 'it' : 'them'}.
        </p>
      )}
    </section>
  );
}
