import type { ClockOffset, LogEvent } from '../model';

// All agents leave a rendezvous round at nearly the same instant (the last join completes it for everyone;
// on one machine the corpus shows < 10 ms of spread). So the spread of "Rendezvous complete" times across
// nodes is the spread of their clocks. A whole number of hours is a time zone, not a clock error.

/** Agents on one clock leave within this much of each other (scheduling, polling), on top of resolution. */
const LEAVE_SPREAD_S = 0.25;
/** World sizes per node compared (a log appended to across many restarts may show many). */
const MAX_WORLDS = 64;
/** Offsets smaller than this are not worth reporting. */
const MIN_REPORT_S = 2;
/** How close to a whole hour an offset must be to count as a time-zone difference. */
const HOUR_SLACK_S = 90;
/** Zones run from UTC−12 to UTC+14: two clocks further apart than that differ by more than a zone. */
const MAX_ZONE_HOURS = 26;

export function estimateClockOffsets(
  eventsByNode: Map<string, LogEvent[]>,
  timeOfFor: (node: string) => (e: LogEvent) => number | null,
  correctClocks: boolean,
): ClockOffset[] {
  // Each node's first release, and for each world size the first release of that size each node took part
  // in: a node that joined a later round (an elastic scale-up, world 3 → 4) left with the others of that
  // round, so it is compared with their release of it, not with their first.
  const leaves: { node: string; t: number; resS: number; e: LogEvent; world: string }[] = [];
  const firstOfWorld = new Map<string, number[]>();
  for (const [node, evs] of eventsByNode) {
    const timeOf = timeOfFor(node);
    const seen = new Set<string>();
    let first: (typeof leaves)[number] | null = null;
    for (const e of evs) {
      if (e.kind !== 'rendezvous-complete' || seen.size >= MAX_WORLDS) continue;
      const world = e.fields.group_world_size ?? '';
      const t = timeOf(e);
      if (t === null || seen.has(world)) continue;
      seen.add(world);
      const round = firstOfWorld.get(world);
      if (round) round.push(t);
      else firstOfWorld.set(world, [t]);
      if (first === null && (e.fields.restart_count ?? '0') === '0') {
        const resMs = Math.max(...e.clocks.map((c) => c.resolutionMs));
        first = { node, t, resS: resMs / 1000, e, world };
      }
    }
    if (first) leaves.push(first);
  }
  if (leaves.length < 2) return [];
  const medianOf = (ts: number[]) => [...ts].sort((a, b) => a - b)[Math.floor((ts.length - 1) / 2)]!;
  const out: ClockOffset[] = [];
  for (const l of leaves) {
    const round = firstOfWorld.get(l.world)!;
    if (round.length < 2) continue;
    const offset = (l.t - medianOf(round)) / 1000;
    const bound = round2(l.resS + LEAVE_SPREAD_S);
    if (Math.abs(offset) < Math.max(MIN_REPORT_S, bound)) continue;
    const hours = Math.round(offset / 3600);
    const tz = hours !== 0 && Math.abs(hours) <= MAX_ZONE_HOURS && Math.abs(offset - hours * 3600) <= HOUR_SLACK_S;
    out.push({
      node: l.node,
      offsetSeconds: tz ? hours * 3600 : round2(offset),
      boundSeconds: bound,
      kind: tz ? 'time-zone' : 'clock',
      applied: tz || correctClocks,
      evidence: { file: l.e.file, line: l.e.line, text: l.e.text },
    });
  }
  return out;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
