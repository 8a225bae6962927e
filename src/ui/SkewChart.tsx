import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Rich } from './i18n';
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
import type { Diagnosis } from '../core/findings';
import type { JobModel } from '../core/model';
import { limitsInForce } from '../core/thresholds';
import { buildTimeline, type ThresholdLine } from '../core/timeline';
import { useViewStore } from '../state/view';
import { formatDuration, formatLimit, listSome } from '../i18n/index';
import { useT, type T } from './i18n';
import { limitLabel } from './timeline/labels';
import './timeline/timeline.css';

// How far each node launched behind the earliest one, against the limits that count from the launch (the
// rendezvous timeouts, the ≤ 2.3 rank-assignment wait) and the 300/900/1800 s marks. Each bar takes the colour
// of the highest line its node crossed. Past 64 nodes a histogram of the lags reads better; a toggle switches.

interface Props {
  job: JobModel;
  diagnosis: Diagnosis | null;
}

const HISTOGRAM_FROM = 64;
const MAX_BARS = 64;
const PALETTE = 5;

interface Datum {
  node: string;
  lag: number;
  crossed: ThresholdLine | null;
  tone: string;
}

interface Bin {
  from: number;
  to: number;
  mid: number;
  count: number;
  nodes: string[];
  crossed: ThresholdLine | null;
  tone: string;
}

const BIN_STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];

