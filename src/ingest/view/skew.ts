import type { ThresholdLine } from '../../core/timeline';
import type { JobView } from './types';

// The launch-skew chart's model: each placed node's lag against the limits that count from the job's first launch
// (and the 300/900/1800 s marks), the axis, the histogram's bins and the late tail. Made where the job is, so the
// chart only draws: on 4,096 nodes the page sorts and bins nothing.

export interface SkewPoint {
  node: string;
  lag: number;
  /** Index in `lines` of the highest line the lag crossed, -1 for none. */
  crossed: number;
  /** The node's place in the job's own order. */
  index: number;
}

export interface SkewBin {
  from: number;
  to: number;
  mid: number;
  count: number;
  /** The first few nodes in it, for the tooltip. */
  nodes: string[];
  /** The highest line crossed by the latest node in it, -1 for none. */
  crossed: number;
}

export interface SkewModel {
  /** Lines anchored at the job's first launch, one per distinct value, lowest first. */
  lines: ThresholdLine[];
  /** Placed nodes, latest first (equal lags in node order). */
  points: SkewPoint[];
  /** Nodes without a launch time: how many, and the first few by name. */
  unplaced: { count: number; first: string[] };
  /** The node the lags count from (lag 0), when there is one. */
  first: string | null;
  maxLag: number;
  domainMax: number;
  ticks: number[];
  bins: SkewBin[];
  /** The late outliers to mark on the histogram: the diagnosis' late nodes (the worst of them), latest first. */
  tail: SkewPoint[];
  /** How many late nodes the tail stands for (it draws at most TAIL_SHOWN of them). */
  tailCount: number;
}

const STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
const TAIL_SHOWN = 64;
const SHOWN_UNPLACED = 6;

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare;

export function skewModel(
  job: Pick<JobView, 'nodes'>,
  thresholds: ThresholdLine[],
  late: readonly string[],
): SkewModel {
  const anchored = thresholds.filter((l) => l.anchor === 'job');
  const lines = anchored
    .filter((l, i) => anchored.findIndex((o) => o.seconds === l.seconds) === i)
    .sort((a, b) => a.seconds - b.seconds);
  const crossedBy = (lag: number) => {
    let idx = -1;
    for (let i = 0; i < lines.length; i++) if (lag >= lines[i]!.seconds) idx = i;
    return idx;
  };
  const points: SkewPoint[] = [];
  const unplaced: string[] = [];
  job.nodes.forEach((n, index) => {
    if (n.lagSeconds === null) unplaced.push(n.id);
    else points.push({ node: n.id, lag: n.lagSeconds, crossed: crossedBy(n.lagSeconds), index });
  });
  points.sort((a, b) => b.lag - a.lag || byName(a.node, b.node));
  unplaced.sort(byName);
  const maxLag = points.length ? Math.max(0, points[0]!.lag) : 0;
  const first = job.nodes.find((n) => n.lagSeconds === 0)?.id ?? null;

  // The scale: the latest node, and the next line above it when it is close enough to compare with.
  const above = lines.find((l) => l.seconds > maxLag);
  const reach = above && above.seconds <= (above.kind === 'limit' ? 4 : 2.5) * Math.max(maxLag, 1) ? above.seconds : 0;
  const want = Math.max(maxLag * 1.08, reach * 1.04, 1);
  const tickStep = STEPS.find((st) => want / st <= 6) ?? Math.ceil(want / 6 / 3600) * 3600;
  const domainMax = Math.ceil(want / tickStep) * tickStep;
  const ticks = Array.from({ length: Math.round(domainMax / tickStep) + 1 }, (_, i) => i * tickStep);

  const width = STEPS.find((s) => domainMax / s <= 24) ?? Math.ceil(domainMax / 24);
  const count = Math.max(1, Math.ceil(domainMax / width));
  const bins: SkewBin[] = Array.from({ length: count }, (_, i) => ({
    from: i * width,
    to: (i + 1) * width,
    mid: (i + 0.5) * width,
    count: 0,
    nodes: [],
    crossed: -1,
  }));
  const latest = new Array<number>(count).fill(-Infinity);
  // Earliest first, so each bin's first nodes are its earliest and its latest is the last seen.
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!;
    const at = Math.min(count - 1, Math.max(0, Math.floor(p.lag / width)));
    const b = bins[at]!;
    b.count += 1;
    if (b.nodes.length < 6) b.nodes.push(p.node);
    latest[at] = p.lag;
  }
  bins.forEach((b, i) => (b.crossed = crossedBy(Math.max(latest[i]!, b.from))));

  const lateSet = new Set(late);
  const lateTail = points.filter((p) => lateSet.has(p.node));
  return {
    lines,
    points,
    unplaced: { count: unplaced.length, first: unplaced.slice(0, SHOWN_UNPLACED) },
    first,
    maxLag,
    domainMax,
    ticks,
    bins,
    tail: lateTail.slice(0, TAIL_SHOWN),
    tailCount: lateTail.length,
  };
}
