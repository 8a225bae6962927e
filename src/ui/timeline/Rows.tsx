import { memo, useLayoutEffect, useRef, type FocusEvent, type MouseEvent } from 'react';
import type { PlacedRow, TimelineLane, TimelineMarker, TimelinePhase, TimelineRow } from '../../core/timeline';
import { formatDuration, formatOffset } from '../../i18n/index';
import { attemptBands, type AttemptBand, type AttemptView } from '../attempts';
import { CoreText, type T } from '../i18n';
import { fitName, measure } from './fitName';
import { laneName, limitLabel, rowGaps, WAITING } from './labels';
import type { View } from './scale';
import {
  attemptEndWords,
  attemptTip,
  markerTip,
  markerTitle,
  openTip,
  phaseEndWords,
  phaseTip,
  type Tip,
} from './tips';

// One row of the timeline: the node's name, then its phases as bars, its per-node limit ticks and its markers
// (folded into one when they would overlap). A lane row shows one rank of a node the same way.

export interface RowActions {
  /** Show the tooltip for an element (hover or focus); null hides it. */
  tip(target: HTMLElement | null, tip: Tip | null): void;
  /** Open the evidence line and select the node. */
  open(node: string, evidence: { file: string; line: number }): void;
  select(node: string): void;
  /** Show `startMs`…`endMs` (job-clock ms) across the plot. */
  zoomTo(startMs: number, endMs: number): void;
  /** True right after a drag: the click that ends it must not open anything. */
  dragging(): boolean;
  /** Open or fold the whole reason of a node without a place (it then runs on over rows of its own). */
  expandReason(node: string): void;
  /** How many rows an unplaced node's reason takes, written out whole (1: it fits its own row). */
  reasonRows(node: string, rows: number): void;
}

export interface Geometry {
  view: View;
  width: number;
  origin: number;
  /** Where everything placed ends: open "log ends here" bars are drawn up to it. */
  endMs: number;
  /** Width of the name column, px. */
  nameW: number;
  /** Names on their own line, the lag and the tags under them (see twoLineNames). */
  compact: boolean;
}

const PRIORITY: Record<TimelineMarker['kind'], number> = {
  failure: 0,
  error: 1,
  restart: 2,
  exit: 3,
  ready: 4,
  launch: 5,
};

/** The fonts of `.tl-row__label`, `.tl-row__lag` and `.tl-tag` (timeline.css), for measuring. */
const FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const NAME_FONT = `600 12.75px ${FAMILY}`;
const LAG_FONT = `11.1px ${FAMILY}`;
const TAG_FONT = `700 9.9px ${FAMILY}`;
const tagWidth = (text: string) => measure(text, TAG_FONT) + 16;

/** The restarts tag of a node that restarted: torchrun's restart_count at its last attempt. */
const attemptsTag = (t: T, attempts: readonly AttemptView[] | undefined) =>
  attempts?.length ? t('timeline.tag.attempts', { n: attempts.at(-1)!.index }) : null;

/** Room for a name on one line: the column minus its padding, the lag, the tags and the zoom button. */
function oneLineRoom(
  t: T,
  row: TimelineRow,
  nameW: number,
  lagLabel: string,
  info: boolean,
  attempts: string | null,
): number {
  const tags =
    (row.isLate ? tagWidth(t('timeline.tag.late')) : 0) +
    (row.isStoreHost ? tagWidth(t('timeline.tag.host')) : 0) +
    (attempts ? tagWidth(attempts) : 0);
  // 24: the row's own button beside the name (zoom to it, or open its whole reason when it has no place).
  return nameW - 30 - measure(lagLabel, LAG_FONT) - tags - 24 - (info ? 18 : 0);
}

/**
 * Whether the names need the two-line layout (the lag and the tags under the name): when some name does not fit
 * on one line next to them. All rows then take it, so the column reads alike.
 */
export function twoLineNames(
  t: T,
  rows: TimelineRow[],
  nameW: number,
  attempts: ReadonlyMap<string, readonly AttemptView[]>,
): boolean {
  return rows.some(
    (row) =>
      measure(row.node, NAME_FONT) >
      oneLineRoom(
        t,
        row,
        nameW,
        lagText(t, row.lagSeconds),
        rowGaps(t, row).length > 0,
        attemptsTag(t, attempts.get(row.node)),
      ),
  );
}

