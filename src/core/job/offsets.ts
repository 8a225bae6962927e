import type { ClockOffset, LogEvent } from '../model';

// All agents leave a rendezvous round at nearly the same instant (the last join completes it for everyone;
// on one machine the corpus shows < 10 ms of spread). So the spread of "Rendezvous complete" times across
// nodes is the spread of their clocks. A whole number of hours is a time zone, not a clock error.

/** Agents on one clock leave within this much of each other (scheduling, polling), on top of resolution. */
const LEAVE_SPREAD_S = 0.25;
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
  const leaves: { node: string; t: number; resS: number; e: LogEvent }[] = [];
  for (const [node, evs] of eventsByNode) {
    const e = evs.find((x) => x.kind === 'rendezvous-complete' && (x.fields.restart_count ?? '0') === '0');
    if (!e) continue;
    const t = timeOfFor(node)(e);
    if (t === null) continue;
    const resMs = Math.max(...e.clocks.map((c) => c.resolutionMs));
    leaves.push({ node, t, resS: resMs / 1000, e });
  }
  if (leaves.length < 2) return [];
  const sorted = leaves.map((l) => l.t).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const out: ClockOffset[] = [];
  for (const l of leaves) {
    const offset = (l.t - median) / 1000;
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
