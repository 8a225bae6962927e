import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { JobModel } from '../../core/model';
import type { Diagnosis } from '../../core/findings';
import { limitsInForce } from '../../core/thresholds';
import {
  buildTimeline,
  orderRows,
  rowMatches,
  type PlacedRow,
  type RowOrder,
  type ThresholdLine,
  type TimelineLane,
  type TimelineModel,
  type TimelineRow,
} from '../../core/timeline';
import { useViewStore } from '../../state/view';
import { useShareStore } from '../../state/share';
import { Legend } from './Legend';
import { LaneRow, NodeRow, type RowActions } from './Rows';
import {
  fitView,
  formatClock,
  formatOffset,
  includeView,
  panView,
  ticks,
  zoomView,
  ZOOM_STEP,
  type View,
} from './scale';
import { lineTip, type Tip } from './tips';
import { useVirtualRows } from './useVirtualRows';
import './timeline.css';

// The startup timeline: one row per node (and per rank, on request), its phases as bars, failures and exits as
// markers, the limits in force as vertical lines. Zoom and pan with the wheel, a drag, the buttons or the keys;
// rows are virtualised so a 1024-node job stays quick.

interface Props {
  job: JobModel;
  diagnosis: Diagnosis | null;
}

const ROW_H = 32;
const NAME_W = 190;
const VIEWPORT_MAX_H = 520;

type Item = { type: 'node'; row: TimelineRow } | { type: 'lane'; row: PlacedRow; lane: TimelineLane };

const ORDER_LABEL: Record<RowOrder, string> = { rank: 'Group rank', lag: 'Lag (latest first)', name: 'Name' };

const lineClass = (t: ThresholdLine) => `tl-line--${t.kind}`;

export function Timeline({ job, diagnosis }: Props) {
  const limits = useMemo(() => diagnosis?.thresholds ?? limitsInForce(job), [job, diagnosis]);
  const model = useMemo(() => buildTimeline(job, limits), [job, limits]);
  return <TimelineView key={modelKey(model)} model={model} />;
}

/** The range a shared diagnosis was zoomed to when its link was made. */
function sharedZoom(): View | null {
  const { snapshot, zoom } = useShareStore.getState();
  return snapshot && zoom ? { start: zoom[0], end: zoom[1] } : null;
}

const modelKey = (m: TimelineModel) => `${m.originMs}:${m.rows.length}:${m.startMs}:${m.endMs}`;