export const xOf = (g: Geometry, ms: number) =>
  (((ms - g.origin) / 1000 - g.view.start) / (g.view.end - g.view.start)) * g.width;

/** Markers closer than `gap` px fold into one button; the most important one leads. */
function cluster(markers: TimelineMarker[], g: Geometry, gap = 9): { at: number; group: TimelineMarker[] }[] {
  const out: { at: number; group: TimelineMarker[] }[] = [];
  for (const m of markers) {
    const px = xOf(g, m.atMs);
    if (px < -8 || px > g.width + 8) continue;
    const last = out.at(-1);
    if (last && px - last.at < gap) last.group.push(m);
    else out.push({ at: px, group: [m] });
  }
  for (const c of out)
    c.group.sort((a, b) => Number(b.own) - Number(a.own) || PRIORITY[a.kind] - PRIORITY[b.kind] || a.atMs - b.atMs);
  return out;
}

function handlers(actions: RowActions, tip: () => Tip) {
  return {
    onMouseEnter: (e: MouseEvent<HTMLElement>) => actions.tip(e.currentTarget, tip()),
    onMouseLeave: () => actions.tip(null, null),
    onFocus: (e: FocusEvent<HTMLElement>) => actions.tip(e.currentTarget, tip()),
    onBlur: () => actions.tip(null, null),
  };
}

/** A bar's duration label needs this much room, and no marker on it. */
const TEXT_PX = 58;

function Bars({
  t,
  row,
  lane,
  phases,
  g,
  actions,
  markerXs,
}: {
  t: T;
  row: PlacedRow;
  lane: TimelineLane | null;
  phases: TimelinePhase[];
  g: Geometry;
  actions: RowActions;
  markerXs: number[];
}) {
  const last = phases.at(-1);
  // A node whose log stops while it waits (nothing printed until a timeout or a kill): an open bar to the
  // job's end instead of a sliver, since nothing says when it stopped waiting.
  const open =
    !lane && last && last.end === 'log-end' && WAITING.has(last.kind) && g.endMs - last.endMs > 1 ? last : null;
  return (
    <>
      {phases.map((p, i) => {
        const x0 = xOf(g, p.startMs);
        const x1 = xOf(g, p.endMs);
        if (x1 < -2 || x0 > g.width + 2) return null;
        const left = Math.max(-2, x0);
        const width = Math.max(2, Math.min(g.width + 2, x1) - left);
        const dur = (p.endMs - p.startMs) / 1000;
        const s = (p.startMs - g.origin) / 1000;
        const ended = phaseEndWords(t, p);
        const timing =
          p.endTiming === 'estimated'
            ? t('timeline.bar.estimated')
            : p.endTiming === 'derived'
              ? t('timeline.bar.derived')
              : '';
        const label = t('timeline.bar.label', {
          who: lane ? `${row.node} ${laneName(t, lane)}` : row.node,
          what: t(`phase.${p.kind}`),
          at: formatOffset(t.lang, s, 0.001),
          span: formatDuration(t.lang, dur),
          ended: ended ? ` ${ended}.` : '',
          timing,
          where: `${p.startEvidence.file}:${p.startEvidence.line}`,
        });
        // Not under a marker (the launch tick at the bar's very start leaves the text room).
        const textFits = width > TEXT_PX + 6 && !markerXs.some((mx) => mx > left + 4 && mx <= left + TEXT_PX + 6);
        return (
          <button
            key={`${p.kind}:${i}`}
            type="button"
            className={`tl-bar tl-bar--${p.kind}${p.endTiming !== 'line' ? ' tl-bar--est' : ''}${p.end === 'failure' ? ' tl-bar--failed' : ''}`}
            style={{ left, width }}
            data-testid="timeline-bar"
            data-kind={p.kind}
            data-node={row.node}
            data-start={s.toFixed(3)}
            data-end={((p.endMs - g.origin) / 1000).toFixed(3)}
            aria-label={label}
            onClick={() => {
              if (!actions.dragging()) actions.open(row.node, p.startEvidence);
            }}
            onDoubleClick={() => actions.zoomTo(p.startMs, p.endMs)}
            {...handlers(actions, () => phaseTip(t, row, lane, p, g.origin))}
          >
            {textFits && <span className="tl-bar__text">{formatDuration(t.lang, dur)}</span>}
          </button>
        );
      })}
      {open && <OpenBar t={t} row={row} phase={open} g={g} actions={actions} />}
    </>
  );
}

