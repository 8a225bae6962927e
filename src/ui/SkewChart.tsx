import { lazy, memo, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ThresholdLine } from '../core/timeline';
import type { SkewModel, SkewPoint } from '../ingest/index';
import { SkewHistogram, type HistogramBin } from './SkewHistogram';

// The charting library draws the bars of up to 64 nodes; it is most of the bundle's weight, and a large job shows
// the histogram (drawn here): it loads only when bars are shown.
const SkewBars = lazy(() => import('./SkewBars'));
import { useViewStore } from '../state/view';
import { formatDuration, formatLimit, listSome } from '../i18n/index';
import { Rich, useT, type T } from './i18n';
import { limitLabel } from './timeline/labels';
import './timeline/timeline.css';
import './views.css';

// How far each node launched behind the earliest one, against the limits that count from the launch (the
// rendezvous timeouts, the ≤ 2.3 rank-assignment wait) and the 300/900/1800 s marks. Each bar takes the colour
// of the highest line its node crossed. Past 64 nodes a histogram of the lags reads better (a toggle switches):
// on a log scale when a few late nodes sit beside thousands on time, with the late ones marked in a strip
// under it. The model (sorting, binning, the axis) is made where the job is (src/ingest/view/skew.ts).

interface Props {
  skew: SkewModel;
  /**
   * How many files the drop being read holds (0 once it is read): a large drop shows the histogram from its first
   * partial view on, instead of mounting the bars' chart for a few dozen nodes and swapping it out a moment later.
   */
  expected?: number;
}

const HISTOGRAM_FROM = 64;
/** Nodes in the chart's table for screen readers: the latest, as the bars show them. */
const HIDDEN_ROWS = 64;
const MAX_BARS = 64;
const PALETTE = 5;
/** The histogram counts on a log scale when its fullest bin holds this many times its emptiest non-empty one. */
const LOG_RATIO = 20;
/** The plot's margins in px, as the histogram's BarChart gets them (the tail strip lines up with its axis). */
const PLOT_LEFT = 44;
const PLOT_RIGHT = 24;

const toneOf = (crossed: number) => (crossed < 0 ? 'ok' : String(Math.min(PALETTE, crossed + 1)));

type Datum = SkewPoint & { tone: string };
type Bin = HistogramBin;

