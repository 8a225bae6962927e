// The visible time window of the timeline (seconds after the origin) and the arithmetic on it: zoom around a
// point, pan, fit, and the tick marks of the axis.

export interface View {
  start: number;
  end: number;
}

export const MIN_SPAN_S = 0.02;
export const MAX_SPAN_S = 4 * 3600;
export const ZOOM_STEP = 1.5;

/** The whole data range with a little room on both sides. */
/** Room kept at each end of the whole job's view, px: half a marker and its count badge. */
const EDGE_PX = 16;

/**
 * The whole of `start`…`end` with a margin: 4 % of it, or on a narrow plot (`widthPx`, a phone) at least enough
 * that a marker at either end is drawn whole.
 */
export function fitView(start: number, end: number, widthPx = 0): View {
  const span = Math.max(end - start, 1);
  const edge = widthPx > 4 * EDGE_PX ? (span * EDGE_PX) / (widthPx - 2 * EDGE_PX) : 0;
  const pad = Math.max(span * 0.04, edge);
  return { start: start - pad, end: end + pad };
}

/** Zoom by `factor` (> 1 zooms in) keeping the instant at fraction `at` (0 = left edge) where it is. */
export function zoomView(v: View, factor: number, at = 0.5): View {
  const span = v.end - v.start;
  const next = Math.min(MAX_SPAN_S, Math.max(MIN_SPAN_S, span / factor));
  const pivot = v.start + span * at;
  return { start: pivot - next * at, end: pivot - next * at + next };
}

export function panView(v: View, bySeconds: number): View {
  return { start: v.start + bySeconds, end: v.end + bySeconds };
}

/** The view that shows `start`…`end` with a margin of `pad` (a fraction of the span) on both sides. */
export function spanView(start: number, end: number, pad = 0.08): View {
  const span = Math.max(end - start, MIN_SPAN_S);
  const mid = (start + end) / 2;
  const half = Math.min(MAX_SPAN_S, span * (1 + 2 * pad)) / 2;
  return { start: mid - half, end: mid + half };
}

/** The view widened just enough to show `s`, with a margin. */
export function includeView(v: View, s: number): View {
  if (s >= v.start && s <= v.end) return v;
  const start = Math.min(v.start, s);
  const end = Math.max(v.end, s);
  const pad = (end - start) * 0.05;
  return { start: s < v.start ? start - pad : start, end: s > v.end ? end + pad : end };
}

/** Round numbers for ticks: 1, 2, 5 × 10^k seconds, then minutes and hours. */
const STEPS = [
  0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200,
];

export function ticks(v: View, widthPx: number, minGapPx = 84): { step: number; values: number[] } {
  const span = v.end - v.start;
  const want = Math.max(2, Math.floor(widthPx / minGapPx));
  const step = STEPS.find((s) => span / s <= want) ?? 3600 * Math.ceil(span / want / 3600);
  const values: number[] = [];
  for (let t = Math.ceil(v.start / step) * step; t <= v.end + 1e-9; t += step) values.push(Math.round(t * 1000) / 1000);
  return { step, values };
}

/** An instant on the job clock: `18:30:40.510 UTC`, with the date when asked. */
export function formatClock(ms: number, withDate = false): string {
  const iso = new Date(ms).toISOString();
  return `${withDate ? `${iso.slice(0, 10)} ` : ''}${iso.slice(11, 23)} UTC`;
}