function OpenBar({
  t,
  row,
  phase,
  g,
  actions,
}: {
  t: T;
  row: PlacedRow;
  phase: TimelinePhase;
  g: Geometry;
  actions: RowActions;
}) {
  const x0 = Math.max(-2, xOf(g, phase.endMs));
  const x1 = Math.min(g.width + 2, xOf(g, g.endMs));
  if (x1 <= x0 || x0 > g.width) return null;
  const width = x1 - x0;
  const ev = phase.endEvidence;
  const text = t('timeline.open');
  return (
    <button
      type="button"
      className={`tl-open tl-open--${phase.kind}`}
      style={{ left: x0, width }}
      data-testid="timeline-open"
      data-node={row.node}
      data-start={((phase.endMs - g.origin) / 1000).toFixed(3)}
      aria-label={t('timeline.openLabel', {
        node: row.node,
        at: formatOffset(t.lang, (phase.endMs - g.origin) / 1000, 0.001),
      })}
      onClick={() => {
        if (ev && !actions.dragging()) actions.open(row.node, ev);
      }}
      {...handlers(actions, () => openTip(t, row, phase, g.origin, g.endMs))}
    >
      {width > 150 && <span className="tl-open__text">{text}</span>}
    </button>
  );
}

function Markers({
  t,
  row,
  lane,
  clusters,
  g,
  actions,
}: {
  t: T;
  row: PlacedRow;
  lane: TimelineLane | null;
  clusters: { at: number; group: TimelineMarker[] }[];
  g: Geometry;
  actions: RowActions;
}) {
  return (
    <>
      {clusters.map(({ at, group }) => {
        const m = group[0]!;
        const n = group.reduce((sum, o) => sum + o.count, 0);
        const s = (m.atMs - g.origin) / 1000;
        const timing =
          m.timing === 'estimated'
            ? t('timeline.marker.estimated')
            : m.timing === 'derived'
              ? t('timeline.marker.derived')
              : '';
        return (
          <button
            key={`${m.id}:${m.atMs}:${m.evidence.line}`}
            type="button"
            className={`tl-marker tl-marker--${m.kind}${m.own ? ' is-own' : ''}${m.timing !== 'line' ? ' is-est' : ''}`}
            style={{ left: at }}
            data-testid="timeline-marker"
            data-kind={m.kind}
            data-node={row.node}
            data-file={m.evidence.file}
            data-line={m.evidence.line}
            data-at={s.toFixed(3)}
            aria-label={t('timeline.marker.label', {
              who: lane ? `${row.node} ${laneName(t, lane)}` : row.node,
              what: markerTitle(t, m),
              at: formatOffset(t.lang, s, 0.001),
              timing,
              count: n > 1 ? t('timeline.marker.count', { n }) : '',
              where: `${m.evidence.file}:${m.evidence.line}`,
            })}
            onClick={() => {
              if (!actions.dragging()) actions.open(row.node, m.evidence);
            }}
            onDoubleClick={() => {
              const span = (g.view.end - g.view.start) * 250;
              actions.zoomTo(m.atMs - span, m.atMs + span);
            }}
            {...handlers(actions, () => markerTip(t, row, lane, group, g.origin))}
          >
            <span className="tl-marker__shape" aria-hidden="true" />
            {n > 1 && (
              <span className="tl-marker__count" aria-hidden="true">
                {n}
              </span>
            )}
          </button>
        );
      })}
    </>
  );
}

/**
 * A restarted node's attempts on its row: every other attempt tinted, a line where each restart's attempt
 * begins, and under the bars a strip with one segment per attempt (what ended it, whether its rendezvous
 * completed, in its tooltip; a click opens the line that ended it).
 */
function AttemptTints({ bands, g }: { bands: AttemptBand[]; g: Geometry }) {
  return (
    <>
      {bands.map((b, i) => {
        if (i % 2 === 0) return null;
        const x0 = Math.max(-2, xOf(g, b.startMs));
        const x1 = Math.min(g.width + 2, xOf(g, b.endMs));
        return x1 <= x0 ? null : (
          <span
            key={b.attempt.index}
            className="tl-attempt-tint"
            style={{ left: x0, width: x1 - x0 }}
            aria-hidden="true"
          />
        );
      })}
    </>
  );
}

