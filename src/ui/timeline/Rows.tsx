import { memo, type FocusEvent, type MouseEvent } from 'react';
import type { PlacedRow, TimelineLane, TimelineMarker, TimelinePhase, TimelineRow } from '../../core/timeline';
import { PHASE_NAMES } from '../../core/timeline';
import { formatDuration, formatOffset, type View } from './scale';
import { markerTip, markerTitle, phaseEndWords, phaseTip, type Tip } from './tips';

// One row of the timeline: the node's name, then its phases as bars, its per-node limit ticks and its markers
// (folded into one when they would overlap). A lane row shows one rank of a node the same way.

export interface RowActions {
  /** Show the tooltip for an element (hover or focus); null hides it. */
  tip(target: HTMLElement | null, tip: Tip | null): void;
  /** Open the evidence line and select the node. */
  open(node: string, evidence: { file: string; line: number }): void;
  select(node: string): void;
  /** True right after a drag: the click that ends it must not open anything. */
  dragging(): boolean;
}

interface Geometry {
  view: View;
  width: number;
  origin: number;
}

const PRIORITY: Record<TimelineMarker['kind'], number> = {
  failure: 0,
  error: 1,
  restart: 2,
  exit: 3,
  ready: 4,
  launch: 5,
};

const x = (g: Geometry, ms: number) =>
  (((ms - g.origin) / 1000 - g.view.start) / (g.view.end - g.view.start)) * g.width;