export const SkewChart = memo(function SkewChart({ skew, expected = 0 }: Props) {
  const t = useT();
  const { lines, points, unplaced, maxLag, domainMax, ticks: axisTicks } = skew;
  // The histogram past 64 nodes, bars below, until the reader picks one: the choice is theirs from then on, the
  // default follows the job as it grows while a drop is read.
  const [choice, setHistogram] = useState<boolean | null>(null);
  const histogram = choice ?? Math.max(points.length, expected) > HISTOGRAM_FROM;
  const selected = useViewStore((s) => s.selectedNode);
  const chartRef = useRef<HTMLDivElement>(null);
  // Its width only re-renders the chart on a resize, so the labels are laid out again (not when first measured:
  // the labels are laid out after the first render anyway, and a chart of 24 bins takes a while to redraw).
  const chartW = useRef(0);
  // Line labels above the chart overlap on a narrow one (a phone): the line the latest node crossed keeps its
  // label, then the other limits in force, the others give way; the legend and the summary below name every line. Read once the frame is laid out and painted, and
  // only when the labels or the chart's width change: reading boxes in the commit laid out the whole page inside
  // it (100–260 ms at 4,096 nodes, on every partial view of a large drop).
  const labelKey = `${lines.map((l) => `${l.key}@${l.seconds}`).join(',')}|${domainMax}|${skew.bins.at(-1)?.to ?? 0}`;
  const [chartWidth, setChartW] = useState(0);
  useEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    let timer = 0;
    let frame = 0;
    const check = () => {
      frame = 0;
      timer = window.setTimeout(() => {
        timer = 0;
        const texts = [...el.querySelectorAll<SVGTextElement>('text.skew-ref__label')];
        // The line the latest node crossed first, then the other limits in force, then the reference marks.
        const rank = (t: Element) =>
          t.classList.contains('is-crossed') ? 0 : t.classList.contains('skew-ref__label--limit') ? 1 : 2;
        const kept: DOMRect[] = [];
        for (const text of texts.sort((a, b) => rank(a) - rank(b))) {
          text.style.visibility = '';
          const box = text.getBoundingClientRect();
          const clash = kept.some(
            (k) => box.left < k.right + 6 && box.right > k.left - 6 && box.top < k.bottom && box.bottom > k.top,
          );
          if (clash) text.style.visibility = 'hidden';
          else kept.push(box);
        }
      }, 0);
    };
    const schedule = () => {
      if (!frame && !timer) frame = requestAnimationFrame(check);
    };
    schedule();
    // The bars' chart draws its labels in renders of its own (and loads after the chart): check them again then.
    const mo = typeof MutationObserver === 'undefined' ? null : new MutationObserver(schedule);
    mo?.observe(el, { childList: true, subtree: true });
    return () => {
      mo?.disconnect();
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [labelKey, chartWidth, histogram]);
  useLayoutEffect(() => {
    const el = chartRef.current;
    if (!el) return;
    const read = () => {
      const w = el.clientWidth || 720;
      if (chartW.current !== 0 && chartW.current !== w) setChartW(w);
      chartW.current = w;
    };
    read();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, []);

  const lineOf = (i: number): ThresholdLine | null => (i < 0 ? null : lines[i]!);
  const data = useMemo<Datum[]>(() => points.map((p) => ({ ...p, tone: toneOf(p.crossed) })), [points]);
  const first = skew.first ?? t('skew.firstNode');
  const label = (l: ThresholdLine) => limitLabel(t, l);

  const shownLines = lines.filter((l) => l.seconds <= domainMax);
  const offScale = lines.filter((l) => l.seconds > domainMax);
  // Points are latest first: those past a line come first.
  const crossings = data.filter((d) => d.crossed >= 0);
  const topCrossed = crossings[0] ? lineOf(crossings[0].crossed)?.key : undefined;
  const refLabel = (l: ThresholdLine) =>
    ({
      value: label(l),
      position: 'top',
      className: `skew-ref__label skew-ref__label--${l.kind}${l.key === topCrossed ? ' is-crossed' : ''}`,
    }) as const;
  const usedTones = useMemo(() => new Set(data.map((d) => d.tone)), [data]);
  const crossedLines = useMemo(() => new Set(data.map((d) => d.crossed)), [data]);

  // Counts on a log scale when a few late nodes sit beside thousands (their bins would be a pixel high).
  const counts = skew.bins.map((b) => b.count).filter((c) => c > 0);
  const logScale = counts.length > 1 && Math.max(...counts) >= LOG_RATIO * Math.min(...counts);
  const bins = useMemo<Bin[]>(() => skew.bins.map((b) => ({ ...b, tone: toneOf(b.crossed) })), [skew.bins]);
  const histEnd = bins.length ? bins.at(-1)!.to : domainMax;
  // The axis' ticks over the bins' span: the model's, and more of them when the bins reach past its scale.
  const histTicks = axisTicks.length > 1 ? ticksOver(histEnd, axisTicks[1]! - axisTicks[0]!) : axisTicks;

  const title = (
    <h2 id="skew-title" className="skew__title">
      {t('skew.title')}
    </h2>
  );

  if (points.length < 2) {
    return (
      <section className="card skew" aria-labelledby="skew-title" data-testid="skew-chart">
        {title}
        <p className="skew__empty" data-testid="skew-empty">
          {points.length === 0
            ? t('skew.empty.none')
            : t('skew.empty.one', { node: points[0]!.node, n: unplaced.count })}{' '}
          <Rich text={t('skew.empty.why')} />
        </p>
      </section>
    );
  }

  // The latest nodes as bars, in the job's own order.
  const barRows = histogram ? [] : data.slice(0, MAX_BARS).sort((a, b) => a.index - b.index);
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
          <SkewHistogram
            t={t}
            bins={bins}
            end={histEnd}
            ticks={histTicks}
            lines={shownLines}
            log={logScale}
            height={height}
            label={label}
            lineClass={(l) => `skew-ref skew-ref--${l.kind}`}
            labelClass={(l) => refLabel(l).className}
            tick={(v) => formatTick(t, v)}
            tip={(b) => <BinTipBody bin={b} t={t} lineOf={lineOf} />}
            left={PLOT_LEFT}
            right={PLOT_RIGHT}
          />
        ) : (
          <Suspense fallback={<p className="muted">{t('skew.loading')}</p>}>
            <SkewBars
              t={t}
              rows={barRows}
              height={height}
              domainMax={domainMax}
              ticks={axisTicks}
              lines={shownLines}
              refLabel={refLabel}
              selected={selected}
              label={label}
              lineOf={lineOf}
              first={first}
              tick={(v) => formatTick(t, v)}
            />
          </Suspense>
        )}
      </div>

      {histogram && skew.tail.length > 0 && (
        <TailStrip skew={skew} end={histEnd} selected={selected} first={first} lineOf={lineOf} />
      )}

      <ul className="skew__legend" aria-label={t('skew.colours')}>
        {usedTones.has('ok') && (
          <li>
            <span className="skew-swatch skew-tone--ok" aria-hidden="true" />
            {t('skew.within')}
          </li>
        )}
        {lines.map((l, i) =>
          crossedLines.has(i) ? (
            <li key={l.key}>
              <span className={`skew-swatch skew-tone--${toneOf(i)}`} aria-hidden="true" />
              {t(l.kind === 'limit' ? 'skew.crossedInForce' : 'skew.crossed', { line: label(l) })}
            </li>
          ) : null,
        )}
        {histogram && logScale && <li className="muted">{t('skew.logCount')}</li>}
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
            {crossings.slice(0, 5).map((d) => {
              const line = lineOf(d.crossed)!;
              return (
                <li key={d.node} data-node={d.node} data-crossed={line.key}>
                  <strong>{d.node}</strong>{' '}
                  {t(line.kind === 'limit' ? 'skew.pastInForce' : 'skew.past', {
                    lag: formatDuration(t.lang, d.lag),
                    first,
                    line: label(line),
                    by: formatDuration(t.lang, d.lag - line.seconds),
                  })}
                </li>
              );
            })}
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
        {unplaced.count > 0 && (
          <p className="muted">{t('skew.notDrawn', { nodes: listSome(t.lang, unplaced.first, 6, unplaced.count) })}</p>
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
            {data.slice(0, HIDDEN_ROWS).map((d) => {
              const line = lineOf(d.crossed);
              return (
                <tr key={d.node}>
                  <th scope="row">{d.node}</th>
                  <td>{formatDuration(t.lang, d.lag)}</td>
                  <td>{line ? label(line) : t('nodes.none')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
});

/** The late nodes under the histogram, each a mark at its lag: the tail a count axis cannot show. */
function TailStrip({
  skew,
  end,
  selected,
  first,
  lineOf,
}: {
  skew: SkewModel;
  end: number;
  selected: string | null;
  first: string;
  lineOf(i: number): ThresholdLine | null;
}) {
  const t = useT();
  const select = useViewStore((s) => s.selectNode);
  return (
    <div className="skew-tail" data-testid="skew-tail" data-count={skew.tailCount}>
      <span className="skew-tail__label muted">{t('skew.tail')}</span>
      <div className="skew-tail__track" style={{ marginLeft: PLOT_LEFT, marginRight: PLOT_RIGHT }}>
        {skew.tail.map((p) => {
          const line = lineOf(p.crossed);
          const tip = `${p.node}: ${t('skew.tip.launched', { lag: formatDuration(t.lang, p.lag), first })}${
            line
              ? ` · ${t('skew.tip.past', { line: limitLabel(t, line), by: formatDuration(t.lang, p.lag - line.seconds) })}`
              : ''
          }`;
          return (
            <button
              type="button"
              key={p.node}
              className={`skew-tail__mark skew-tone--${toneOf(p.crossed)}${selected === p.node ? ' is-selected' : ''}`}
              style={{ left: `${Math.min(100, (p.lag / Math.max(end, 1e-9)) * 100)}%` }}
              title={tip}
              aria-label={tip}
              data-testid="skew-tail-mark"
              data-node={p.node}
              data-lag={p.lag}
              onClick={() => select(p.node)}
            />
          );
        })}
      </div>
      <p className="skew-tail__note muted">
        {skew.tailCount > skew.tail.length
          ? t('skew.tailNote', { shown: skew.tail.length, n: skew.tailCount })
          : t('skew.tailAll')}
      </p>
    </div>
  );
}

function formatTick(t: T, v: number): string {
  if (v >= 120) return t('unit.min', { m: String(Math.round(v / 60)) });
  return formatLimit(t.lang, Math.round(v * 10) / 10);
}

type LineOf = (i: number) => ThresholdLine | null;

function BinTipBody({ bin: b, t, lineOf }: { bin: Bin; t: T; lineOf: LineOf }) {
  const line = lineOf(b.crossed);
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
      {line && <span className="tl-tip__line">{t('skew.tip.binPast', { line: limitLabel(t, line) })}</span>}
    </div>
  );
}

/** Ticks every `step` seconds up to `end`. */
function ticksOver(end: number, step: number): number[] {
  return Array.from({ length: Math.floor(end / step + 1e-9) + 1 }, (_, i) => i * step);
}
