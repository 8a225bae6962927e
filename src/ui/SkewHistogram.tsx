// The launch-skew histogram as plain SVG: a couple of dozen bins, the lines in force, two axes and a tooltip.
// Drawn here rather than by the charting library, which takes a few hundred milliseconds of main thread to mount
// its chart on a busy machine — the histogram is what a large job shows.
import { useLayoutEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { ThresholdLine } from '../core/timeline';
import type { SkewBin } from '../ingest/index';
import type { T } from './i18n';

export interface HistogramBin extends SkewBin {
  tone: string;
}

interface Props {
  t: T;
  bins: HistogramBin[];
  /** The axis' end (s): the last bin's end. */
  end: number;
  ticks: number[];
  lines: ThresholdLine[];
  /** Counts on a log scale (a few late nodes beside thousands). */
  log: boolean;
  height: number;
  label(l: ThresholdLine): string;
  lineClass(l: ThresholdLine): string;
  labelClass(l: ThresholdLine): string;
  tick(seconds: number): string;
  tip(bin: HistogramBin): ReactNode;
  /** Left and right margins of the plot, px (the tail strip under it lines up with them). */
  left: number;
  right: number;
}

const TOP = 26;
const BOTTOM = 28;

/** 1, 2 or 5 times a power of ten, about a quarter of `max`. */
function countStep(max: number): number {
  const raw = Math.max(1, max / 4);
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
}

export function SkewHistogram(p: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  const [hover, setHover] = useState<{ bin: HistogramBin; x: number; y: number } | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const read = () => setWidth(Math.max(160, el.clientWidth || 720));
    read();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, []);

  const plotW = Math.max(1, width - p.left - p.right);
  const plotH = Math.max(1, p.height - TOP - BOTTOM);
  const x = (s: number) => p.left + (Math.min(Math.max(s, 0), p.end) / Math.max(p.end, 1e-9)) * plotW;
  const maxCount = p.bins.reduce((m, b) => Math.max(m, b.count), 0);
  const value = (count: number) => (p.log ? (count > 0 ? Math.log10(count) + 1 : 0) : count);
  const yTicks = p.log
    ? Array.from({ length: Math.floor(Math.log10(Math.max(1, maxCount))) + 1 }, (_, i) => i + 1)
    : Array.from({ length: Math.floor(maxCount / countStep(maxCount)) + 1 }, (_, i) => i * countStep(maxCount));
  const top = Math.max(value(maxCount), yTicks.at(-1) ?? 1) * 1.06 || 1;
  const y = (v: number) => TOP + plotH - (v / top) * plotH;
  const base = TOP + plotH;

  const onMove = (e: MouseEvent<SVGRectElement>, bin: HistogramBin) => {
    const rect = box.current?.getBoundingClientRect();
    if (rect) setHover({ bin, x: e.clientX - rect.left, y: e.clientY - rect.top });
  };

  return (
    <div ref={box} className="skew-hist" style={{ height: p.height }}>
      <svg className="skew-svg" width={width} height={p.height} role="presentation" onMouseLeave={() => setHover(null)}>
        <g className="skew-grid">
          {yTicks.map((v) => (
            <line key={v} x1={p.left} x2={p.left + plotW} y1={y(v)} y2={y(v)} />
          ))}
        </g>
        <g className="skew-axis">
          <line className="skew-axis__line" x1={p.left} x2={p.left + plotW} y1={base} y2={base} />
          {p.ticks
            .filter((s) => s <= p.end)
            .map((s) => (
              <g key={s}>
                <line className="skew-axis__line" x1={x(s)} x2={x(s)} y1={base} y2={base + 5} />
                <text className="skew-axis__tick" x={x(s)} y={base + 18} textAnchor="middle">
                  {p.tick(s)}
                </text>
              </g>
            ))}
          {yTicks.map((v) => (
            <text key={v} className="skew-axis__tick" x={p.left - 6} y={y(v) + 4} textAnchor="end">
              {p.log ? String(10 ** (v - 1)) : String(v)}
            </text>
          ))}
        </g>
        {p.bins.map((b) =>
          b.count === 0 ? null : (
            <rect
              key={b.from}
              // A bin of one node among thousands stays visible.
              y={Math.min(y(value(b.count)), base - 3)}
              x={x(b.from) + 0.5}
              width={Math.max(1, x(b.to) - x(b.from) - 1)}
              height={Math.max(3, base - y(value(b.count)))}
              rx={2}
              className={`skew-bar skew-tone--${b.tone}`}
              data-testid="skew-bin"
              data-count={b.count}
              data-from={b.from}
              onMouseMove={(e) => onMove(e, b)}
            />
          ),
        )}
        {p.lines.map((l) => (
          <g key={l.key} className={p.lineClass(l)}>
            <line x1={x(l.seconds)} x2={x(l.seconds)} y1={TOP} y2={base} />
            <text className={p.labelClass(l)} x={x(l.seconds)} y={TOP - 6} textAnchor="middle">
              {p.label(l)}
            </text>
          </g>
        ))}
      </svg>
      {hover && (
        <div
          className="skew-hist__tip"
          style={{ left: Math.min(hover.x + 12, Math.max(0, width - 240)), top: Math.max(0, hover.y - 12) }}
        >
          {p.tip(hover.bin)}
        </div>
      )}
    </div>
  );
}