function AttemptStrip({
  t,
  row,
  bands,
  g,
  actions,
}: {
  t: T;
  row: PlacedRow;
  bands: AttemptBand[];
  g: Geometry;
  actions: RowActions;
}) {
  return (
    <>
      {bands.map((b, i) => {
        const a = b.attempt;
        const x0 = xOf(g, b.startMs);
        const x1 = xOf(g, b.endMs);
        if (x1 < -2 || x0 > g.width + 2) return null;
        const left = Math.max(-2, x0);
        // A hair's gap before the next attempt, so that two attempts never read as one.
        const width = Math.max(3, Math.min(g.width + 2, x1) - left - (i < bands.length - 1 ? 2 : 0));
        const open = a.ended?.evidence ?? a.evidence;
        const s = (b.startMs - g.origin) / 1000;
        return (
          <span key={a.index}>
            {i > 0 && x0 >= 0 && x0 <= g.width && (
              <span className="tl-attempt-edge" style={{ left: x0 }} aria-hidden="true" />
            )}
            <button
              type="button"
              className={`tl-attempt${i % 2 ? ' is-odd' : ''}${a.ended ? ' is-ended' : ''}${a.formedWorld ? '' : ' is-unformed'}${b.endUnknown ? ' is-end-unknown' : ''}`}
              style={{ left, width }}
              data-testid="timeline-attempt"
              data-node={row.node}
              data-index={a.index}
              data-start={s.toFixed(3)}
              data-end={((b.endMs - g.origin) / 1000).toFixed(3)}
              data-formed={a.formedWorld ? '' : undefined}
              aria-label={t('timeline.attempt.label', {
                node: row.node,
                what: t('attempts.index', { n: a.index }),
                at: formatOffset(t.lang, s, 0.001),
                span: formatDuration(t.lang, (b.endMs - b.startMs) / 1000),
                rdzv: t(a.formedWorld ? 'attempts.rdzv.yes' : 'attempts.rdzv.no'),
                ended: attemptEndWords(t, a, row.failureStage),
                where: `${open.file}:${open.line}`,
              })}
              onClick={() => {
                if (!actions.dragging()) actions.open(row.node, open);
              }}
              onDoubleClick={() => actions.zoomTo(b.startMs, b.endMs)}
              {...handlers(actions, () => attemptTip(t, row, b, g.origin))}
            />
          </span>
        );
      })}
    </>
  );
}

export interface NodeRowProps {
  t: T;
  row: TimelineRow;
  index: number;
  top: number;
  selected: boolean;
  g: Geometry;
  actions: RowActions;
  tickClass: Record<string, string>;
  /** The node's attempts, when it restarted. */
  attempts: readonly AttemptView[] | undefined;
  /** A node without a place: whether its reason is written out whole, and over how many rows that runs. */
  reason?: { open: boolean; rows: number };
}

function lagText(t: T, lag: number | null): string {
  return lag === null ? '—' : lag === 0 ? t('unit.s', { n: '0' }) : `+${formatDuration(t.lang, lag)}`;
}

