// A diagnosis opened from a share link: the same views as an analysis, restored from the link in the reader's
// language, read-only (no corrections, no log viewer: evidence shows the text the link carries).
import { useMemo, useRef } from 'react';
import { lateIds, resultView, type JobView } from '../../ingest/index';
import { diagnosisJson, markdownReport, restore, type ShareSnapshot } from '../../share/index';
import { useAppStore, useSavedStore, useViewStore } from '../../state/index';
import { useShareStore } from '../../state/share';
import { formatSeconds } from '../../i18n/index';
import { EvidenceList } from '../EvidenceList';
import { ViewBoundary } from '../ErrorBoundary';
import { FindingsPanel } from '../FindingsPanel';
import { SkewChart } from '../SkewChart';
import { Timeline } from '../timeline/Timeline';
import { VerdictHeader } from '../VerdictHeader';
import { WhatIfSlider, hasWhatIf } from '../WhatIfSlider';
import { AnalysisText, useT } from '../i18n';
import { ScrollBox } from '../ScrollBox';
import { useVirtualList } from '../useVirtualList';
import '../views.css';
import { Exports } from './Exports';
import { SavedBanner, SharedBanner } from './SharedBanner';
import './share.css';

export function SharedView({ snapshot }: { snapshot: ShareSnapshot }) {
  const t = useT();
  const lang = useAppStore((s) => s.lang);
  const leave = useShareStore((s) => s.leave);
  const origin = useShareStore((s) => s.origin);
  const forget = () => {
    useSavedStore.getState().forget();
    leave();
  };
  // Re-restored on a language switch: titles, details and advice are written by this page, not the link. A link's
  // job is small (a link holds at most a few thousand nodes' lags), so its views are made here.
  const { job, diagnosis } = useMemo(() => restore(snapshot, lang), [snapshot, lang]);
  const view = useMemo(() => resultView(0, job, diagnosis), [job, diagnosis]);
  const lags = useMemo(() => new Map(job.nodes.map((n) => [n.id, n.lagSeconds])), [job]);
  const late = useMemo(() => new Set(lateIds(job, diagnosis)), [job, diagnosis]);
  const markdown = async () =>
    markdownReport(job, diagnosis, lang, {
      title: snapshot.title,
      app: snapshot.app,
      omitted: snapshot.omitted,
      link: location.href,
    });
  const json = async () => diagnosisJson(job, diagnosis);

  return (
    <div className="results" data-testid="shared-view" data-origin={origin}>
      {origin === 'saved' ? (
        <SavedBanner snapshot={snapshot} onForget={forget} />
      ) : (
        <SharedBanner snapshot={snapshot} onLeave={leave} />
      )}
      <ViewBoundary view="verdict">
        <VerdictHeader job={view.job} late={view.late} nodeCount={view.nodeCount} />
      </ViewBoundary>
      <ViewBoundary view="exports">
        <Exports view={view} markdown={markdown} json={json} />
      </ViewBoundary>
      <ViewBoundary view="findings">
        <FindingsPanel diagnosis={diagnosis} lags={lags} />
      </ViewBoundary>
      {view.timeline && (
        <ViewBoundary view="timeline">
          <Timeline model={view.timeline} fired={view.fired} nodes={view.job.nodes} />
        </ViewBoundary>
      )}
      {view.skew && view.skew.points.length > 0 && (
        <ViewBoundary view="skew">
          <SkewChart skew={view.skew} />
        </ViewBoundary>
      )}
      {hasWhatIf(view.job) && (
        <ViewBoundary view="whatif">
          <WhatIfSlider job={view.job} diagnosis={diagnosis} />
        </ViewBoundary>
      )}
      <ViewBoundary view="nodes">
        <SharedNodeTable job={view.job} late={late} />
      </ViewBoundary>
      <ViewBoundary view="evidence">
        <EvidenceList evidence={job.failure?.evidence ?? []} />
      </ViewBoundary>
      {job.notes.length > 0 && (
        <ViewBoundary view="notes">
          <section className="card" aria-labelledby="shared-notes-title" data-testid="notes">
            <h2 id="shared-notes-title">{t('notes.title')}</h2>
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
    </div>
  );
}

const SHARED_ROW_H = 40;

/** The nodes as the link has them; selecting a row highlights it in the charts, nothing can be edited. */
function SharedNodeTable({ job, late }: { job: JobView; late: ReadonlySet<string> }) {
  const t = useT();
  const selected = useViewStore((s) => s.selectedNode);
  const selectNode = useViewStore((s) => s.selectNode);
  const viewport = useRef<HTMLDivElement>(null);
  const win = useVirtualList(job.nodes.length, SHARED_ROW_H, viewport);
  return (
    <section className="card" aria-labelledby="shared-nodes-title">
      <h2 id="shared-nodes-title">{t('nodes.title')}</h2>
      <ScrollBox className="table-scroll node-table-scroll" boxRef={viewport}>
        <table className="node-table shared-nodes" data-testid="node-table" aria-rowcount={job.nodes.length + 1}>
          <thead>
            <tr>
              <th scope="col">{t('nodes.col.node')}</th>
              <th scope="col">{t('nodes.col.groupRank')}</th>
              <th scope="col">{t('nodes.col.ranks')}</th>
              <th scope="col">{t('nodes.col.lag')}</th>
              <th scope="col">{t('nodes.col.failedIn')}</th>
            </tr>
          </thead>
          <tbody>
            {win.before > 0 && <tr className="node-spacer" style={{ height: win.before }} aria-hidden="true" />}
            {job.nodes.slice(win.first, win.last + 1).map((n, k) => (
              <tr
                key={n.id}
                className={`shared-row${late.has(n.id) ? ' is-late' : ''}${selected === n.id ? ' is-selected' : ''}`}
                aria-selected={selected === n.id}
                aria-rowindex={win.first + k + 2}
                data-node={n.id}
              >
                <th scope="row">
                  <button type="button" className="button--link shared-nodes__name" onClick={() => selectNode(n.id)}>
                    {n.id}
                  </button>
                  {n.hostname && n.hostname !== n.id && <span className="muted"> {n.hostname}</span>}
                  {n.isStoreHost && <span className="tag">{t('nodes.tag.host')}</span>}
                  {late.has(n.id) && <span className="tag tag--danger">{t('nodes.tag.late')}</span>}
                </th>
                <td>{n.groupRank ?? '—'}</td>
                <td>{rangesText(n.globalRanks)}</td>
                <td data-testid="lag">{n.lagSeconds === null ? '—' : `+${formatSeconds(t.lang, n.lagSeconds)}`}</td>
                <td>{n.failureStage ? t(`stage.short.${n.failureStage}`) : '—'}</td>
              </tr>
            ))}
            {win.after > 0 && <tr className="node-spacer" style={{ height: win.after }} aria-hidden="true" />}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}

function rangesText(ranks: number[]): string {
  if (ranks.length === 0) return '—';
  const out: string[] = [];
  let from = ranks[0]!;
  let prev = from;
  for (const r of [...ranks.slice(1), NaN]) {
    if (r === prev + 1) {
      prev = r;
      continue;
    }
    out.push(from === prev ? String(from) : `${from}–${prev}`);
    from = prev = r;
  }
  return out.join(', ');
}
