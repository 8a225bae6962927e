import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import {
  orderRows,
  rowMatches,
  type PlacedRow,
  type RowOrder,
  type ThresholdLine,
  type TimelineLane,
  type TimelineModel,
  type TimelineRow,
} from '../../core/timeline';
import { formatDuration, formatLimit, formatOffset, listSome, type Sentence } from '../../i18n/index';
import type { NodeView } from '../../ingest/index';
import { readItem, writeItem } from '../../state/prefs';
import { useViewStore } from '../../state/view';
import { attemptsByNode, type AttemptView } from '../attempts';
import { CoreText, useT, type T } from '../i18n';
import { limitLabel } from './labels';
import { Legend } from './Legend';
import { LaneRow, NodeRow, ReasonRow, twoLineNames, xOf, type Geometry, type RowActions } from './Rows';
import { measure as measureText } from './fitName';
import { fitView, formatClock, includeView, panView, spanView, ticks, zoomView, ZOOM_STEP, type View } from './scale';
import { ShortcutsSheet } from './ShortcutsSheet';
import { lineTip, type Tip } from './tips';
import { useVirtualRows } from './useVirtualRows';
import './timeline.css';

// The startup timeline: one row per node (and per rank, on request), its phases as bars, failures and exits as
// markers, the limits in force as vertical lines (the one that fired emphasised). Zoom and pan with the wheel,
// a drag, a pinch, the buttons or the keys; Shift + drag measures between two instants; rows are virtualised
// so a 1024-node job stays quick.

interface Props {
  /** Built where the job is (the job worker, or the page for a share link's small job). */
  model: TimelineModel;
  /** The key of the limit line that fired. */
  fired: string | null;
  /** The job's nodes: the attempts of those that restarted are drawn on their rows. */
  nodes?: readonly Pick<NodeView, 'id' | 'attempts'>[];
}

const NO_NODES: readonly Pick<NodeView, 'id' | 'attempts'>[] = [];

const ROW_H = 32;
const NAME_W = 190;
const NAME_MIN = 110;
const NAME_MAX = 480;
const NAME_KEY = 'skewscope.timelineNameWidth';
const VIEWPORT_MAX_H = 520;
/** Pointer this close (px) to an instant of the row under it snaps a measurement to that instant. */
const SNAP_PX = 7;
/** Label rows above the axis for the limit lines. */
const LABEL_LEVELS = 3;
const LABEL_H = 18;
/** The font of `.tl-axis__limit` (timeline.css), for measuring labels. */
const LABEL_FONT = "600 10.8px system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

type Unplaced = Extract<TimelineRow, { placed: false }>;
/** A row of the grid: a node, one of its lanes, or a row an opened reason of a node without a place runs on over. */
type Item =
  | { type: 'node'; row: TimelineRow }
  | { type: 'lane'; row: PlacedRow; lane: TimelineLane }
  | { type: 'reason'; row: Unplaced; band: number; last: boolean };

interface Measure {
  a: number;
  b: number;
  nodeA: string | null;
  nodeB: string | null;
}

const ORDERS: RowOrder[] = ['rank', 'lag', 'name'];

/** The filter's words as the core matches them: 迟到 is `late`, 主机 is `host`. */
const filterWords = (query: string) => query.replace(/迟到/g, ' late ').replace(/主机/g, ' host ');

const lineClass = (l: ThresholdLine) => `tl-line--${l.kind}`;

export const Timeline = memo(function Timeline({ model, fired, nodes = NO_NODES }: Props) {
  const attempts = useMemo(() => attemptsByNode(nodes), [nodes]);
  if (model.rows.length === 0) return null;
  // One view for every model of the job on screen: a model with more rows (the job of more files read, a
  // correction) keeps what the reader set — the order, the filter, the zoom, or the whole job if it showed that.
  return <TimelineView model={model} fired={fired} attempts={attempts} />;
});

const sameView = (a: View, b: View) => Math.abs(a.start - b.start) < 1e-6 && Math.abs(a.end - b.end) < 1e-6;

function storedNameWidth(): number {
  const n = Number(readItem(NAME_KEY));
  return Number.isFinite(n) && n >= NAME_MIN && n <= NAME_MAX ? n : NAME_W;
}

/** Plain words for what a limit's clock counts from (the core's own sentence is English). */
function clockText(t: T, model: TimelineModel, l: ThresholdLine): string {
  if (l.anchor === 'job')
    return model.originWhat === 'launch' && model.originNode
      ? t('timeline.clock.job', { node: model.originNode })
      : t('timeline.clock.noLaunch');
  const start = t(`timeline.clockStart.${l.clockStarts}`);
  return l.perNode.length ? t('timeline.clock.perNode', { start }) : t('timeline.clock.perNodeNone', { start });
}

