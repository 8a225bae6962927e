import type { FileProblem, JobModel } from '../core/model';
import type { FileRow } from '../state/index';
import { CoreText, useT } from './i18n';

interface Props {
  job: JobModel | null;
  /** Files left unread because the run was cancelled. */
  unread: FileRow[];
  /** On the error-first screen the list is the page's subject, not a side note. */
  lead?: boolean;
}

export type ProblemCode = FileProblem['code'];

export function problemsOf(job: JobModel | null): { file: string; problem: FileProblem }[] {
  return (job?.files ?? []).flatMap(({ file, problem }) => (problem ? [{ file, problem }] : []));
}

export function FileProblems({ job, unread, lead = false }: Props) {
  const t = useT();
  const problems = problemsOf(job);
  if (problems.length === 0 && unread.length === 0) return null;
  const list = (
    <ul className="problems" data-testid="file-problems">
      {problems.map((f) => (
        <li key={f.file} data-problem={f.problem.code}>
          <span className="tag tag--warn">{t(`problem.${f.problem.code}`)}</span>
          <span className="mono ellipsis problems__file" title={f.file}>
            {f.file}
          </span>
          <span className="problems__message">
            <CoreText>{f.problem.message}</CoreText>
          </span>
        </li>
      ))}
      {unread.map((row) => (
        <li key={row.path} data-problem="cancelled">
          <span className="tag">{t('problem.cancelled')}</span>
          <span className="mono ellipsis problems__file" title={row.path}>
            {row.path}
          </span>
          <span className="problems__message">{t('problem.cancelledMessage')}</span>
        </li>
      ))}
    </ul>
  );
  if (lead) return list;
  return (
    <section className="card" aria-labelledby="problems-title">
      <h2 id="problems-title">{t('problems.title')}</h2>
      {list}
    </section>
  );
}
