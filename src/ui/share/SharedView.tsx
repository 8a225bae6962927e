// A diagnosis opened from a share link: the same views as an analysis, restored from the link in the reader's
// language, read-only (no corrections, no log viewer: evidence shows the text the link carries).
import { useMemo } from 'react';
import type { JobModel } from '../../core/model';
import { markdownReport, restore, type ShareSnapshot } from '../../share/index';
import { noteText } from '../../core/notesText';
import { useAppStore, useViewStore } from '../../state/index';
import { useShareStore } from '../../state/share';
import { EvidenceList } from '../EvidenceList';
import { FindingsPanel } from '../FindingsPanel';
import { formatSeconds } from '../format';
import { SkewChart } from '../LazySkewChart';
import { Timeline } from '../timeline/Timeline';
import { VerdictHeader } from '../VerdictHeader';
import { WhatIfSlider } from '../WhatIfSlider';
import { STAGE_SHORT } from '../words';
import { Exports } from './Exports';
import { SharedBanner } from './SharedBanner';
import './share.css';

export function SharedView({ snapshot }: { snapshot: ShareSnapshot }) {
  const lang = useAppStore((s) => s.lang);
  const leave = useShareStore((s) => s.leave);
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
    <div className="results" data-testid="shared-view">
      <SharedBanner snapshot={snapshot} onLeave={leave} />
      <VerdictHeader job={job} />
      <Exports job={job} diagnosis={diagnosis} markdown={markdown} />
      <FindingsPanel diagnosis={diagnosis} lang={lang} />
      <Timeline job={job} diagnosis={diagnosis} />
      <SkewChart job={job} diagnosis={diagnosis} />
      <WhatIfSlider job={job} diagnosis={diagnosis} />
      <SharedNodeTable job={job} />
      <EvidenceList evidence={job.failure?.evidence ?? []} />
      {job.notes.length > 0 && (
        <section className="card" aria-labelledby="shared-notes-title">
          <h2 id="shared-notes-title">Notes on this analysis</h2>
          <ul className="notes">
            {job.notes.map((note, i) => (
              <li key={i}>{noteText(lang, note)}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The nodes as the link has them; selecting a row highlights it in the charts, nothing can be edited. */
function SharedNodeTable({ job }: { job: JobModel }) {
  const selected = useViewStore((s) => s.selectedNode);
  const selectNode = useViewStore((s) => s.selectNode);
  const late = new Set(job.failure?.lateNodes ?? []);
  return (
    <section className="card" aria-labelledby="shared-nodes-title">
      <h2 id="shared-nodes-title">Nodes</h2>
      <div className="table-scroll">
        <table className="node-table shared-nodes" data-testid="node-table">
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Group rank</th>
              <th scope="col">Global ranks</th>
              <th scope="col">Lag</th>
              <th scope="col">Failed in</th>
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
                  {n.isStoreHost && <span className="tag">store host</span>}
                  {late.has(n.id) && <span className="tag tag--danger">late</span>}
                </th>
                <td>{n.groupRank ?? '—'}</td>
                <td>{rangesText(n.globalRanks)}</td>
                <td data-testid="lag">{n.lagSeconds === null ? '—' : `+${formatSeconds(n.lagSeconds)}`}</td>
                <td>{n.failureStage ? STAGE_SHORT[n.failureStage] : '—'}</td>
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
