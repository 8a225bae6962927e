import { memo, startTransition, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { FileRow } from '../state/index';
import { lateIds, type ResultView } from '../ingest/index';
import { formatBytes, formatNumber } from '../i18n/index';
import { EvidenceList } from './EvidenceList';
import { EvidenceViewer } from './EvidenceViewer';
import { ViewBoundary } from './ErrorBoundary';
import { FindingsPanel } from './FindingsPanel';
import { FileProblems, type ProblemCode } from './FileProblems';
import { NodeTable } from './NodeTable';
import { SkewChart } from './SkewChart';
import { Timeline } from './timeline/Timeline';
import { VerdictHeader } from './VerdictHeader';
import { ResultExports } from './share/Exports';
import { WhatIfSlider, hasWhatIf } from './WhatIfSlider';
import { AnalysisText, Rich, useT } from './i18n';
import { KeptNote } from './KeptNote';
import { VirtualList } from './VirtualList';
import './views.css';

interface Props {
  /** Null when no file yielded anything at all. */
  view: ResultView | null;
  files: FileRow[];
  cancelled: boolean;
  /** A newer analysis is on its way (a correction, more files read). */
  updating: boolean;
}

/** No file is a torchrun log: the page leads with why, per file, and what to drop instead. */
export function isErrorFirst(view: ResultView | null): boolean {
  return !view || view.nodeCount === 0 || view.job.verdict === 'not-torchrun';
}

/** One empty list, so that a new list of files read does not count as a change of the unread ones. */
const NONE: FileRow[] = [];

export function Results({ view: latest, files, cancelled, updating }: Props) {
  const t = useT();
  // A new view (a partial one, the whole job, a correction) is rendered in the background, in slices that let the
  // page answer between them; the one on screen stays until it is ready.
  const view = useDeferredValue(latest);
  const unread = useMemo(() => (cancelled ? files.filter((f) => f.status !== 'done') : NONE), [cancelled, files]);
  const read = files.length - unread.length;
  const errorFirst = isErrorFirst(view);

  return (
    <div className="results" aria-busy={updating || undefined} data-complete={view?.complete ?? true}>
      {cancelled && (
        <p className="banner" role="note">
          {t('results.cancelled', { read, total: files.length })}
        </p>
      )}
      {updating && view && !view.partial && (
        <p className="banner banner--partial" role="status" data-testid="updating">
          {t('results.updating')}
        </p>
      )}
      {view?.partial && (
        <p className="banner banner--partial" role="status" data-testid="partial">
          {t('progress.partial', {
            read: formatNumber(t.lang, view.partial.filesRead, 0),
            total: formatNumber(t.lang, view.partial.filesTotal, 0),
          })}
        </p>
      )}
      {errorFirst ? <NoLogs view={view} unread={unread} /> : view && <JobViews view={view} unread={unread} />}
      {view && view.job.files.length > 0 && (
        <ViewBoundary view="files">
          <FilesSummary view={view} files={files} />
        </ViewBoundary>
      )}
    </div>
  );
}

/**
 * How many of `max` stages to show: one more per task after each commit, from none whenever `max` drops to 0.
 * A 4,096-node job's timeline, node table and skew chart each take a while to lay out the first time; drawn one
 * per task, the page can answer in between.
 */
function useStage(max: number, staged: boolean): number {
  const [stage, setStage] = useState(0);
  // Nothing to show: start again from none. Not staged (a small job): all at once — and what is shown once stays
  // shown when the job grows past the threshold.
  if (max === 0 && stage !== 0) setStage(0);
  if (max > 0 && !staged && stage < max) setStage(max);
  useEffect(() => {
    if (stage >= max) return;
    // A transition: the next view's render yields to input while it is made.
    const id = setTimeout(() => startTransition(() => setStage((s) => s + 1)), 0);
    return () => clearTimeout(id);
  }, [stage, max]);
  return Math.min(stage, max);
}

/** Jobs of this many nodes have their views drawn one per task (the first view of a large drop has about 100). */
const STAGED_FROM = 64;

/** Memo: the urgent render of a new view (before the deferred one) leaves the views on screen as they are. */
const JobViews = memo(function JobViews({ view, unread }: { view: ResultView; unread: FileRow[] }) {
  const t = useT();
  const { job, diagnosis } = view;
  // On a large job, the timeline first, then the node table, then the skew chart, then the what-if; a small one's
  // views take no time and appear together. A drop still being read is staged whatever its size so far: its first
  // view (a few dozen nodes) mounts every view at once otherwise, and each lays itself out (300–400 ms in one task
  // on a loaded 2-core machine).
  const stage = useStage(view.complete ? 4 : 0, view.nodeCount >= STAGED_FROM || view.partial !== null);
  const lags = useMemo(
    () => (view.complete ? new Map(job.nodes.map((n) => [n.id, n.lagSeconds])) : null),
    [view.complete, job.nodes],
  );
  const late = useMemo(() => new Set(lateIds(job, diagnosis)), [job, diagnosis]);
  return (
    <>
      <ViewBoundary view="verdict">
        <VerdictHeader job={job} late={view.late} nodeCount={view.nodeCount} />
      </ViewBoundary>
      <ViewBoundary view="exports">
        <ResultExports view={view} />
      </ViewBoundary>
      <KeptNote />
      <ViewBoundary view="findings">
        <FindingsPanel diagnosis={diagnosis} lags={lags} />
      </ViewBoundary>
      {view.complete ? (
        <>
          {view.timeline && stage >= 1 && (
            <ViewBoundary view="timeline">
              <Timeline model={view.timeline} fired={view.fired} nodes={job.nodes} />
            </ViewBoundary>
          )}
          {view.skew && view.skew.points.length > 0 && stage >= 3 && (
            <ViewBoundary view="skew">
              <SkewChart skew={view.skew} expected={view.partial?.filesTotal ?? 0} />
            </ViewBoundary>
          )}
          {hasWhatIf(job) && stage >= 4 && (
            <ViewBoundary view="whatif">
              <WhatIfSlider job={job} diagnosis={diagnosis} />
            </ViewBoundary>
          )}
          {stage >= 2 && (
            <ViewBoundary view="nodes">
              <NodeTable job={job} late={late} gaps={view.gaps} />
            </ViewBoundary>
          )}
        </>
      ) : (
        <section className="card muted" aria-busy="true" data-testid="drawing">
          {t('results.drawing', { n: formatNumber(t.lang, view.nodeCount, 0) })}
        </section>
      )}
      <ViewBoundary view="evidence">
        <EvidenceList evidence={job.failure?.evidence ?? []} />
        <EvidenceViewer />
      </ViewBoundary>
      <ViewBoundary view="problems">
        <FileProblems problems={view.problems} unread={unread} />
      </ViewBoundary>
      {job.notes.length > 0 && (
        <ViewBoundary view="notes">
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
        </ViewBoundary>
      )}
    </>
  );
});

/** Sizes as dropped: an input's own size (a binary file is skipped unread), a member's as inflated. */
function sizeOf(file: { file: string; bytes: number }, rows: Map<string, number | null>): number {
  return rows.get(file.file) ?? file.bytes;
}

const FILE_ROW_H = 28;

/** Every file read, behind a disclosure: listed (windowed) only when opened. */
function FilesSummary({ view, files }: { view: ResultView; files: FileRow[] }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const rows = useMemo(() => new Map(files.map((r) => [r.path, r.bytes])), [files]);
  const list = view.job.files;
  const total = useMemo(() => list.reduce((sum, f) => sum + sizeOf(f, rows), 0), [list, rows]);
  return (
    <details className="card files-summary" data-testid="files-summary" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t('files.summary', { n: list.length, size: formatBytes(t.lang, total) })}</summary>
      {open && (
        <VirtualList
          items={list}
          rowHeight={FILE_ROW_H}
          maxHeight={FILE_ROW_H * 16}
          label={t('files.show')}
          className="files-summary__list"
          keyOf={(f) => f.file}
          render={(f) => (
            <span className="files-summary__row">
              <span className="mono ellipsis" title={f.file}>
                {f.file}
              </span>
              <span className="muted nowrap">
                {t('files.row', {
                  lines: formatNumber(t.lang, f.lines, 0),
                  size: formatBytes(t.lang, sizeOf(f, rows)),
                })}
              </span>
            </span>
          )}
        />
      )}
    </details>
  );
}

const ADVICE_ORDER: ProblemCode[] = ['binary', 'not-a-log', 'empty', 'archive-error', 'bomb', 'unreadable'];

function NoLogs({ view, unread }: { view: ResultView | null; unread: FileRow[] }) {
  const t = useT();
  const problems = view?.problems ?? [];
  const codes = new Set(problems.map((p) => p.code));
  const count = view?.job.files.length ?? 0;
  return (
    <>
      <section className="card no-logs" role="alert" aria-labelledby="no-logs-title" data-testid="no-logs">
        <p className="no-logs__kicker">{t('verdict.label.not-torchrun')}</p>
        <h1 id="no-logs-title" className="no-logs__title">
          {t(count === 0 ? 'nologs.titleNone' : count === 1 ? 'nologs.titleOne' : 'nologs.titleAll')}
        </h1>
        <p className="no-logs__lead">{t('nologs.lead')}</p>
        <ViewBoundary view="problems">
          <FileProblems problems={problems} unread={unread} lead />
        </ViewBoundary>
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
      {view && (
        <ViewBoundary view="exports">
          <ResultExports view={view} noLogs />
        </ViewBoundary>
      )}
    </>
  );
}