/** Where a line sits (job clock ms): its job-wide instant, or the latest of its per-node ones. */
const lineAt = (l: ThresholdLine): number | null =>
  l.atMs ?? (l.perNode.length ? l.perNode.reduce((m, p) => Math.max(m, p.atMs), -Infinity) : null);
const lineFirstAt = (l: ThresholdLine): number | null =>
  l.atMs ?? (l.perNode.length ? l.perNode.reduce((m, p) => Math.min(m, p.atMs), Infinity) : null);

function TimelineView({
  model,
  fired,
  attempts,
}: {
  model: TimelineModel;
  fired: string | null;
  attempts: ReadonlyMap<string, readonly AttemptView[]>;
}) {
  const t = useT();
  const origin = model.originMs ?? 0;
  const rel = useCallback((ms: number) => (ms - origin) / 1000, [origin]);
  const [viewportW, setViewportW] = useState(790);
  const [nameW, setNameW] = useState(storedNameWidth);
  // The name column: at most 60 % of the grid (45 % on a phone), so the plot keeps room.
  const nameCol = Math.max(NAME_MIN, Math.min(nameW, Math.round(viewportW * (viewportW < 520 ? 0.45 : 0.6))));
  const width = Math.max(80, viewportW - nameCol);
  const fit = useMemo(
    () =>
      model.startMs !== null && model.endMs !== null ? fitView(rel(model.startMs), rel(model.endMs), width) : null,
    [model, rel, width],
  );
  const [view, setView] = useState<View>(() => {
    const z = useViewStore.getState().takePendingZoom();
    return z ? { start: z[0], end: z[1] } : (fit ?? { start: 0, end: 60 });
  });
  // The visible range, for a share link and the address bar (null while it is the whole job).
  useEffect(() => {
    const whole = fit !== null && Math.abs(view.start - fit.start) < 1e-6 && Math.abs(view.end - fit.end) < 1e-6;
    useViewStore.getState().setZoom(whole ? null : [view.start, view.end]);
  }, [view, fit]);
  const [order, setOrder] = useState<RowOrder>('rank');
  const [query, setQuery] = useState('');
  const [lanes, setLanes] = useState(false);
  const [tip, setTip] = useState<{ tip: Tip; x: number; y: number; below: boolean } | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [measure, setMeasure] = useState<Measure | null>(null);
  const [measureMode, setMeasureMode] = useState(false);
  const [keysOpen, setKeysOpen] = useState(false);
  // A new model: the whole job again if that is what was shown, else the same instants (the axis counts from the
  // earliest launch, which a node read later can move).
  const [shown, setShown] = useState({ fit, origin });
  if (shown.fit !== fit) {
    setShown({ fit, origin });
    const shift = (shown.origin - origin) / 1000;
    if (fit && (!shown.fit || sameView(view, shown.fit))) setView(fit);
    else if (shift !== 0) setView({ start: view.start + shift, end: view.end + shift });
    if (shift !== 0 && measure) setMeasure({ ...measure, a: measure.a + shift, b: measure.b + shift });
  }

  const selected = useViewStore((s) => s.selectedNode);
  const evidence = useViewStore((s) => s.evidence);

  const section = useRef<HTMLElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; view: View; active: boolean; id: number; measure: boolean } | null>(null);
  const touches = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ dist: number; mid: number; view: View } | null>(null);
  const justDragged = useRef(false);
  const pendingFocus = useRef<number | null>(null);

  // Nodes without a place whose reason the reader opened, and how many rows each reason takes written out whole.
  const [openReasons, setOpenReasons] = useState<ReadonlySet<string>>(() => new Set());
  const [reasonRows, setReasonRows] = useState<ReadonlyMap<string, number>>(() => new Map());

  const items = useMemo(() => {
    const out: Item[] = [];
    for (const row of orderRows(model.rows, order)) {
      if (!rowMatches(row, filterWords(query))) continue;
      out.push({ type: 'node', row });
      if (lanes && row.placed) for (const lane of row.lanes) out.push({ type: 'lane', row, lane });
      if (!row.placed && openReasons.has(row.node)) {
        const n = reasonRows.get(row.node) ?? 1;
        for (let band = 1; band < n; band++) out.push({ type: 'reason', row, band, last: band === n - 1 });
      }
    }
    return out;
  }, [model, order, query, lanes, openReasons, reasonRows]);
  const shownNodes = items.filter((i) => i.type === 'node').length;
  const placedCount = model.rows.filter((r) => r.placed).length;

  const range = useVirtualRows(items.length, ROW_H, viewport);

  // A new order or filter starts from the top of the list.
  useLayoutEffect(() => {
    viewport.current?.scrollTo({ top: 0 });
  }, [order, query]);

  // The grid's width (minus a scrollbar when there is one); the plot is what the name column leaves.
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measureW = () => setViewportW(Math.max(200, el.clientWidth));
    measureW();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measureW);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, []);

  const compact = useMemo(() => twoLineNames(t, model.rows, nameCol, attempts), [t, model.rows, nameCol, attempts]);
  const g = useMemo<Geometry>(
    () => ({ view, width, origin, endMs: model.endMs ?? origin, nameW: nameCol, compact }),
    [view, width, origin, model.endMs, nameCol, compact],
  );
  const span = view.end - view.start;
  const xAt = useCallback((s: number) => ((s - view.start) / span) * width, [view.start, span, width]);
  const sAt = useCallback((px: number) => view.start + (px / width) * span, [view.start, span, width]);

  /** The plot x (px) of a pointer, from the viewport's left edge and the name column. */
  const plotX = (clientX: number) => {
    const vp = viewport.current;
    return vp ? clientX - vp.getBoundingClientRect().left - nameCol : 0;
  };

  // Wheel: Ctrl/⌘ + wheel (or the wheel over the axis) zooms around the pointer; sideways or Shift + wheel pans.
  // A plain wheel over the rows scrolls them, so the page never gets stuck on the chart.
  useEffect(() => {
    const el = grid.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const vp = viewport.current;
      if (!vp) return;
      const rect = vp.getBoundingClientRect();
      const px = e.clientX - rect.left - nameCol;
      const w = Math.max(1, vp.clientWidth - nameCol);
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
  }, [nameCol]);

  const zoomBy = (f: number) => setView((v) => zoomView(v, f));
  const panBy = (fraction: number) => setView((v) => panView(v, fraction * (v.end - v.start)));
  const reset = () => fit && setView(fit);
  const zoomTo = useCallback(
    (startMs: number, endMs: number) => setView(spanView(rel(startMs), rel(Math.max(endMs, startMs + 20)))),
    [rel],
  );

  const zoomToNode = (node: string | null) => {
    const row = model.rows.find((r) => r.node === node);
    if (row?.placed) zoomTo(row.startMs, row.endMs);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (target.closest('input, select, textarea, [role="separator"]')) return;
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
      case 'z':
      case 'Z': {
        const at = target.closest<HTMLElement>('[data-row-index]');
        const it = at ? items[Number(at.dataset.rowIndex)] : undefined;
        zoomToNode(it?.row.node ?? selected);
        break;
      }
      case 'm':
      case 'M':
        setMeasureMode((v) => !v);
        break;
      case '?':
        setKeysOpen(true);
        break;
      case 'Escape':
        if (!tip && !measure) return;
        setTip(null);
        setMeasure(null);
        break;
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

  /** The instant under a pointer, snapped to a phase edge or a marker of the row under it when close. */
  const instantAt = (clientX: number, clientY: number): { s: number; node: string | null } => {
    const px = plotX(clientX);
    const vp = viewport.current;
    let node: string | null = null;
    let best: number | null = null;
    if (vp) {
      const index = Math.floor((clientY - vp.getBoundingClientRect().top + vp.scrollTop) / ROW_H);
      const it = items[index];
      if (it && it.row.placed) {
        node = it.row.node;
        const phases = it.type === 'lane' ? it.lane.phases : it.row.phases;
        const markers = it.type === 'lane' ? it.lane.markers : it.row.markers;
        // Where each of its attempts began, too: a measurement from one restart to the next.
        const begins = it.type === 'node' ? (attempts.get(node) ?? []).map((a) => a.startMs) : [];
        let bestD = SNAP_PX;
        const edges = [...phases.flatMap((p) => [p.startMs, p.endMs]), ...markers.map((m) => m.atMs)];
        for (const ms of [...edges, ...begins.filter((b): b is number => b !== null)]) {
          const d = Math.abs(xOf(g, ms) - px);
          if (d < bestD) {
            bestD = d;
            best = rel(ms);
          }
        }
      } else if (it) node = it.row.node;
    }
    return { s: best ?? sAt(px), node };
  };

  // Pointer: a drag pans (after a few pixels, so clicks on bars and markers still work); Shift + drag, or any
  // drag in measure mode, measures; two fingers pinch to zoom.
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'touch') {
      touches.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (touches.current.size === 2) {
        const [p, q] = [...touches.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
        pinch.current = {
          dist: Math.max(10, Math.hypot(p.x - q.x, p.y - q.y)),
          mid: (p.x + q.x) / 2,
          view,
        };
        drag.current = null;
        return;
      }
    }
    if (e.button !== 0 || !(e.target as Element).closest('.tl-row__plot, .tl-spacer')) return;
    const measuring = e.shiftKey || measureMode;
    drag.current = { x: e.clientX, view, active: false, id: e.pointerId, measure: measuring };
    if (measuring) {
      // Shift + press would otherwise start a text selection across the page.
      e.preventDefault();
      const at = instantAt(e.clientX, e.clientY);
      setMeasure({ a: at.s, b: at.s, nodeA: at.node, nodeB: at.node });
    }
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'touch' && touches.current.has(e.pointerId)) {
      touches.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const p0 = pinch.current;
      if (p0 && touches.current.size === 2) {
        const [p, q] = [...touches.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
        const dist = Math.max(10, Math.hypot(p.x - q.x, p.y - q.y));
        const mid = (p.x + q.x) / 2;
        const at = Math.min(1, Math.max(0, plotX(p0.mid) / width));
        const zoomed = zoomView(p0.view, dist / p0.dist, at);
        setView(panView(zoomed, (-(mid - p0.mid) / width) * (zoomed.end - zoomed.start)));
        justDragged.current = true;
        return;
      }
    }
    const d = drag.current;
    if (!d) {
      if (e.pointerType === 'mouse') {
        const px = plotX(e.clientX);
        setCursor(px >= 0 && px <= width ? px : null);
      }
      return;
    }
    const dx = e.clientX - d.x;
    if (!d.active && Math.abs(dx) > 4) {
      d.active = true;
      try {
        e.currentTarget.setPointerCapture(d.id);
      } catch {
        // A pointer the browser no longer tracks (it went away mid-gesture): the drag goes on without capture.
      }
      setTip(null);
    }
    if (!d.active) return;
    if (d.measure) {
      const at = instantAt(e.clientX, e.clientY);
      setMeasure((m) => (m ? { ...m, b: at.s, nodeB: at.node } : m));
      setCursor(null);
    } else setView(panView(d.view, (-dx / width) * (d.view.end - d.view.start)));
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    touches.current.delete(e.pointerId);
    if (touches.current.size < 2) pinch.current = null;
    const d = drag.current;
    drag.current = null;
    if (d?.active) {
      if (e.currentTarget.hasPointerCapture(d.id)) e.currentTarget.releasePointerCapture(d.id);
      justDragged.current = true;
    } else if (d?.measure) setMeasure(null);
    if (justDragged.current) setTimeout(() => (justDragged.current = false), 0);
  };

  // Esc clears a measurement wherever the focus is (a measuring drag does not move the focus).
  useEffect(() => {
    if (!measure) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && !document.querySelector('dialog[open]')) setMeasure(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [measure]);

  const actions = useMemo<RowActions>(
    () => ({
      tip: (target, next) => {
        const host = section.current;
        if (!target || !next || !host) return setTip(null);
        const r = target.getBoundingClientRect();
        const h = host.getBoundingClientRect();
        const below = r.top - h.top < 170;
        const half = Math.min(170, h.width / 2 - 4);
        setTip({
          tip: next,
          x: Math.min(Math.max(r.left + r.width / 2 - h.left, half), h.width - half),
          y: below ? r.bottom - h.top + 8 : r.top - h.top - 8,
          below,
        });
      },
      open: (node, ev) => {
        const store = useViewStore.getState();
        store.selectNode(node);
        store.openEvidence({ file: ev.file, line: ev.line });
      },
      select: (node) => useViewStore.getState().selectNode(node),
      zoomTo,
      dragging: () => justDragged.current,
      expandReason: (node) =>
        setOpenReasons((prev) => {
          const next = new Set(prev);
          if (!next.delete(node)) next.add(node);
          return next;
        }),
      reasonRows: (node, rows) =>
        setReasonRows((prev) => (prev.get(node) === rows ? prev : new Map(prev).set(node, rows))),
    }),
    [zoomTo],
  );

  // A node selected elsewhere (the node table, a finding) scrolls into view here.
  useEffect(() => {
    if (!selected) return;
    const i = items.findIndex((it) => it.type === 'node' && it.row.node === selected);
    if (i >= 0) range.reveal(i);
    // Only when the selection changes, not on every scroll or filter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);

  // The name column's edge: drag it, or focus it and use ← →; the width is remembered.
  const resize = useRef<{ x: number; w: number } | null>(null);
  const setName = (w: number) => {
    const next = Math.round(Math.max(NAME_MIN, Math.min(NAME_MAX, w)));
    setNameW(next);
    writeItem(NAME_KEY, String(next));
  };

  const jobLines = model.thresholds.filter((l) => l.anchor === 'job' && l.atMs !== null);
  const tickClass = useMemo(
    () => Object.fromEntries(model.thresholds.map((l) => [l.key, `tl-tick--${l.kind}`])),
    [model.thresholds],
  );
  const axis = ticks(view, width);

  // Labels of the lines in view, stacked on up to three levels so they do not overlap; the one that fired
  // goes first. A label runs rightwards from its line, leftwards near the right edge, and is moved inside the
  // axis where neither fits, so it is never cut off.
  const labels = useMemo(() => {
    const levels: [number, number][][] = Array.from({ length: LABEL_LEVELS }, () => []);
    const out: { l: ThresholdLine; left: number; level: number; side: 'left' | 'right' | 'free'; text: string }[] = [];
    const candidates = model.thresholds
      .map((l) => {
        const at = lineFirstAt(l);
        const text = `${limitLabel(t, l)}${l.anchor === 'node' ? ` ${t('timeline.perNode')}` : ''}`;
        return at === null ? null : { l, x: xAt(rel(at)), text };
      })
      .filter((c): c is { l: ThresholdLine; x: number; text: string } => c !== null && c.x >= 0 && c.x <= width)
      .sort((a, b) => Number(b.l.key === fired) - Number(a.l.key === fired) || a.x - b.x);
    for (const c of candidates) {
      const badge = c.l.key === fired ? measureText(t('timeline.fired'), LABEL_FONT) + 18 : 0;
      let w = Math.ceil(measureText(c.text, LABEL_FONT) + 14 + badge);
      // Too long for a narrow plot (a phone): the value alone, the chips above name it in full.
      if (w > width) {
        c.text = formatLimit(t.lang, c.l.seconds);
        w = Math.ceil(measureText(c.text, LABEL_FONT) + 14 + badge);
      }
      let side: 'left' | 'right' | 'free' = 'left';
      let from = c.x;
      if (c.x + w > width) {
        side = 'right';
        from = c.x - w;
      }
      if (from < 0) {
        side = 'free';
        from = Math.max(0, Math.min(width - w, c.x - w / 2));
      }
      const to = from + w;
      const level = levels.findIndex((taken) => taken.every(([a, b]) => to < a - 4 || from > b + 4));
      if (level < 0) continue;
      levels[level]!.push([from, to]);
      out.push({ l: c.l, left: from, level, side, text: c.text });
    }
    return out;
  }, [model.thresholds, xAt, rel, width, t, fired]);

  const unplaced = model.rows.filter((r): r is Extract<TimelineRow, { placed: false }> => !r.placed);
  // Nodes without a place, folded by why (a reason is a sentence without values: its key says it).
  const byReason = new Map<string, { reason: Sentence; nodes: string[] }>();
  for (const r of unplaced) {
    const same = byReason.get(r.reason.key);
    if (same) same.nodes.push(r.node);
    else byReason.set(r.reason.key, { reason: r.reason, nodes: [r.node] });
  }

  const originText =
    model.originWhat === 'launch'
      ? t('timeline.origin.launch', { node: model.originNode ?? '?', clock: formatClock(origin, true) })
      : model.originWhat === 'first-time'
        ? t('timeline.origin.first', { clock: formatClock(origin, true) })
        : null;

  const rendered: React.ReactNode[] = [];
  for (let i = range.first; i <= range.last; i++) {
    const it = items[i];
    if (!it) continue;
    if (it.type === 'node')
      rendered.push(
        <NodeRow
          key={`n:${it.row.node}`}
          t={t}
          row={it.row}
          index={i}
          top={i * ROW_H}
          selected={selected === it.row.node}
          g={g}
          actions={actions}
          tickClass={tickClass}
          attempts={attempts.get(it.row.node)}
          reason={
            it.row.placed ? undefined : { open: openReasons.has(it.row.node), rows: reasonRows.get(it.row.node) ?? 1 }
          }
        />,
      );
    else if (it.type === 'reason')
      rendered.push(
        <ReasonRow
          key={`r:${it.row.node}:${it.band}`}
          t={t}
          row={it.row}
          band={it.band}
          last={it.last}
          top={i * ROW_H}
          selected={selected === it.row.node}
          actions={actions}
        />,
      );
    else
      rendered.push(
        <LaneRow
          key={`l:${it.row.node}:${it.lane.label}`}
          t={t}
          row={it.row}
          lane={it.lane}
          index={i}
          top={i * ROW_H}
          g={g}
          actions={actions}
        />,
      );
  }

  const countText =
    shownNodes === model.rows.length
      ? t(model.rows.length === 1 ? 'timeline.countOne' : 'timeline.count', { n: model.rows.length })
      : t('timeline.countOf', { shown: shownNodes, total: model.rows.length });
  const labelRows = Math.max(1, ...labels.map((l) => l.level + 1));
  const measured = measure && Math.abs(measure.b - measure.a) > 1e-9 ? measure : null;
  // What is drawn over the rows at instants — the limits in force, a measurement, the cursor — is drawn over the
  // rows that have a place on the time axis only, in one layer per run of them among the rows rendered: a node
  // without a place says why in its row, and nothing is drawn over those words. The layers scroll with the rows.
  const drawnOver = (i: number) => {
    const it = items[i];
    return it !== undefined && (it.type === 'lane' || (it.type === 'node' && it.row.placed));
  };
  const layers: { from: number; to: number }[] = [];
  for (let i = range.first; i <= range.last; i++) {
    if (!drawnOver(i)) continue;
    const last = layers[layers.length - 1];
    if (last && last.to === i - 1) last.to = i;
    else layers.push({ from: i, to: i });
  }
  const overRows = layers.map(({ from, to }) => (
    <div
      key={from}
      className="tl-over"
      style={{ top: from * ROW_H, height: (to - from + 1) * ROW_H, left: nameCol, width }}
      aria-hidden="true"
      data-testid="timeline-over"
    >
      {jobLines.map((l) => {
        const px = xAt(rel(l.atMs!));
        return px < 0 || px > width ? null : (
          <span
            key={l.key}
            className={`tl-vline ${lineClass(l)}${l.key === fired ? ' is-fired' : ''}`}
            style={{ left: px }}
            data-testid="timeline-limit"
            data-seconds={l.seconds}
            data-label={limitLabel(t, l)}
          />
        );
      })}
      {measured && (
        <span
          className="tl-measure"
          style={{
            left: Math.max(0, xAt(Math.min(measured.a, measured.b))),
            width: Math.max(
              1,
              Math.min(width, xAt(Math.max(measured.a, measured.b))) -
                Math.max(0, xAt(Math.min(measured.a, measured.b))),
            ),
          }}
          data-testid="timeline-measure-band"
        />
      )}
      {cursor !== null && !measured && <span className="tl-cursor" style={{ left: cursor }} />}
    </div>
  ));

  const style = { '--tl-name-w': `${nameCol}px` } as CSSProperties;
  // Notes about nodes without a place are the block above, said with their nodes.
  const coreNotes = model.notes.filter((n) => !n.unplaced);

  return (
    <section ref={section} className="card tl" aria-labelledby="tl-title" data-testid="timeline" style={style}>
      <div className="tl__head">
        <h2 id="tl-title">{t('timeline.title')}</h2>
        {originText && <p className="tl__origin muted">{originText}</p>}
      </div>

      {unplaced.length > 0 && (
        <div className="tl__unplaced" role="note" data-testid="timeline-unplaced">
          <p>
            <strong>
              {unplaced.length === model.rows.length
                ? t('timeline.unplaced.all')
                : t('timeline.unplaced.some', { n: unplaced.length, total: model.rows.length })}
            </strong>{' '}
            {[...byReason].map(([key, { reason, nodes }]) => (
              <span key={key}>
                {listSome(t.lang, nodes)}
                {t('timeline.unplaced.sep')}
                <CoreText sentence={reason} />{' '}
              </span>
            ))}
          </p>
          <p>
            {t('timeline.unplaced.capture')} <code className="tl__command mono">{model.captureHint}</code>
          </p>
        </div>
      )}
      {coreNotes.map((n, i) => (
        <p key={i} className="tl__note muted">
          <CoreText sentence={n.sentence} />
        </p>
      ))}

      <div className="tl__toolbar" role="toolbar" aria-label={t('timeline.controls')} aria-controls="tl-grid">
        <div className="tl__group" role="group" aria-label={t('timeline.zoomPan')}>
          <button
            type="button"
            className="button button--small"
            onClick={() => zoomBy(1 / ZOOM_STEP)}
            aria-label={t('timeline.zoomOut')}
            title={t('timeline.zoomOut')}
            disabled={placedCount === 0}
          >
            −
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => zoomBy(ZOOM_STEP)}
            aria-label={t('timeline.zoomIn')}
            title={t('timeline.zoomIn')}
            disabled={placedCount === 0}
          >
            +
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => panBy(-0.2)}
            aria-label={t('timeline.panLeft')}
            title={t('timeline.panLeft')}
            disabled={placedCount === 0}
          >
            ←
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => panBy(0.2)}
            aria-label={t('timeline.panRight')}
            title={t('timeline.panRight')}
            disabled={placedCount === 0}
          >
            →
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={reset}
            aria-label={t('timeline.fitLabel')}
            title={t('timeline.fitLabel')}
            disabled={!fit}
          >
            {t('timeline.fit')}
          </button>
          <button
            type="button"
            className="button button--small"
            aria-pressed={measureMode}
            onClick={() => setMeasureMode((v) => !v)}
            title={t('timeline.measureHint')}
            disabled={placedCount === 0}
            data-testid="timeline-measure-mode"
          >
            {t('timeline.measure')}
          </button>
        </div>
        <label className="tl__field">
          <span>{t('timeline.sort')}</span>
          <select
            value={order}
            onChange={(e) => setOrder(e.target.value as RowOrder)}
            aria-label={t('timeline.sortLabel')}
            data-testid="timeline-sort"
          >
            {ORDERS.map((o) => (
              <option key={o} value={o}>
                {t(`timeline.order.${o}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="tl__field tl__filter">
          <span>{t('timeline.filter')}</span>
          <input
            type="search"
            value={query}
            placeholder={t('timeline.filterPlaceholder')}
            onChange={(e) => setQuery(e.target.value)}
            aria-label={t('timeline.filterLabel')}
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
            {t('timeline.ranks')}
          </button>
        )}
        <span className="tl__count muted" aria-live="polite" data-testid="timeline-count">
          {countText}
        </span>
        <button
          type="button"
          className="button button--small tl__keys"
          onClick={() => setKeysOpen(true)}
          aria-label={t('keys.open')}
          title={t('keys.open')}
          aria-haspopup="dialog"
          data-testid="timeline-keys"
        >
          ?
        </button>
      </div>

      {placedCount > 0 && (
        <>
          <Legend model={model} fired={fired !== null} attempts={attempts.size > 0} />
          <LimitChips
            t={t}
            model={model}
            fired={fired}
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
        className={`tl__grid${measureMode ? ' is-measuring' : ''}`}
        role="grid"
        aria-rowcount={items.length + 1}
        aria-colcount={2}
        aria-label={t('timeline.gridLabel')}
        onKeyDown={onKeyDown}
      >
        <div role="rowgroup" className="tl__header">
          <div role="row" aria-rowindex={1} className="tl__header-row">
            <div role="columnheader" className="tl__corner">
              {t('timeline.col.node')} <span className="muted">{t('timeline.col.lag')}</span>
              <div
                role="separator"
                aria-orientation="vertical"
                aria-label={t('timeline.resize')}
                aria-valuemin={NAME_MIN}
                aria-valuemax={NAME_MAX}
                aria-valuenow={nameCol}
                tabIndex={0}
                title={t('timeline.resize')}
                className="tl__resize"
                data-testid="timeline-resize"
                onPointerDown={(e) => {
                  resize.current = { x: e.clientX, w: nameCol };
                  e.currentTarget.setPointerCapture(e.pointerId);
                }}
                onPointerMove={(e) => {
                  if (resize.current) setName(resize.current.w + e.clientX - resize.current.x);
                }}
                onPointerUp={() => (resize.current = null)}
                onPointerCancel={() => (resize.current = null)}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
                    e.preventDefault();
                    setName(nameCol + (e.key === 'ArrowLeft' ? -16 : 16));
                  }
                }}
              />
            </div>
            <div
              role="columnheader"
              className="tl-axis"
              style={{ width, height: 26 + labelRows * LABEL_H }}
              aria-label={t('timeline.axis')}
            >
              <div className="tl-axis__labels" aria-hidden="true">
                {labels.map(({ l, left, level, side, text }) => (
                  <span
                    key={l.key}
                    className={`tl-axis__limit ${lineClass(l)}${l.key === fired ? ' is-fired' : ''} is-${side}`}
                    style={{ left, top: level * LABEL_H, maxWidth: width }}
                    data-testid="timeline-limit-label"
                    data-seconds={l.seconds}
                    data-fired={l.key === fired ? '' : undefined}
                    data-badge={l.key === fired ? t('timeline.fired') : undefined}
                  >
                    {text}
                  </span>
                ))}
              </div>
              {placedCount === 0 && <span className="tl-axis__none">{t('timeline.noAxis')}</span>}
              <div className="tl-axis__ticks" aria-hidden="true">
                {(placedCount ? axis.values : []).map((v) => {
                  const x = xAt(v);
                  // A tick at an edge is anchored inside the axis, not centred half out of it.
                  const edge = x < 28 ? ' is-start' : x > width - 28 ? ' is-end' : '';
                  return (
                    <span key={v} className={`tl-axis__tick${v === 0 ? ' is-zero' : ''}${edge}`} style={{ left: x }}>
                      {formatOffset(t.lang, v, axis.step)}
                    </span>
                  );
                })}
              </div>
              {cursor !== null && placedCount > 0 && (
                <span
                  className="tl-axis__cursor"
                  style={{ left: cursor }}
                  data-testid="timeline-cursor"
                  aria-hidden="true"
                >
                  {formatOffset(t.lang, sAt(cursor), Math.min(0.001, axis.step))}
                </span>
              )}
            </div>
          </div>
        </div>
        <div className="tl__body" onPointerLeave={() => setCursor(null)}>
          <div className="tl__underlay" style={{ left: nameCol, width }} aria-hidden="true">
            {(placedCount ? axis.values : []).map((v) => (
              <span key={v} className={`tl-grid-line${v === 0 ? ' is-zero' : ''}`} style={{ left: xAt(v) }} />
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
              {overRows}
            </div>
          </div>
          {items.length === 0 && <p className="tl__empty muted">{t('timeline.noMatch', { query })}</p>}
        </div>
      </div>
      {measured && (
        <MeasureBar
          t={t}
          m={measured}
          onZoom={() => setView(spanView(Math.min(measured.a, measured.b), Math.max(measured.a, measured.b), 0.1))}
          onClear={() => setMeasure(null)}
        />
      )}
      <p className="tl__hint muted" hidden={placedCount === 0}>
        {t('timeline.hint')}
      </p>
      <p className="tl__status" aria-live="polite" data-testid="timeline-status">
        {selected ? (
          <>
            {t('timeline.selected')} <strong>{selected}</strong>
            {evidence ? (
              <>
                {' · '}
                {t('timeline.evidence')} <span className="mono">{`${evidence.file}:${evidence.line}`}</span>
              </>
            ) : null}
            {model.rows.some((r) => r.node === selected && r.placed) && (
              <>
                {' '}
                <button type="button" className="button button--link" onClick={() => zoomToNode(selected)}>
                  {t('timeline.zoomNode', { node: selected })}
                </button>
              </>
            )}
          </>
        ) : null}
      </p>

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
          {tip.tip.note && (
            <span className="tl-tip__note">
              <CoreText sentence={tip.tip.note} />
            </span>
          )}
          {tip.tip.evidence && (
            <span className="tl-tip__ev">
              <span className="mono tl-tip__where">
                {tip.tip.evidence.file}:{tip.tip.evidence.line}
              </span>
              <code className="mono">{tip.tip.evidence.text}</code>
            </span>
          )}
          {tip.tip.more.map((m) => (
            <span key={m.label} className="tl-tip__more">
              {m.label}
              {m.code && (
                <>
                  {' '}
                  <code className="mono">{m.code}</code>
                </>
              )}
            </span>
          ))}
          {tip.tip.action && <span className="tl-tip__action">{tip.tip.action}</span>}
        </div>
      )}
      {keysOpen && <ShortcutsSheet onClose={() => setKeysOpen(false)} />}
    </section>
  );
}

function MeasureBar({ t, m, onZoom, onClear }: { t: T; m: Measure; onZoom(): void; onClear(): void }) {
  const start = Math.min(m.a, m.b);
  const end = Math.max(m.a, m.b);
  const first = m.a <= m.b ? m.nodeA : m.nodeB;
  const second = m.a <= m.b ? m.nodeB : m.nodeA;
  return (
    <p className="tl__measure" data-testid="timeline-measure" data-seconds={(end - start).toFixed(3)}>
      <strong>{t('timeline.measured', { span: formatDuration(t.lang, end - start) })}</strong>{' '}
      <span className="muted">
        {formatOffset(t.lang, start, 0.001)} → {formatOffset(t.lang, end, 0.001)}
        {first && second && first !== second ? ` · ${first} → ${second}` : first ? ` · ${first}` : ''}
      </span>{' '}
      <button type="button" className="button button--small" onClick={onZoom}>
        {t('timeline.zoomSpan')}
      </button>{' '}
      <button type="button" className="button button--small" onClick={onClear} aria-label={t('timeline.clearMeasure')}>
        ×
      </button>
    </p>
  );
}

function LimitChips({
  t,
  model,
  fired,
  view,
  rel,
  onShow,
  onTip,
}: {
  t: T;
  model: TimelineModel;
  fired: string | null;
  view: View;
  rel: (ms: number) => number;
  onShow: (s: number) => void;
  onTip: RowActions['tip'];
}) {
  // A limit with no place on this job's axis (no node reached the start of its clock) is not a chip: on a job
  // that died at startup, "exit barrier" would only be noise.
  const lines = model.thresholds.filter((l) => lineAt(l) !== null);
  if (lines.length === 0) return null;
  return (
    <ul className="tl__limits" aria-label={t('timeline.limits')} data-testid="timeline-limits">
      {lines.map((l) => {
        const s = rel(lineAt(l)!);
        const where = s > view.end ? 'after' : s < view.start ? 'before' : 'in';
        const label = limitLabel(t, l);
        const isFired = l.key === fired;
        const tipOf = () => lineTip(t, l, isFired, clockText(t, model, l));
        return (
          <li key={l.key}>
            <button
              type="button"
              className={`tl-chip ${lineClass(l)}${isFired ? ' is-fired' : ''}`}
              onClick={() => onShow(s)}
              onMouseEnter={(e) => onTip(e.currentTarget, tipOf())}
              onMouseLeave={() => onTip(null, null)}
              onFocus={(e) => onTip(e.currentTarget, tipOf())}
              onBlur={() => onTip(null, null)}
              aria-label={t('timeline.chip.label', {
                label,
                kind: t(isFired ? 'timeline.chip.fired' : `timeline.chip.${l.kind}`),
                clock: clockText(t, model, l),
                where: t(`timeline.chip.${where}`),
              })}
              data-testid="timeline-chip"
              data-fired={isFired ? '' : undefined}
            >
              <span className="tl-chip__swatch" aria-hidden="true" />
              {/* One run of text, so a chip that wraps on a phone reads on line by line. */}
              <span className="tl-chip__text">
                {label}
                {isFired && <span className="tl-chip__badge"> {t('timeline.fired')}</span>}
                {l.anchor === 'node' && (
                  <span className="tl-chip__sub">
                    {t.lang === 'zh' ? '' : ' '}
                    {t('timeline.perNode')}
                  </span>
                )}
                {where !== 'in' && <span className="tl-chip__sub"> · {t(`timeline.where.${where}`)}</span>}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
