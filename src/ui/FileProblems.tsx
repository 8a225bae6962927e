import type { JobModel } from '../core/model';
import type { FileRow } from '../state/index';
import { PROBLEM_LABEL } from './words';

interface Props {
  job: JobModel | null;
  /** Files left unread because the run was cancelled. */
  unread: FileRow[];
}

export function FileProblems({ job, unread }: Props) {
  const problems = (job?.files ?? []).flatMap(({ file, problem }) => (problem ? [{ file, problem }] : []));
  if (problems.length === 0 && unread.length === 0) return null;
  return (
    <section className="card" aria-labelledby="problems-title">
      <h2 id="problems-title">Files not analysed</h2>
      <ul className="problems" data-testid="file-problems">
        {problems.map((f) => (
          <li key={f.file}>
            <span className="tag tag--warn">{PROBLEM_LABEL[f.problem.code] ?? f.problem.code}</span>
            <span className="mono ellipsis problems__file" title={f.file}>
              {f.file}
            </span>
            <span className="problems__message">{f.problem.message}</span>
          </li>
        ))}
        {unread.map((row) => (
          <li key={row.path}>
            <span className="tag">Cancelled</span>
            <span className="mono ellipsis problems__file" title={row.path}>
              {row.path}
            </span>
            <span className="problems__message">
              Not analysed: the run was cancelled before this file was finished.
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
