// The launch-skew bars: one per node for the latest 64 nodes, drawn by the charting library (loaded with this
// module, only when bars are shown).
import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
  type TooltipContentProps,
} from 'recharts';
import type { ThresholdLine } from '../core/timeline';
import type { SkewPoint } from '../ingest/index';
import { useViewStore } from '../state/view';
import { formatDuration } from '../i18n/index';
import type { T } from './i18n';
import { limitLabel } from './timeline/labels';

export type Datum = SkewPoint & { tone: string };

interface Props {
  t: T;
  rows: Datum[];
  height: number;
  domainMax: number;
  ticks: number[];
  lines: ThresholdLine[];
  refLabel(l: ThresholdLine): { value: string; position: 'top'; className: string };
  selected: string | null;
  label(l: ThresholdLine): string;
  lineOf: LineOf;
  first: string;
  tick(seconds: number): string;
}

export default function SkewBars({
  t,
  rows,
  height,
  domainMax,
  ticks,
  lines,
  refLabel,
  selected,
  label,
  lineOf,
  first,
  tick,
}: Props) {
  return (
    <BarChart
      // The chart is drawn for the eye (aria-hidden; a table says the same to a screen reader): no tab stop in it.
      accessibilityLayer={false}
      responsive
      layout="vertical"
      style={{ width: '100%', height }}
      data={rows}
      margin={{ top: 26, right: 28, bottom: 8, left: 4 }}
      barCategoryGap={5}
    >
      <CartesianGrid className="skew__grid" horizontal={false} />
      <XAxis
        type="number"
        domain={[0, domainMax]}
        ticks={ticks}
        tickFormatter={(v: number) => tick(v)}
        allowDataOverflow
        className="skew__axis"
      />
      <YAxis type="category" dataKey="node" width="auto" interval={0} className="skew__axis" />
      <Tooltip cursor={false} content={(p) => <NodeTip {...p} first={first} t={t} lineOf={lineOf} />} />
      {lines.map((l) => (
        <ReferenceLine key={l.key} x={l.seconds} className={`skew-ref skew-ref--${l.kind}`} label={refLabel(l)} />
      ))}
      <Bar
        dataKey="lag"
        isAnimationActive={false}
        shape={(p: BarShapeProps) => <NodeShape {...p} selected={selected} label={label} lineOf={lineOf} />}
      />
    </BarChart>
  );
}

type LineOf = (i: number) => ThresholdLine | null;

function NodeShape(p: BarShapeProps & { selected: string | null; label(l: ThresholdLine): string; lineOf: LineOf }) {
  const d = p.payload as Datum;
  const width = Math.max(2, p.width);
  const line = p.lineOf(d.crossed);
  return (
    <rect
      x={p.x}
      y={p.y}
      width={width}
      height={Math.max(1, p.height)}
      rx={3}
      className={`skew-bar skew-tone--${d.tone}${p.selected === d.node ? ' is-selected' : ''}`}
      data-testid="skew-bar"
      data-node={d.node}
      data-lag={d.lag}
      data-crossed={line?.key ?? ''}
      data-crossed-label={line ? p.label(line) : ''}
      onClick={() => useViewStore.getState().selectNode(d.node)}
    />
  );
}

function NodeTip(p: TooltipContentProps & { first: string; t: T; lineOf: LineOf }) {
  const { t } = p;
  const d = p.payload?.[0]?.payload as Datum | undefined;
  if (!p.active || !d) return null;
  const line = p.lineOf(d.crossed);
  return (
    <div className="tl-tip skew-tip">
      <strong className="tl-tip__title">{d.node}</strong>
      <span className="tl-tip__line">
        {t('skew.tip.launched', { lag: formatDuration(t.lang, d.lag), first: p.first })}
      </span>
      <span className="tl-tip__line">
        {line
          ? t('skew.tip.past', { line: limitLabel(t, line), by: formatDuration(t.lang, d.lag - line.seconds) })
          : t('skew.tip.within')}
      </span>
    </div>
  );
}