function TimelineView({ model }: { model: TimelineModel }) {
  const origin = model.originMs ?? 0;
  const rel = useCallback((ms: number) => (ms - origin) / 1000, [origin]);
  const fit = useMemo(
    () => (model.startMs !== null && model.endMs !== null ? fitView(rel(model.startMs), rel(model.endMs)) : null),
    [model, rel],
  );
  const [view, setView] = useState<View>(() => sharedZoom() ?? fit ?? { start: 0, end: 60 });
  // The visible range, for a share link to carry (null while it is the whole job).
  useEffect(() => {
    const whole = fit !== null && view.start === fit.start && view.end === fit.end;
    useShareStore.getState().setZoom(whole ? null : [view.start, view.end]);
  }, [view, fit]);
  const [order, setOrder] = useState<RowOrder>('rank');
  const [query, setQuery] = useState('');
  const [lanes, setLanes] = useState(false);
  const [tip, setTip] = useState<{ tip: Tip; x: number; y: number; below: boolean } | null>(null);
  const [width, setWidth] = useState(600);

  const selected = useViewStore((s) => s.selectedNode);
  const evidence = useViewStore((s) => s.evidence);

  const section = useRef<HTMLElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; view: View; active: boolean; id: number } | null>(null);
  const justDragged = useRef(false);
  const pendingFocus = useRef<number | null>(null);

  const items = useMemo(() => {
    const out: Item[] = [];
    for (const row of orderRows(model.rows, order)) {
      if (!rowMatches(row, query)) continue;
      out.push({ type: 'node', row });
      if (lanes && row.placed) for (const lane of row.lanes) out.push({ type: 'lane', row, lane });
    }
    return out;
  }, [model, order, query, lanes]);
  const shownNodes = items.filter((i) => i.type === 'node').length;
  const placedCount = model.rows.filter((r) => r.placed).length;

  const range = useVirtualRows(items.length, ROW_H, viewport);

  // A new order or filter starts from the top of the list.
  useLayoutEffect(() => {
    viewport.current?.scrollTo({ top: 0 });
  }, [order, query]);

  // The plot's width: the viewport minus the name column (and minus a scrollbar when there is one).
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(120, el.clientWidth - NAME_W));
    measure();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, []);

  const g = useMemo(() => ({ view, width, origin }), [view, width, origin]);
  const span = view.end - view.start;
  const xOf = useCallback((s: number) => ((s - view.start) / span) * width, [view.start, span, width]);

  // Wheel: Ctrl/⌘ + wheel (or the wheel over the axis) zooms around the pointer; sideways or Shift + wheel pans.
  // A plain wheel over the rows scrolls them, so the page never gets stuck on the chart.
  useEffect(() => {
    const el = grid.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const vp = viewport.current;
      if (!vp) return;
      const rect = vp.getBoundingClientRect();
      const px = e.clientX - rect.left - NAME_W;
      const w = Math.max(1, vp.clientWidth - NAME_W);
      const overAxis = (e.target as Element | null)?.closest?.('.tl-axis') != null;
      if (px < 0) return;
      if (e.ctrlKey || e.metaKey || (overAxis && !e.shiftKey && Math.abs(e.deltaY) >= Math.abs(e.deltaX))) {
        e.preventDefault();
        const factor = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0025));
        setView((v) => zoomView(v, factor, Math.min(1, Math.max(0, px / w))));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        const d = e.shiftKey && !e.deltaX ? e.deltaY : e.deltaX;
        setView((v) => panView(v, (d / w) * (v.end - v.start)));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const zoomBy = (f: number) => setView((v) => zoomView(v, f));
  const panBy = (fraction: number) => setView((v) => panView(v, fraction * (v.end - v.start)));
  const reset = () => fit && setView(fit);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (target.closest('input, select, textarea')) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case '+':
      case '=':
        zoomBy(ZOOM_STEP);
        break;
      case '-':
      case '_':
        zoomBy(1 / ZOOM_STEP);
        break;
      case '0':
        reset();
        break;
      case 'ArrowLeft':
        panBy(-0.2);
        break;
      case 'ArrowRight':
        panBy(0.2);
        break;
      case 'Escape':
        setTip(null);
        return;
      case 'ArrowUp':
      case 'ArrowDown':
      case 'Home':
      case 'End': {
        const at = target.closest<HTMLElement>('[data-row-index]');
        if (!at) return;
        const index = Number(at.dataset.rowIndex);
        const nodeIdx = items.map((it, i) => (it.type === 'node' ? i : -1)).filter((i) => i >= 0);
        const next =
          e.key === 'Home'
            ? nodeIdx[0]
            : e.key === 'End'
              ? nodeIdx.at(-1)
              : e.key === 'ArrowUp'
                ? nodeIdx.filter((i) => i < index).at(-1)
                : nodeIdx.find((i) => i > index);
        if (next === undefined) return;
        pendingFocus.current = next;
        range.reveal(next);
        focusPending();
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  };

  const focusPending = () => {
    requestAnimationFrame(() => {
      const i = pendingFocus.current;
      if (i === null) return;
      const el = viewport.current?.querySelector<HTMLElement>(`[data-row-index="${i}"] .tl-row__name`);
      if (el) {
        el.focus();
        pendingFocus.current = null;
      } else requestAnimationFrame(focusPending);
    });
  };

  // Drag to pan. The drag starts after a few pixels, so clicks on bars and markers still work.
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || !(e.target as Element).closest('.tl-row__plot, .tl-spacer')) return;
    drag.current = { x: e.clientX, view, active: false, id: e.pointerId };
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    if (!d.active && Math.abs(dx) > 4) {
      d.active = true;
      e.currentTarget.setPointerCapture(d.id);
      setTip(null);
    }
    if (d.active) setView(panView(d.view, (-dx / width) * (d.view.end - d.view.start)));
  };
  const onPointerUp = (e: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d?.active) {
      if (e.currentTarget.hasPointerCapture(d.id)) e.currentTarget.releasePointerCapture(d.id);
      justDragged.current = true;
      setTimeout(() => (justDragged.current = false), 0);
    }
  };

  const actions = useMemo<RowActions>(
    () => ({
      tip: (target, t) => {
        const host = section.current;
        if (!target || !t || !host) return setTip(null);
        const r = target.getBoundingClientRect();
        const h = host.getBoundingClientRect();
        const below = r.top - h.top < 170;
        setTip({
          tip: t,
          x: Math.min(Math.max(r.left + r.width / 2 - h.left, 170), h.width - 170),
          y: below ? r.bottom - h.top + 8 : r.top - h.top - 8,
          below,
        });
      },
      open: (node, ev) => {
        const view = useViewStore.getState();
        view.selectNode(node);
        view.openEvidence({ file: ev.file, line: ev.line });
      },
      select: (node) => useViewStore.getState().selectNode(node),
      dragging: () => justDragged.current,
    }),
    [],
  );

  // A node selected elsewhere (the node table, a finding) scrolls into view here.
  useEffect(() => {
    if (!selected) return;
    const i = items.findIndex((it) => it.type === 'node' && it.row.node === selected);
    if (i >= 0) range.reveal(i);
    // Only when the selection changes, not on every scroll or filter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);

  const jobLines = model.thresholds.filter((t) => t.anchor === 'job' && t.atMs !== null);
  const tickClass = useMemo(
    () => Object.fromEntries(model.thresholds.map((t) => [t.key, `tl-tick--${t.kind}`])),
    [model.thresholds],
  );
  const axis = ticks(view, width);

  // Labels of the lines in view, stacked on up to three levels so they do not overlap.
  const labels = useMemo(() => {
    const levels: number[] = [];
    const out: { t: ThresholdLine; x: number; level: number; perNode: boolean }[] = [];
    const candidates = model.thresholds
      .map((t) => {
        const at = t.atMs ?? (t.perNode.length ? Math.min(...t.perNode.map((p) => p.atMs)) : null);
        return at === null ? null : { t, x: xOf(rel(at)), perNode: t.anchor === 'node' };
      })
      .filter((c): c is { t: ThresholdLine; x: number; perNode: boolean } => c !== null && c.x >= 0 && c.x <= width)
      .sort((a, b) => a.x - b.x);
    for (const c of candidates) {
      const w = (c.t.label.length + (c.perNode ? 11 : 0)) * 6.4 + 14;
      let level = levels.findIndex((end) => end < c.x - 4);
      if (level < 0) level = levels.length;
      if (level > 2) continue;
      levels[level] = c.x + w;
      out.push({ ...c, level });
    }
    return out;
  }, [model.thresholds, xOf, rel, width]);

  const unplaced = model.rows.filter((r): r is Extract<TimelineRow, { placed: false }> => !r.placed);
  const byReason = new Map<string, string[]>();
  for (const r of unplaced) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), r.node]);

  const originText =
    model.originWhat === 'launch'
      ? `Seconds after ${model.originNode}'s launch, the earliest (${formatClock(origin, true)}).`
      : model.originWhat === 'first-time'
        ? `No launch time is known: seconds after the earliest time seen (${formatClock(origin, true)}).`
        : null;

  const rendered: React.ReactNode[] = [];
  for (let i = range.first; i <= range.last; i++) {
    const it = items[i];
    if (!it) continue;
    if (it.type === 'node')
      rendered.push(
        <NodeRow
          key={`n:${it.row.node}`}
          row={it.row}
          index={i}
          top={i * ROW_H}
          selected={selected === it.row.node}
          g={g}
          actions={actions}
          tickClass={tickClass}
        />,
      );
    else
      rendered.push(
        <LaneRow
          key={`l:${it.row.node}:${it.lane.label}`}
          row={it.row}
          lane={it.lane}
          index={i}
          top={i * ROW_H}
          g={g}
          actions={actions}
        />,
      );
  }

  return (
    <section ref={section} className="card tl" aria-labelledby="tl-title" data-testid="timeline">
      <div className="tl__head">
        <h2 id="tl-title">Startup timeline</h2>
        {originText && <p className="tl__origin muted">{originText}</p>}
      </div>

      {unplaced.length > 0 && (
        <div className="tl__unplaced" role="note" data-testid="timeline-unplaced">
          <p>
            <strong>
              {unplaced.length === model.rows.length
                ? 'No node can be placed on the time axis.'
                : `${unplaced.length} of ${model.rows.length} nodes cannot be placed on the time axis.`}
            </strong>{' '}
            {[...byReason].map(([reason, nodes]) => (
              <span key={reason}>
                {listNodes(nodes)}: {reason}{' '}
              </span>
            ))}
          </p>
          <p>
            To get times next time, capture the logs like this:{' '}
            <code className="tl__command mono">{model.captureHint}</code>
          </p>
        </div>
      )}
      {model.notes
        .filter((n) => !/cannot be placed|No node can be placed/.test(n))
        .map((n) => (
          <p key={n} className="tl__note muted">
            {n}
          </p>
        ))}

      {model.rows.length === 0 ? (
        <p className="muted">No node was found in these logs, so there is nothing to draw.</p>
      ) : (
        <>
          <div className="tl__toolbar" role="toolbar" aria-label="Timeline controls" aria-controls="tl-grid">
            <div className="tl__group" role="group" aria-label="Zoom and pan">
              <button
                type="button"
                className="button button--small"
                onClick={() => zoomBy(1 / ZOOM_STEP)}
                aria-label="Zoom out (−)"
                disabled={placedCount === 0}
              >
                −
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={() => zoomBy(ZOOM_STEP)}
                aria-label="Zoom in (+)"
                disabled={placedCount === 0}
              >
                +
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={() => panBy(-0.2)}
                aria-label="Pan left (←)"
                disabled={placedCount === 0}
              >
                ←
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={() => panBy(0.2)}
                aria-label="Pan right (→)"
                disabled={placedCount === 0}
              >
                →
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={reset}
                aria-label="Fit all (0)"
                disabled={!fit}
              >
                Fit
              </button>
            </div>
            <label className="tl__field">
              <span>Sort</span>
              <select
                value={order}
                onChange={(e) => setOrder(e.target.value as RowOrder)}
                aria-label="Sort rows by"
                data-testid="timeline-sort"
              >
                {(Object.keys(ORDER_LABEL) as RowOrder[]).map((o) => (
                  <option key={o} value={o}>
                    {ORDER_LABEL[o]}
                  </option>
                ))}
              </select>
            </label>
            <label className="tl__field tl__filter">
              <span>Filter</span>
              <input
                type="search"
                value={query}
                placeholder="node, host, rank 3, late…"
                onChange={(e) => setQuery(e.target.value)}
                aria-label="Filter nodes"
                data-testid="timeline-filter"
              />
            </label>
            {model.hasLanes && (
              <button
                type="button"
                className="button button--small"
                aria-pressed={lanes}
                onClick={() => setLanes((v) => !v)}
              >
                Ranks
              </button>
            )}
            <span className="tl__count muted" aria-live="polite" data-testid="timeline-count">
              {shownNodes === model.rows.length
                ? `${model.rows.length} node${model.rows.length === 1 ? '' : 's'}`
                : `${shownNodes} of ${model.rows.length} nodes`}
            </span>
          </div>

          {placedCount > 0 && (
            <>
              <Legend model={model} />
              <LimitChips
                lines={model.thresholds}
                view={view}
                rel={rel}
                onShow={(s) => setView((v) => includeView(v, s))}
                onTip={actions.tip}
              />
            </>
          )}

          <div
            ref={grid}
            id="tl-grid"
            className="tl__grid"
            role="grid"
            aria-rowcount={items.length + 1}
            aria-colcount={2}
            aria-label="Startup timeline, one row per node. Keys: + and − zoom, ← and → pan, 0 fits, ↑ and ↓ move between nodes."
            onKeyDown={onKeyDown}
          >
            <div role="rowgroup" className="tl__header">
              <div role="row" aria-rowindex={1} className="tl__header-row">
                <div role="columnheader" className="tl__corner">
                  Node <span className="muted">lag</span>
                </div>
                <div
                  role="columnheader"
                  className="tl-axis"
                  style={{ width, height: 26 + Math.max(1, ...labels.map((l) => l.level + 1)) * 18 }}
                  aria-label="Time axis"
                >
                  <div className="tl-axis__labels" aria-hidden="true">
                    {labels.map(({ t, x, level, perNode }) => (
                      <span
                        key={t.key}
                        className={`tl-axis__limit ${lineClass(t)}`}
                        style={{ left: x, top: level * 18 }}
                        data-testid="timeline-limit-label"
                        data-seconds={t.seconds}
                      >
                        {t.label}
                        {perNode ? ' (per node)' : ''}
                      </span>
                    ))}
                  </div>
                  {placedCount === 0 && <span className="tl-axis__none">No time axis: no node has a time</span>}
                  <div className="tl-axis__ticks" aria-hidden="true">
                    {(placedCount ? axis.values : []).map((v) => (
                      <span key={v} className={`tl-axis__tick${v === 0 ? ' is-zero' : ''}`} style={{ left: xOf(v) }}>
                        {formatOffset(v, axis.step)}
                      </span>
                    ))}
                  </div>
                </div>
              </div>
            </div>
            <div className="tl__body">
              <div className="tl__underlay" style={{ left: NAME_W, width }} aria-hidden="true">
                {(placedCount ? axis.values : []).map((v) => (
                  <span key={v} className={`tl-grid-line${v === 0 ? ' is-zero' : ''}`} style={{ left: xOf(v) }} />
                ))}
              </div>
              <div
                ref={viewport}
                className="tl__viewport"
                role="rowgroup"
                style={{ maxHeight: VIEWPORT_MAX_H, height: Math.min(VIEWPORT_MAX_H, items.length * ROW_H + 2) }}
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
              >
                <div className="tl-spacer" style={{ height: range.totalHeight }}>
                  {rendered}
                </div>
              </div>
              <div className="tl__overlay" style={{ left: NAME_W, width }} aria-hidden="true">
                {jobLines.map((t) => {
                  const px = xOf(rel(t.atMs!));
                  return px < 0 || px > width ? null : (
                    <span
                      key={t.key}
                      className={`tl-vline ${lineClass(t)}`}
                      style={{ left: px }}
                      data-testid="timeline-limit"
                      data-seconds={t.seconds}
                      data-label={t.label}
                    />
                  );
                })}
              </div>
              {items.length === 0 && <p className="tl__empty muted">No node matches “{query}”.</p>}
            </div>
          </div>
          <p className="tl__hint muted" hidden={placedCount === 0}>
            Drag to pan · Ctrl + wheel (or the wheel over the axis) to zoom · keys + − ← → 0 · click a bar or marker to
            open its log line.
          </p>
          <p className="tl__status" aria-live="polite" data-testid="timeline-status">
            {selected ? (
              <>
                Selected <strong>{selected}</strong>
                {evidence ? (
                  <>
                    {' '}
                    · evidence <span className="mono">{`${evidence.file}:${evidence.line}`}</span>
                  </>
                ) : null}
              </>
            ) : null}
          </p>
        </>
      )}

      {tip && (
        <div
          className={`tl-tip${tip.below ? ' tl-tip--below' : ''}`}
          role="tooltip"
          style={{ left: tip.x, top: tip.y }}
          data-testid="timeline-tooltip"
        >
          <strong className="tl-tip__title">{tip.tip.title}</strong>
          {tip.tip.lines.map((l) => (
            <span key={l} className="tl-tip__line">
              {l}
            </span>
          ))}
          {tip.tip.note && <span className="tl-tip__note">{tip.tip.note}</span>}
          {tip.tip.evidence && (
            <span className="tl-tip__ev">
              <span className="mono tl-tip__where">
                {tip.tip.evidence.file}:{tip.tip.evidence.line}
              </span>
              <code className="mono">{tip.tip.evidence.text}</code>
            </span>
          )}
          {tip.tip.more.map((m) => (
            <span key={m} className="tl-tip__more">
              {m}
            </span>
          ))}
          {tip.tip.action && <span className="tl-tip__action">{tip.tip.action}</span>}
        </div>
      )}
    </section>
  );
}

