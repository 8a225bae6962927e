// A diagnosis opened from a share link: the same views as an analysis, restored from the link in the reader's
// language, read-only (no corrections, no log viewer: evidence shows the text the link carries).
import { useMemo } from 'react';
import type { JobModel } from '../../core/model';
import { markdownReport, restore, type ShareSnapshot } from '../../share/index';
import { useAppStore, useSavedStore, useViewStore } from '../../state/index';
import { useShareStore } from '../../state/share';
import { formatSeconds } from '../../i18n/index';
import { EvidenceList } from '../EvidenceList';
import { FindingsPanel } from '../FindingsPanel';
import { SkewChart } from '../LazySkewChart';
import { Timeline } from '../timeline/Timeline';
import { VerdictHeader } from '../VerdictHeader';
import { WhatIfSlider, hasWhatIf } from '../WhatIfSlider';
import { AnalysisText, useT } from '../i18n';
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
  // Re-restored on a language switch: titles, details and advice are written by this page, not the link.
  const { job, diagnosis } = useMemo(() => restore(snapshot, lang), [snapshot, lang]);
  const markdown = () =>
    markdownReport(job, diagnosis, lang, {
      title: snapshot.title,
      app: snapshot.app,
      omitted: snapshot.omitted,
      link: location.href,
    });

  return (
    <div className="results" data-testid="shared-view" data-origin={origin}>
      {origin === 'saved' ? (
        <SavedBanner snapshot={snapshot} onForget={forget} />
      ) : (
        <SharedBanner snapshot={snapshot} onLeave={leave} />
      )}
      <VerdictHeader job={job} />
      <Exports job={job} diagnosis={diagnosis} markdown={markdown} />
      <FindingsPanel diagnosis={diagnosis} />
      <Timeline job={job} diagnosis={diagnosis} />
      {job.nodes.some((n) => n.lagSeconds !== null) && <SkewChart job={job} diagnosis={diagnosis} />}
      {hasWhatIf(job) && <WhatIfSlider job={job} diagnosis={diagnosis} />}
      <SharedNodeTable job={job} />
      <EvidenceList evidence={job.failure?.evidence ?? []} />
      {job.notes.length > 0 && (
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
      )}
    </div>
  );
}

/** The nodes as the link has them; selecting a row highlights it in the charts, nothing can be edited. */
function SharedNodeTable({ job }: { job: JobModel }) {
  const t = useT();
  const selected = useViewStore((s) => s.selectedNode);
  const selectNode = useViewStore((s) => s.selectNode);
  const late = new Set(job.failure?.lateNodes ?? []);
  return (
    <section className="card" aria-labelledby="shared-nodes-title">
      <h2 id="shared-nodes-title">{t('nodes.title')}</h2>
      <div className="table-scroll">
        <table className="node-table shared-nodes" data-testid="node-table">
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
            {job.nodes.map((n) => (
              <tr
                key={n.id}
                className={`${late.has(n.id) ? 'is-late' : ''}${selected === n.id ? ' is-selected' : ''}`}
                aria-selected={selected === n.id}
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
          </tbody>
        </table>
      </div>
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
