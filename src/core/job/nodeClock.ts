import { effectsOf } from '../catalogue';
import type { Clock, ClockOffset, FileExtract, LogEvent, Note, Overrides } from '../model';
import { makeClock } from '../time';
import { bestClock, buildJobClock } from './clock';
import { estimateClockOffsets } from './offsets';

// One clock for the whole job: each line's own clock, the job's year and zone decisions, and the measured
// offsets of nodes whose clocks disagree at the rendezvous (time zones always corrected, clock errors on request).

export interface NodeClocks {
  /** Instant (ms) of an event on the job clock, for a node. */
  timeOf(nodeId: string): (e: LogEvent) => number | null;
  /** Instant (ms) of a line's clocks in a file of a node. */
  instantFor(nodeId: string): (clocks: Clock[], file: string) => number | null;
  offsets: ClockOffset[];
  notes: Note[];
}

/**
 * A time a message states in a field, as a clock for a line that has none (local time): ChildFailedError's
 * `time : 2026-11-29_18:40:42`, CANN's `2025-06-02-10:03:48.151.903` (milliseconds, then microseconds).
 */
const FIELD_TIME = /^(\d{4})-(\d{2})-(\d{2})[_-](\d{2}):(\d{2}):(\d{2})(?:\.(\d{3})(?:\.\d{3})?)?$/;

/** What `date` prints in the C locale: `Mon Mar  4 10:02:17 UTC 2024` (a zone name or `+0800`, or none). */
const DATE_OUTPUT =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?: ([AP]M))?(?: ([A-Z]{2,5}|[+-]\d{4}))? (\d{4})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A `date` output as a clock: UTC/GMT and numeric offsets are zones; other zone names are local time. */
function dateOutputClock(t: string): Clock | null {
  const m = DATE_OUTPUT.exec(t);
  if (!m) return null;
  let hour = Number(m[3]);
  if (m[6] === 'PM' && hour < 12) hour += 12;
  if (m[6] === 'AM' && hour === 12) hour = 0;
  const zone = m[7];
  const offsetMinutes =
    zone === 'UTC' || zone === 'GMT'
      ? 0
      : zone && /^[+-]\d{4}$/.test(zone)
        ? (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3)))
        : null;
  return makeClock('date', t, {
    year: Number(m[8]),
    month: MONTHS.indexOf(m[1]!) + 1,
    day: Number(m[2]),
    hour,
    minute: Number(m[4]),
    second: Number(m[5]),
    offsetMinutes,
  });
}

function fieldClock(e: LogEvent): Clock | null {
  const field = effectsOf(e.id).timeField;
  const t = field ? e.fields[field]?.trim() : undefined;
  if (t && /^[A-Z][a-z]{2} /.test(t)) return dateOutputClock(t);
  const m = t ? FIELD_TIME.exec(t) : null;
  if (!m) return null;
  const [Y, M, D, h, mi, s] = m.slice(1, 7).map(Number) as number[];
  return makeClock('stated-time', t!, {
    year: Y!,
    month: M!,
    day: D!,
    hour: h!,
    minute: mi!,
    second: s!,
    frac: m[7],
  });
}

/** Events whose line has no clock but whose fields state a time get that time as their clock. */
export function withFieldClocks(evs: LogEvent[]): LogEvent[] {
  return evs.map((e) => {
    if (e.clocks.length > 0) return e;
    const fc = fieldClock(e);
    return fc ? { ...e, clocks: [fc] } : e;
  });
}

export function nodeClocks(
  usable: FileExtract[],
  eventsByNode: Map<string, LogEvent[]>,
  nowMs: number,
  overrides: Overrides,
  correctClocks: boolean,
): NodeClocks {
  const clock = buildJobClock(usable, eventsByNode, nowMs, overrides);
  const notes = [...clock.notes];
  const frozen = frozenSources(eventsByNode);
  const live = (clocks: Clock[], file: string) => {
    const f = frozen.get(file);
    return f ? clocks.filter((c) => !f.has(c.source)) : clocks;
  };
  const rawTimeOf = (nodeId: string) => (e: LogEvent) => {
    const c = bestClock(live(e.clocks, e.file));
    return c ? clock.instant(c, nodeId, e.file) : null;
  };
  const offsets = estimateClockOffsets(eventsByNode, rawTimeOf, correctClocks);
  const correction = new Map(offsets.filter((o) => o.applied).map((o) => [o.node, o.offsetSeconds * 1000]));
  for (const o of offsets) {
    if (o.kind === 'time-zone')
      notes.push({ code: 'tz-corrected', values: { node: o.node, hours: o.offsetSeconds / 3600 } });
    else if (o.applied)
      notes.push({
        code: 'clock-corrected',
        values: { node: o.node, seconds: o.offsetSeconds, bound: o.boundSeconds },
      });
  }
  const instantFor = (nodeId: string) => {
    const corr = correction.get(nodeId) ?? 0;
    return (clocks: Clock[], file: string): number | null => {
      const c = bestClock(live(clocks, file));
      if (!c) return null;
      const t = clock.instant(c, nodeId, file) - corr;
      return Number.isFinite(t) ? t : null;
    };
  };
  return {
    instantFor,
    timeOf: (nodeId) => {
      const at = instantFor(nodeId);
      return (e) => at(e.clocks, e.file);
    },
    offsets,
    notes,
  };
}

/** Events a clock must stamp alike before it counts as stopped. */
const FROZEN_MIN_EVENTS = 4;

/**
 * Per file, the clock sources that never move while another on the same lines does: a log export that stamped
 * every line with its ingest time (CloudWatch, a collector's batch), in front of PyTorch's own times. Such a
 * stamp says when the lines were shipped, not when they were printed, and would make every node start at once.
 */
function frozenSources(eventsByNode: Map<string, LogEvent[]>): Map<string, Set<string>> {
  const seen = new Map<string, Map<string, { n: number; texts: Set<string> }>>();
  for (const evs of eventsByNode.values())
    for (const e of evs) {
      if (e.clocks.length < 2) continue;
      let bySource = seen.get(e.file);
      if (!bySource) seen.set(e.file, (bySource = new Map()));
      for (const c of e.clocks) {
        const got = bySource.get(c.source) ?? { n: 0, texts: new Set<string>() };
        got.n++;
        if (got.texts.size < 2) got.texts.add(c.text);
        bySource.set(c.source, got);
      }
    }
  const out = new Map<string, Set<string>>();
  for (const [file, bySource] of seen) {
    const moving = [...bySource.values()].some((g) => g.texts.size > 1);
    if (!moving) continue;
    const stopped = [...bySource].filter(([, g]) => g.texts.size === 1 && g.n >= FROZEN_MIN_EVENTS).map(([src]) => src);
    if (stopped.length) out.set(file, new Set(stopped));
  }
  return out;
}
