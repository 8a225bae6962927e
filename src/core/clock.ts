import type { Clock, FileExtract, LogEvent, Overrides } from './model';
import { naiveMs, nearestYear, toInstant } from './time';

// The job clock: one timeline for every node. Lines print their own clocks — some zoned (kubectl
// --timestamps), most local without zone, some without a year. The choices made here (which year, which
// zone) are reported as notes, never made silently.

export interface JobClock {
  /** Instant of a clock in ms, for the given node and the file the line came from. */
  instant(c: Clock, nodeKey: string, file: string): number;
  notes: string[];
}

const QUARTER_HOUR = 15 * 60_000;

export function bestClock(clocks: Clock[]): Clock | null {
  return clocks.find((c) => c.quality === 'full') ?? clocks.find((c) => c.quality === 'no-zone') ?? clocks[0] ?? null;
}

export function buildJobClock(
  extracts: FileExtract[],
  eventsByNode: Map<string, LogEvent[]>,
  nowMs: number,
  overrides: Overrides = {},
): JobClock {
  const notes: string[] = [];
  // Reference for years: any dated clock in the job, else the files' modification times.
  let refMs: number | null = null;
  let refWhy = '';
  outer: for (const evs of eventsByNode.values()) {
    for (const e of evs) {
      for (const c of e.clocks) {
        if (c.year !== null) {
          refMs = naiveMs(c, c.year);
          refWhy = `a dated line (${e.file}:${e.line})`;
          break outer;
        }
      }
      const ct = e.fields.time;
      if (e.id === 'child-failed' && ct && /^\d{4}-/.test(ct)) {
        refMs = Date.parse(ct.replace('_', 'T') + 'Z');
        refWhy = `ChildFailedError time (${e.file}:${e.line})`;
        break outer;
      }
    }
  }
  if (refMs === null) {
    const mt = extracts.map((x) => x.mtimeMs).find((m): m is number => typeof m === 'number' && m > 0);
    if (mt) {
      refMs = mt;
      refWhy = 'the files’ modification time';
    }
  }
  let yearNoted = false;
  const yearFor = (c: Clock): number => {
    if (!yearNoted) {
      yearNoted = true;
      notes.push(
        refMs === null
          ? `Timestamps without a year were placed in ${new Date(nowMs).getUTCFullYear()} (nothing in the logs states the year).`
          : `Timestamps without a year took their year from ${refWhy}.`,
      );
    }
    return nearestYear(c.month, c.day, refMs ?? nowMs);
  };

  // Per node: learn the offset of its zone-less clocks from lines that carry both a zoned and a local clock.
  const learned = new Map<string, number>();
  let anyNaive = false;
  for (const [node, evs] of eventsByNode) {
    for (const e of evs) {
      const zoned = e.clocks.find((c) => c.offsetMinutes !== null);
      const local = e.clocks.find((c) => c.offsetMinutes === null);
      if (local) anyNaive = true;
      if (zoned && local && !learned.has(node)) {
        const z = toInstant(zoned, yearFor, 0);
        const l = naiveMs(local, local.year ?? yearFor(local));
        const off = Math.round((l - z) / QUARTER_HOUR) * 15;
        learned.set(node, off);
        if (off !== 0)
          notes.push(`${node}: its own log times run ${off / 60} h from the collector's UTC time; corrected.`);
      }
    }
  }
  if (anyNaive && learned.size === 0) {
    notes.push('Log times carry no time zone; all nodes were read as being in the same zone (shown as UTC).');
  }
  const fileYear = overrides.fileYear ?? {};
  const fileOffset = overrides.fileOffsetMinutes ?? {};
  const given = [...Object.keys(fileYear), ...Object.keys(fileOffset)];
  if (given.length) notes.push(`Year or time zone set by hand for ${[...new Set(given)].join(', ')}.`);
  return {
    instant: (c, node, file) => {
      const y = fileYear[file];
      const yearOf = y === undefined ? yearFor : () => y;
      return toInstant(c, yearOf, fileOffset[file] ?? learned.get(node) ?? 0);
    },
    notes,
  };
}