/** Markers closer than `gap` px fold into one button; the most important one leads. */
function cluster(markers: TimelineMarker[], g: Geometry, gap = 9): { at: number; group: TimelineMarker[] }[] {
  const out: { at: number; group: TimelineMarker[] }[] = [];
  for (const m of markers) {
    const px = x(g, m.atMs);
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

function Bars({
  row,
  lane,
  phases,
  g,
  actions,
}: {
  row: PlacedRow;
  lane: TimelineLane | null;
  phases: TimelinePhase[];
  g: Geometry;
  actions: RowActions;
}) {
  return (
    <>
      {phases.map((p, i) => {
        const x0 = x(g, p.startMs);
        const x1 = x(g, p.endMs);
        if (x1 < -2 || x0 > g.width + 2) return null;
        const left = Math.max(-2, x0);
        const width = Math.max(2, Math.min(g.width + 2, x1) - left);
        const dur = (p.endMs - p.startMs) / 1000;
        const s = (p.startMs - g.origin) / 1000;
        const ended = phaseEndWords(p);
        const label = `${row.node}${lane ? ` ${lane.label}` : ''}: ${PHASE_NAMES[p.kind]}, from ${formatOffset(s, 0.001)} for ${formatDuration(dur)}${ended ? `. ${ended}` : ''}${p.endTiming === 'estimated' ? ' (end estimated)' : p.endTiming === 'derived' ? ' (end derived from a stated wait)' : ''}. Opens ${p.startEvidence.file} line ${p.startEvidence.line}`;
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
            {...handlers(actions, () => phaseTip(row, lane, p, g.origin))}
          >
            {width > 64 && <span className="tl-bar__text">{formatDuration(dur)}</span>}
          </button>
        );
      })}
    </>
  );
}

function Markers({
  row,
  lane,
  markers,
  g,
  actions,
}: {
  row: PlacedRow;
  lane: TimelineLane | null;
  markers: TimelineMarker[];
  g: Geometry;
  actions: RowActions;
}) {
  return (
    <>
      {cluster(markers, g).map(({ at, group }) => {
        const m = group[0]!;
        const n = group.reduce((sum, o) => sum + o.count, 0);
        const s = (m.atMs - g.origin) / 1000;
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
            aria-label={`${row.node}${lane ? ` ${lane.label}` : ''}: ${markerTitle(m)} at ${formatOffset(s, 0.001)}${m.timing === 'estimated' ? ' (estimated)' : m.timing === 'derived' ? ' (derived from a stated wait)' : ''}${n > 1 ? `, ${n} lines here` : ''}. Opens ${m.evidence.file} line ${m.evidence.line}`}
            onClick={() => {
              if (!actions.dragging()) actions.open(row.node, m.evidence);
            }}
            {...handlers(actions, () => markerTip(row, lane, group, g.origin))}
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

export interface NodeRowProps {
  row: TimelineRow;
  index: number;
  top: number;
  selected: boolean;
  g: Geometry;
  actions: RowActions;
  tickClass: Record<string, string>;
}

export const NodeRow = memo(function NodeRow({ row, index, top, selected, g, actions, tickClass }: NodeRowProps) {
  const lag = row.lagSeconds;
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
      <div role="rowheader" className="tl-row__head">
        <button
          type="button"
          className="tl-row__name"
          aria-label={`${row.node}${row.isLate ? ', late' : ''}${row.isStoreHost ? ', store host' : ''}${lag !== null ? `, launched ${formatDuration(lag)} after the first` : ''}${row.placed ? '' : ', cannot be placed'}`}
          onClick={() => actions.select(row.node)}
        >
          <span className="tl-row__label" title={row.node}>
            {row.node}
          </span>
          {row.isLate && <span className="tl-tag tl-tag--late">late</span>}
          {row.isStoreHost && <span className="tl-tag">host</span>}
        </button>
        <span className="tl-row__lag" aria-hidden="true">
          {lag === null ? '—' : lag === 0 ? '0 s' : `+${formatDuration(lag)}`}
        </span>
      </div>
      <div role="gridcell" className="tl-row__plot">
        {row.placed ? (
          <>
            <Bars row={row} lane={null} phases={row.phases} g={g} actions={actions} />
            {row.ticks.map((t) => {
              const px = x(g, t.atMs);
              return px < 0 || px > g.width ? null : (
                <span
                  key={t.line}
                  className={`tl-tick ${tickClass[t.line] ?? ''}`}
                  style={{ left: px }}
                  aria-hidden="true"
                />
              );
            })}
            <Markers row={row} lane={null} markers={row.markers} g={g} actions={actions} />
            {row.phases.length === 0 && row.gaps[0] && <span className="tl-row__gap">{row.gaps[0]}</span>}
          </>
        ) : (
          <UnplacedCell row={row} actions={actions} />
        )}
      </div>
    </div>
  );
});

function UnplacedCell({ row, actions }: { row: Extract<TimelineRow, { placed: false }>; actions: RowActions }) {
  const says = row.says[0];
  const text = `Not placed: ${row.reason}${says ? ` Its text says “${says.context}”.` : ''}${row.limit ? ` Its failure runs into the ${row.limit.label}.` : ''}`;
  if (!row.failure && !says) return <span className="tl-row__reason">{text}</span>;
  const ev = row.failure ?? says!.evidence;
  return (
    <button
      type="button"
      className="tl-row__reason"
      title={text}
      aria-label={`${row.node}: ${text} Opens ${ev.file} line ${ev.line}`}
      onClick={() => actions.open(row.node, ev)}
    >
      {text}
    </button>
  );
}

export interface LaneRowProps {
  row: PlacedRow;
  lane: TimelineLane;
  index: number;
  top: number;
  g: Geometry;
  actions: RowActions;
}

export const LaneRow = memo(function LaneRow({ row, lane, index, top, g, actions }: LaneRowProps) {
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
        <span className="tl-row__lane" aria-label={`${row.node} ${lane.label}`}>
          {lane.label}
        </span>
      </div>
      <div role="gridcell" className="tl-row__plot">
        <Bars row={row} lane={lane} phases={lane.phases} g={g} actions={actions} />
        <Markers row={row} lane={lane} markers={lane.markers} g={g} actions={actions} />
      </div>
    </div>
  );
});