export function SkewChart({ job, diagnosis }: Props) {
  const t = useT();
  const limits = useMemo(() => diagnosis?.thresholds ?? limitsInForce(job), [job, diagnosis]);
  const lines = useMemo(() => {
    const all = buildTimeline(job, limits).thresholds.filter((t) => t.anchor === 'job');
    return all.filter((t, i) => all.findIndex((o) => o.seconds === t.seconds) === i);
  }, [job, limits]);
  const placed = job.nodes.filter((n) => n.lagSeconds !== null);
  const missing = job.nodes.filter((n) => n.lagSeconds === null);
  const large = placed.length > HISTOGRAM_FROM;
  const [histogram, setHistogram] = useState(large);
  const selected = useViewStore((s) => s.selectedNode);
  const chartRef = useRef<HTMLDivElement>(null);
  // Its width only re-renders the chart on a resize, so the labels are laid out again.
  const [, setChartW] = useState(720);
  // Line labels above the chart overlap on a narrow one (a phone): the limits in force keep theirs, the others
  // give way; the legend and the summary below name every line.
  useLayoutEffect(() => {
    const texts = [...(chartRef.current?.querySelectorAll<SVGTextElement>('text.skew-ref__label') ?? [])];
    const rank = (el: Element) => (el.classList.contains('skew-ref__label--limit') ? 0 : 1);
    const kept: DOMRect[] = [];
    for (const el of texts.sort((a, b) => rank(a) - rank(b))) {
      el.style.visibility = '';
      const box = el.getBoundingClientRect();
      const clash = kept.some(
        (k) => box.left < k.right + 6 && box.right > k.left - 6 && box.top < k.bottom && box.bottom > k.top,
      );
      if (clash) el.style.visibility = 'hidden';
      else kept.push(box);
    }
  });
  useLayoutEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    const read = () => setChartW(el.clientWidth || 720);
    read();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, []);

  const toneOf = (lag: number): { crossed: ThresholdLine | null; tone: string } => {
    let idx = -1;
    lines.forEach((l, i) => {
      if (lag >= l.seconds) idx = i;
    });
    return idx < 0 ? { crossed: null, tone: 'ok' } : { crossed: lines[idx]!, tone: String(Math.min(PALETTE, idx + 1)) };
  };

  const data: Datum[] = placed.map((n) => ({ node: n.id, lag: n.lagSeconds!, ...toneOf(n.lagSeconds!) }));
  const maxLag = Math.max(0, ...data.map((d) => d.lag));
  const first = placed.find((n) => n.lagSeconds === 0)?.id ?? t('skew.firstNode');
  const label = (l: ThresholdLine) => limitLabel(t, l);

  // The scale: the latest node, and the next line above it when it is close enough to compare with.
  const above = lines.find((l) => l.seconds > maxLag);
  const reach = above && above.seconds <= (above.kind === 'limit' ? 4 : 2.5) * Math.max(maxLag, 1) ? above.seconds : 0;
  const want = Math.max(maxLag * 1.08, reach * 1.04, 1);
  const tickStep = BIN_STEPS.find((st) => want / st <= 6) ?? Math.ceil(want / 6 / 3600) * 3600;
  const domainMax = Math.ceil(want / tickStep) * tickStep;
  const axisTicks = Array.from({ length: Math.round(domainMax / tickStep) + 1 }, (_, i) => i * tickStep);
  const shownLines = lines.filter((l) => l.seconds <= domainMax);
  const offScale = lines.filter((l) => l.seconds > domainMax);
  const crossings = data.filter((d) => d.crossed).sort((a, b) => b.lag - a.lag);
  const topCrossed = crossings[0]?.crossed?.key;
  const refLabel = (l: ThresholdLine) =>
    ({
      value: label(l),
      position: 'top',
      className: `skew-ref__label skew-ref__label--${l.kind}${l.key === topCrossed ? ' is-crossed' : ''}`,
    }) as const;
  const usedTones = [...new Set(data.map((d) => d.tone))];

  const title = (
    <h2 id="skew-title" className="skew__title">
      {t('skew.title')}
    </h2>
  );

  if (placed.length < 2) {
    return (
      <section className="card skew" aria-labelledby="skew-title" data-testid="skew-chart">
        {title}
        <p className="skew__empty" data-testid="skew-empty">
          {placed.length === 0 ? t('skew.empty.none') : t('skew.empty.one', { node: placed[0]!.id, n: missing.length })}{' '}
          <Rich text={t('skew.empty.why')} />
        </p>
      </section>
    );
  }

  const barData = histogram ? [] : [...data].sort((a, b) => b.lag - a.lag).slice(0, MAX_BARS);
  const barRows = histogram ? [] : data.filter((d) => barData.includes(d));
  const bins = histogram ? binsOf(data, domainMax, toneOf) : [];
  const height = histogram ? 280 : Math.max(150, barRows.length * 26 + 70);

  return (
    <section className="card skew" aria-labelledby="skew-title" data-testid="skew-chart">
      <div className="skew__head">
        {title}
        <p className="skew__lead muted">{t('skew.lead', { first })}</p>
        <div className="skew__toggle" role="group" aria-label={t('skew.type')}>
          <button
            type="button"
            className="button button--small"
            aria-pressed={!histogram}
            onClick={() => setHistogram(false)}
          >
            {t('skew.bars')}
          </button>
          <button
            type="button"
            className="button button--small"
            aria-pressed={histogram}
            onClick={() => setHistogram(true)}
          >
            {t('skew.histogram')}
          </button>
        </div>
      </div>

      {!histogram && data.length > MAX_BARS && (
        <p className="skew__note muted">{t('skew.latestOf', { shown: MAX_BARS, total: data.length })}</p>
      )}

      <div className="skew__chart" aria-hidden="true" ref={chartRef}>
        {histogram ? (
          <BarChart
            responsive
            style={{ width: '100%', height }}
            data={bins}
            margin={{ top: 26, right: 24, bottom: 8, left: 4 }}
            barCategoryGap={1}
          >
            <CartesianGrid className="skew__grid" vertical={false} />
            <XAxis
              type="number"
              dataKey="mid"
              domain={[0, bins.length ? bins.at(-1)!.to : domainMax]}
              tickFormatter={(v: number) => formatTick(t, v)}
              className="skew__axis"
            />
            <YAxis allowDecimals={false} width={40} className="skew__axis" />
            <Tooltip cursor={false} content={(p) => <BinTip {...p} t={t} />} />
            {shownLines.map((l) => (
              <ReferenceLine
                key={l.key}
                x={l.seconds}
                className={`skew-ref skew-ref--${l.kind}`}
                ifOverflow="extendDomain"
                label={refLabel(l)}
              />
            ))}
            <Bar dataKey="count" isAnimationActive={false} shape={(p: BarShapeProps) => <BinShape {...p} />} />
          </BarChart>
        ) : (
          <BarChart
            responsive
            layout="vertical"
            style={{ width: '100%', height }}
            data={barRows}
            margin={{ top: 26, right: 28, bottom: 8, left: 4 }}
            barCategoryGap={5}
          >
            <CartesianGrid className="skew__grid" horizontal={false} />
            <XAxis
              type="number"
              domain={[0, domainMax]}
              ticks={axisTicks}
              tickFormatter={(v: number) => formatTick(t, v)}
              allowDataOverflow
              className="skew__axis"
            />
            <YAxis type="category" dataKey="node" width="auto" interval={0} className="skew__axis" />
            <Tooltip cursor={false} content={(p) => <NodeTip {...p} first={first} t={t} />} />
            {shownLines.map((l) => (
              <ReferenceLine key={l.key} x={l.seconds} className={`skew-ref skew-ref--${l.kind}`} label={refLabel(l)} />
            ))}
            <Bar
              dataKey="lag"
              isAnimationActive={false}
              shape={(p: BarShapeProps) => <NodeShape {...p} selected={selected} label={label} />}
            />
          </BarChart>
        )}
      </div>

      <ul className="skew__legend" aria-label={t('skew.colours')}>
        {usedTones.includes('ok') && (
          <li>
            <span className="skew-swatch skew-tone--ok" aria-hidden="true" />
            {t('skew.within')}
          </li>
        )}
        {lines.map((l, i) =>
          usedTones.includes(String(Math.min(PALETTE, i + 1))) && data.some((d) => d.crossed === l) ? (
            <li key={l.key}>
              <span className={`skew-swatch skew-tone--${Math.min(PALETTE, i + 1)}`} aria-hidden="true" />
              {t(l.kind === 'limit' ? 'skew.crossedInForce' : 'skew.crossed', { line: label(l) })}
            </li>
          ) : null,
        )}
      </ul>

      <div className="skew__summary" data-testid="skew-summary">
        {crossings.length === 0 ? (
          <p>
            {t(maxLag > 0 ? 'skew.allWithinLatest' : 'skew.allWithin', {
              line: shownLines[0] ? label(shownLines[0]) : lines[0] ? label(lines[0]) : t('skew.everyLine'),
              first,
              latest: formatDuration(t.lang, maxLag),
            })}
          </p>
        ) : (
          <ul>
            {crossings.slice(0, 5).map((d) => (
              <li key={d.node} data-node={d.node} data-crossed={d.crossed!.key}>
                <strong>{d.node}</strong>{' '}
                {t(d.crossed!.kind === 'limit' ? 'skew.pastInForce' : 'skew.past', {
                  lag: formatDuration(t.lang, d.lag),
                  first,
                  line: label(d.crossed!),
                  by: formatDuration(t.lang, d.lag - d.crossed!.seconds),
                })}
              </li>
            ))}
            {crossings.length > 5 && <li>{t('skew.morePast', { n: crossings.length - 5 })}</li>}
          </ul>
        )}
        {offScale.length > 0 && (
          <p className="muted">
            {t(crossings.length === 0 ? 'skew.beyondNone' : 'skew.beyond', {
              lines: offScale.map(label).join(t('list.sep')),
            })}
          </p>
        )}
        {missing.length > 0 && (
          <p className="muted">
            {t('skew.notDrawn', {
              nodes: listSome(
                t.lang,
                missing.map((n) => n.id),
                6,
              ),
            })}
          </p>
        )}
      </div>

      {/* Hidden in a box: a table itself ignores the 1 px width and would widen the page. */}
      <div className="visually-hidden">
        <table>
          <caption>{t('skew.caption', { first })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('nodes.col.node')}</th>
              <th scope="col">{t('nodes.col.lag')}</th>
              <th scope="col">{t('skew.col.crossed')}</th>
            </tr>
          </thead>
          <tbody>
            {[...data]
              .sort((a, b) => b.lag - a.lag)
              .slice(0, 256)
              .map((d) => (
                <tr key={d.node}>
                  <th scope="row">{d.node}</th>
                  <td>{formatDuration(t.lang, d.lag)}</td>
                  <td>{d.crossed ? label(d.crossed) : t('nodes.none')}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function formatTick(t: T, v: number): string {
  if (v >= 120) return t('unit.min', { m: String(Math.round(v / 60)) });
  return formatLimit(t.lang, Math.round(v * 10) / 10);
}

function binsOf(
  data: Datum[],
  domainMax: number,
  toneOf: (lag: number) => { crossed: ThresholdLine | null; tone: string },
): Bin[] {
  const width = BIN_STEPS.find((s) => domainMax / s <= 24) ?? Math.ceil(domainMax / 24);
  const n = Math.max(1, Math.ceil(domainMax / width));
  const bins: Bin[] = Array.from({ length: n }, (_, i) => ({
    from: i * width,
    to: (i + 1) * width,
    mid: (i + 0.5) * width,
    count: 0,
    nodes: [],
    crossed: null,
    tone: 'ok',
  }));
  for (const d of data) {
    const b = bins[Math.min(n - 1, Math.floor(d.lag / width))]!;
    b.count += 1;
    if (b.nodes.length < 6) b.nodes.push(d.node);
  }
  for (const b of bins) {
    const latest = Math.max(...data.filter((d) => d.lag >= b.from && d.lag < b.to).map((d) => d.lag), b.from);
    Object.assign(b, toneOf(latest));
  }
  return bins;
}

function NodeShape(p: BarShapeProps & { selected: string | null; label(l: ThresholdLine): string }) {
  const d = p.payload as Datum;
  const width = Math.max(2, p.width);
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
      data-crossed={d.crossed?.key ?? ''}
      data-crossed-label={d.crossed ? p.label(d.crossed) : ''}
      onClick={() => useViewStore.getState().selectNode(d.node)}
    />
  );
}

function BinShape(p: BarShapeProps) {
  const b = p.payload as Bin;
  if (!b.count) return <g />;
  // A bin of one node among hundreds stays visible.
  const h = Math.max(3, p.height);
  return (
    <rect
      x={p.x}
      y={p.y + p.height - h}
      width={Math.max(1, p.width)}
      height={h}
      rx={2}
      className={`skew-bar skew-tone--${b.tone}`}
      data-testid="skew-bin"
      data-count={b.count}
      data-from={b.from}
    />
  );
}

function NodeTip(p: TooltipContentProps & { first: string; t: T }) {
  const { t } = p;
  const d = p.payload?.[0]?.payload as Datum | undefined;
  if (!p.active || !d) return null;
  return (
    <div className="tl-tip skew-tip">
      <strong className="tl-tip__title">{d.node}</strong>
      <span className="tl-tip__line">
        {t('skew.tip.launched', { lag: formatDuration(t.lang, d.lag), first: p.first })}
      </span>
      <span className="tl-tip__line">
        {d.crossed
          ? t('skew.tip.past', {
              line: limitLabel(t, d.crossed),
              by: formatDuration(t.lang, d.lag - d.crossed.seconds),
            })
          : t('skew.tip.within')}
      </span>
    </div>
  );
}

function BinTip(p: TooltipContentProps & { t: T }) {
  const { t } = p;
  const b = p.payload?.[0]?.payload as Bin | undefined;
  if (!p.active || !b) return null;
  return (
    <div className="tl-tip skew-tip">
      <strong className="tl-tip__title">
        {t('skew.tip.bin', { n: b.count, from: formatTick(t, b.from), to: formatTick(t, b.to) })}
      </strong>
      {b.nodes.length > 0 && (
        <span className="tl-tip__line">
          {b.nodes.join(', ')}
          {b.count > b.nodes.length ? ', …' : ''}
        </span>
      )}
      {b.crossed && <span className="tl-tip__line">{t('skew.tip.binPast', { line: limitLabel(t, b.crossed) })}</span>}
    </div>
  );
}