function listNodes(nodes: string[]): string {
  if (nodes.length <= 4) return nodes.join(', ');
  return `${nodes.slice(0, 3).join(', ')} and ${nodes.length - 3} more`;
}

function LimitChips({
  lines,
  view,
  rel,
  onShow,
  onTip,
}: {
  lines: ThresholdLine[];
  view: View;
  rel: (ms: number) => number;
  onShow: (s: number) => void;
  onTip: RowActions['tip'];
}) {
  return (
    <ul className="tl__limits" aria-label="Limits on the time axis" data-testid="timeline-limits">
      {lines.map((t) => {
        const at = t.atMs ?? (t.perNode.length ? Math.max(...t.perNode.map((p) => p.atMs)) : null);
        const s = at === null ? null : rel(at);
        const where =
          s === null
            ? t.anchor === 'node'
              ? 'no node reached its start'
              : 'no launch time'
            : s > view.end
              ? 'beyond the view →'
              : s < view.start
                ? '← before the view'
                : 'in view';
        return (
          <li key={t.key}>
            <button
              type="button"
              className={`tl-chip ${lineClass(t)}${s === null ? ' is-off' : ''}`}
              disabled={s === null}
              onClick={() => s !== null && onShow(s)}
              onMouseEnter={(e) => onTip(e.currentTarget, lineTip(t))}
              onMouseLeave={() => onTip(null, null)}
              onFocus={(e) => onTip(e.currentTarget, lineTip(t))}
              onBlur={() => onTip(null, null)}
              aria-label={`${t.label}, ${t.kind === 'limit' ? 'limit in force' : t.kind}, ${t.anchorText}; ${where}${s !== null && where !== 'in view' ? '. Show it' : ''}`}
            >
              <span className="tl-chip__swatch" aria-hidden="true" />
              {t.label}
              {t.anchor === 'node' && <span className="tl-chip__sub"> per node</span>}
              {where !== 'in view' && <span className="tl-chip__sub"> · {where}</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