export const NodeRow = memo(function NodeRow({
  t,
  row,
  index,
  top,
  selected,
  g,
  actions,
  tickClass,
  attempts,
  reason,
}: NodeRowProps) {
  const lag = row.lagSeconds;
  const lagLabel = lagText(t, lag);
  const gaps = rowGaps(t, row);
  const compact = g.compact;
  const restartTag = attemptsTag(t, attempts);
  const room = compact ? g.nameW - 22 : oneLineRoom(t, row, g.nameW, lagLabel, gaps.length > 0, restartTag);
  const shown = fitName(row.node, Math.max(24, room), NAME_FONT);
  const clusters = row.placed ? cluster(row.markers, g) : [];
  const bands = row.placed && attempts?.length ? attemptBands(attempts, row.endMs) : [];
  const restartTitle = attempts?.length
    ? t('timeline.row.attempts', { n: attempts.at(-1)!.index, count: attempts.length })
    : '';
  const label = [
    row.node,
    row.isLate ? t('timeline.row.late') : '',
    row.isStoreHost ? t('timeline.row.host') : '',
    restartTitle,
    lag !== null ? t('timeline.row.lag', { lag: formatDuration(t.lang, lag) }) : '',
    row.placed ? '' : t('timeline.row.unplaced'),
    ...gaps,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`tl-row${selected ? ' is-selected' : ''}${row.isLate ? ' is-late' : ''}${row.placed ? '' : ' is-unplaced'}`}
      style={{ top }}
      data-testid="timeline-row"
      data-node={row.node}
      data-row-index={index}
    >
      <div role="rowheader" className={`tl-row__head${compact ? ' is-compact' : ''}`}>
        <button
          type="button"
          className="tl-row__name"
          aria-label={label}
          title={row.node}
          onClick={() => actions.select(row.node)}
        >
          <span className="tl-row__label" data-testid="timeline-name" data-full={row.node}>
            {shown}
          </span>
          <span className="tl-row__meta">
            {compact && (
              <span className="tl-row__lag" aria-hidden="true">
                {lagLabel}
              </span>
            )}
            {row.isLate && <span className="tl-tag tl-tag--late">{t('timeline.tag.late')}</span>}
            {row.isStoreHost && <span className="tl-tag">{t('timeline.tag.host')}</span>}
            {restartTag && (
              <span className="tl-tag tl-tag--attempts" title={restartTitle} data-testid="timeline-restarts">
                {restartTag}
              </span>
            )}
            {gaps.length > 0 && (
              <span className="tl-row__info" title={gaps.join(' ')} aria-hidden="true">
                i
              </span>
            )}
          </span>
        </button>
        {!row.placed && reason && (reason.rows > 1 || reason.open) && (
          <button
            type="button"
            className="tl-row__zoom tl-row__expand"
            aria-expanded={reason.open}
            aria-label={t(reason.open ? 'timeline.reason.fold' : 'timeline.reason.open', { node: row.node })}
            title={t(reason.open ? 'timeline.reason.fold' : 'timeline.reason.open', { node: row.node })}
            onClick={() => actions.expandReason(row.node)}
            data-testid="timeline-reason-toggle"
          >
            <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
              <path d="M4 6l4 4 4-4" />
            </svg>
          </button>
        )}
        {row.placed && (
          <button
            type="button"
            className="tl-row__zoom"
            aria-label={t('timeline.zoomNode', { node: row.node })}
            title={t('timeline.zoomNode', { node: row.node })}
            onClick={() => actions.zoomTo(row.startMs, Math.max(row.endMs, row.startMs + 1))}
            data-testid="timeline-zoom-node"
            tabIndex={-1}
          >
            <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
              <path d="M2 6V2h4M14 6V2h-4M2 10v4h4M14 10v4h-4" />
            </svg>
          </button>
        )}
        {!compact && (
          <span className="tl-row__lag" aria-hidden="true">
            {lagLabel}
          </span>
        )}
      </div>
      <div role="gridcell" className="tl-row__plot">
        {row.placed ? (
          <>
            <AttemptTints bands={bands} g={g} />
            <Bars
              t={t}
              row={row}
              lane={null}
              phases={row.phases}
              g={g}
              actions={actions}
              markerXs={clusters.map((c) => c.at)}
            />
            <AttemptStrip t={t} row={row} bands={bands} g={g} actions={actions} />
            {row.ticks.map((tick) => {
              const px = xOf(g, tick.atMs);
              return px < 0 || px > g.width ? null : (
                <span
                  key={tick.line}
                  className={`tl-tick ${tickClass[tick.line] ?? ''}`}
                  style={{ left: px }}
                  aria-hidden="true"
                />
              );
            })}
            <Markers t={t} row={row} lane={null} clusters={clusters} g={g} actions={actions} />
          </>
        ) : (
          <UnplacedCell t={t} row={row} actions={actions} band={0} open={reason?.open ?? false} />
        )}
      </div>
    </div>
  );
});

/**
 * Why a node has no place on the time axis, in its row: two lines, or written out whole when opened — then the
 * text runs on over rows of its own below (band 1, 2…, each showing its next two lines), so every row keeps its
 * height and nothing is drawn over the rows that follow.
 */
