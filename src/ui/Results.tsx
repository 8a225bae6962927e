import type { JobModel } from '../core/model';
import type { FileRow } from '../state/index';
import type { Diagnosis } from '../ingest/index';
import { formatBytes, formatNumber } from '../i18n/index';
import { EvidenceList } from './EvidenceList';
import { EvidenceViewer } from './EvidenceViewer';
import { FindingsPanel } from './FindingsPanel';
import { FileProblems, problemsOf, type ProblemCode } from './FileProblems';
import { NodeTable } from './NodeTable';
import { SkewChart } from './LazySkewChart';
import { Timeline } from './timeline/Timeline';
import { VerdictHeader } from './VerdictHeader';
import { ResultExports } from './share/Exports';
import { WhatIfSlider, hasWhatIf } from './WhatIfSlider';
import { AnalysisText, Rich, useT } from './i18n';
import { KeptNote } from './KeptNote';

interface Props {
  job: JobModel | null;
  diagnosis: Diagnosis | null;
  files: FileRow[];
  cancelled: boolean;
}

/** No file is a torchrun log: the page leads with why, per file, and what to drop instead. */
export function isErrorFirst(job: JobModel | null): boolean {
  return !job || job.nodes.length === 0 || job.verdict === 'not-torchrun';
}

export function Results({ job, diagnosis, files, cancelled }: Props) {
  const t = useT();
  const unread = cancelled ? files.filter((f) => f.status !== 'done') : [];
  const read = files.length - unread.length;
  const errorFirst = isErrorFirst(job);

  return (
    <div className="results">
      {cancelled && (
        <p className="banner" role="note">
          {t('results.cancelled', { read, total: files.length })}
        </p>
      )}
      {errorFirst ? (
        <NoLogs job={job} diagnosis={diagnosis} unread={unread} />
      ) : (
        job && (
          <>
            <VerdictHeader job={job} />
            {diagnosis && <ResultExports job={job} diagnosis={diagnosis} />}
            <KeptNote />
            {diagnosis && <FindingsPanel diagnosis={diagnosis} />}
            <Timeline job={job} diagnosis={diagnosis} />
            {job.nodes.some((n) => n.lagSeconds !== null) && <SkewChart job={job} diagnosis={diagnosis} />}
            {hasWhatIf(job) && <WhatIfSlider job={job} diagnosis={diagnosis} />}
            <NodeTable job={job} />
            <EvidenceList evidence={job.failure?.evidence ?? []} />
            <EvidenceViewer />
            <FileProblems job={job} unread={unread} />
            {job.notes.length > 0 && (
              <section className="card" aria-labelledby="notes-title" data-testid="notes">
                <h2 id="notes-title">{t('notes.title')}</h2>
                <ul className="notes">
                  {job.notes.map((note, i) => (
                    <li key={i}>
                      <AnalysisText item={note} kind="note" />
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </>
        )
      )}
      {job && job.files.length > 0 && <FilesSummary job={job} files={files} />}
    </div>
  );
}

/** Sizes as dropped: an input's own size (a binary file is skipped unread), a member's as inflated. */
function sizeOf(file: { file: string; bytes: number }, rows: Map<string, number>): number {
  return rows.get(file.file) ?? file.bytes;
}

function FilesSummary({ job, files }: { job: JobModel; files: FileRow[] }) {
  const t = useT();
  const rows = new Map(files.map((r) => [r.path, r.bytes]));
  const total = job.files.reduce((sum, f) => sum + sizeOf(f, rows), 0);
  return (
    <details className="card files-summary" data-testid="files-summary">
      <summary>{t('files.summary', { n: job.files.length, size: formatBytes(t.lang, total) })}</summary>
      <ul>
        {job.files.map((f) => (
          <li key={f.file}>
            <span className="mono ellipsis" title={f.file}>
              {f.file}
            </span>
            <span className="muted nowrap">
              {t('files.row', { lines: formatNumber(t.lang, f.lines, 0), size: formatBytes(t.lang, sizeOf(f, rows)) })}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}

const ADVICE_ORDER: ProblemCode[] = ['binary', 'not-a-log', 'empty', 'archive-error', 'bomb', 'unreadable'];

function NoLogs({ job, diagnosis, unread }: { job: JobModel | null; diagnosis: Diagnosis | null; unread: FileRow[] }) {
  const t = useT();
  const problems = problemsOf(job);
  const codes = new Set(problems.map((p) => p.problem.code));
  const count = job?.files.length ?? 0;
  return (
    <>
      <section className="card no-logs" role="alert" aria-labelledby="no-logs-title" data-testid="no-logs">
        <p className="no-logs__kicker">{t('verdict.label.not-torchrun')}</p>
        <h1 id="no-logs-title" className="no-logs__title">
          {t(count === 0 ? 'nologs.titleNone' : count === 1 ? 'nologs.titleOne' : 'nologs.titleAll')}
        </h1>
        <p className="no-logs__lead">{t('nologs.lead')}</p>
        <FileProblems job={job} unread={unread} lead />
        <h2 className="no-logs__next">{t('nologs.insteadTitle')}</h2>
        <ul className="no-logs__instead" data-testid="no-logs-instead">
          {ADVICE_ORDER.filter((c) => codes.has(c)).map((c) => (
            <li key={c} data-problem={c}>
              <Rich text={t(`nologs.instead.${c}`)} />
            </li>
          ))}
          <li>
            <Rich text={t('empty.what.perNode')} />
          </li>
          <li>
            <Rich text={t('empty.what.logdir')} />
          </li>
        </ul>
      </section>
      {job && diagnosis && <ResultExports job={job} diagnosis={diagnosis} noLogs />}
    </>
  );
}