function UnplacedCell({
  t,
  row,
  actions,
  band,
  open,
}: {
  t: T;
  row: Extract<TimelineRow, { placed: false }>;
  actions: RowActions;
  /** Which two lines of the whole text this row shows (0: the node's own row). */
  band: number;
  open: boolean;
}) {
  const text = useRef<HTMLSpanElement>(null);
  const node = row.node;
  // The node's own row measures how many rows the whole text takes at the plot's width, as laid out.
  useLayoutEffect(() => {
    const el = text.current;
    if (band !== 0 || !el) return;
    const report = () => actions.reasonRows(node, Math.max(1, Math.ceil((el.scrollHeight - 1) / REASON_ROW_H)));
    report();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(report);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, [band, node, actions, open]);
  const says = row.says[0];
  // English spaces its sentences and labels apart; Chinese runs them on after their full-width punctuation.
  const gap = t.lang === 'zh' ? '' : ' ';
  const body = (
    <span
      ref={text}
      className="tl-row__why"
      style={band ? { top: -band * REASON_ROW_H } : undefined}
      data-testid={band === 0 ? 'timeline-reason' : undefined}
    >
      {t('timeline.notPlaced')}
      {gap}
      <CoreText sentence={row.reason} />
      {says && (
        <>
          {gap}
          {t('timeline.says')} <code className="tl-row__says">{says.context}</code>
        </>
      )}
      {row.limit && (
        <>
          {gap}
          {t('timeline.runsInto')}
          {gap}
          {limitLabel(t, { ids: [row.limit.id], seconds: row.limit.seconds })}
        </>
      )}
    </span>
  );
  const cls = `tl-row__reason${open ? ' is-open' : ''}${band ? ' is-more' : ''}`;
  const ev = row.failure ?? says?.evidence;
  // The rows the text runs on over are its continuation, not more to read or press.
  if (band > 0)
    return (
      <div
        className={cls}
        aria-hidden="true"
        onClick={() => (ev ? actions.open(node, ev) : actions.expandReason(node))}
      >
        {body}
      </div>
    );
  if (!ev)
    return (
      <span className={cls} onClick={() => actions.expandReason(node)}>
        {body}
      </span>
    );
  return (
    <button
      type="button"
      className={cls}
      onClick={() => actions.open(node, ev)}
      title={t('tip.openOnly', { where: `${ev.file}:${ev.line}` })}
    >
      <span className="visually-hidden">{node}: </span>
      {body}
    </button>
  );
}

/** Height of the rows an opened reason runs on over: two of its 16 px lines each (timeline.css). */
const REASON_ROW_H = 32;

export interface ReasonRowProps {
  t: T;
  row: Extract<TimelineRow, { placed: false }>;
  /** Which two lines of the reason this row shows (1, 2…). */
  band: number;
  /** The last of the rows the reason runs on over. */
  last: boolean;
  top: number;
  selected: boolean;
  actions: RowActions;
}

/** A row an opened reason runs on over: no name, its next two lines in the plot. */
export const ReasonRow = memo(function ReasonRow({ t, row, band, last, top, selected, actions }: ReasonRowProps) {
  return (
    <div
      className={`tl-row tl-row--reason${last ? ' is-last' : ''}${selected ? ' is-selected' : ''}${row.isLate ? ' is-late' : ''} is-unplaced`}
      style={{ top }}
      aria-hidden="true"
      data-testid="timeline-reason-row"
      data-node={row.node}
    >
      <div className="tl-row__head" />
      <div className="tl-row__plot">
        <UnplacedCell t={t} row={row} actions={actions} band={band} open />
      </div>
    </div>
  );
});

export interface LaneRowProps {
  t: T;
  row: PlacedRow;
  lane: TimelineLane;
  index: number;
  top: number;
  g: Geometry;
  actions: RowActions;
}

export const LaneRow = memo(function LaneRow({ t, row, lane, index, top, g, actions }: LaneRowProps) {
  const clusters = cluster(lane.markers, g);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="tl-row tl-row--lane"
      style={{ top }}
      data-testid="timeline-lane"
      data-node={row.node}
      data-row-index={index}
    >
      <div role="rowheader" className="tl-row__head">
        <span className="tl-row__lane" aria-label={`${row.node} ${laneName(t, lane)}`}>
          {laneName(t, lane)}
        </span>
      </div>
      <div role="gridcell" className="tl-row__plot">
        <Bars
          t={t}
          row={row}
          lane={lane}
          phases={lane.phases}
          g={g}
          actions={actions}
          markerXs={clusters.map((c) => c.at)}
        />
        <Markers t={t} row={row} lane={lane} clusters={clusters} g={g} actions={actions} />
      </div>
    </div>
  );
});
