import { effectsOf } from '../catalogue';
import type { Clock, FileExtract, LogEvent, Note, Overrides } from '../model';
import { naiveMs, nearestYear, toInstant } from '../time';

// The job clock: one timeline for every node. Lines print their own clocks — some zoned (kubectl
// --timestamps), most local without zone, some without a year. The choices made here (which year, which
// zone) are reported as notes, never made silently.

export interface JobClock {
  /** Instant of a clock in ms, for the given node and the file the line came from. */
  instant(c: Clock, nodeKey: string, file: string): number;
  notes: Note[];
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
  const notes: Note[] = [];
  // Reference for years: any dated clock in the job, else the files' modification times.
  let refMs: number | null = null;
  let refNote: Note | null = null;
  outer: for (const evs of eventsByNode.values()) {
    for (const e of evs) {
      for (const c of e.clocks) {
        if (c.year !== null) {
          refMs = naiveMs(c, c.year);
          refNote = { code: 'year-from-line', values: { file: e.file, line: e.line } };
          break outer;
        }
      }
      const tf = effectsOf(e.id).timeField;
      const ct = tf ? e.fields[tf] : undefined;
      const at = ct ? Date.parse(ct.trim().replace('_', 'T') + 'Z') : NaN;
      if (Number.isFinite(at)) {
        refMs = at;
        refNote = { code: 'year-from-child-failed', values: { file: e.file, line: e.line } };
        break outer;
      }
    }
  }
  if (refMs === null) {
    const mt = extracts.map((x) => x.mtimeMs).find((m): m is number => typeof m === 'number' && m > 0);
    if (mt) {
      refMs = mt;
      refNote = { code: 'year-from-mtime', values: {} };
    }
  }
  let yearNoted = false;
  const yearFor = (c: Clock): number => {
    if (!yearNoted) {
      yearNoted = true;
      notes.push(refNote ?? { code: 'year-assumed', values: { year: new Date(nowMs).getUTCFullYear() } });
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
        if (off !== 0) notes.push({ code: 'zone-learned', values: { node, hours: off / 60 } });
      }
    }
  }
  if (anyNaive && learned.size === 0) {
    notes.push({ code: 'zone-assumed', values: {} });
  }
  const fileYear = overrides.fileYear ?? {};
  const fileOffset = overrides.fileOffsetMinutes ?? {};
  const given = [...Object.keys(fileYear), ...Object.keys(fileOffset)];
  if (given.length) notes.push({ code: 'set-by-hand', values: { files: [...new Set(given)] } });
  return {
    instant: (c, node, file) => {
      const y = fileYear[file];
      const yearOf = y === undefined ? yearFor : () => y;
      return toInstant(c, yearOf, fileOffset[file] ?? learned.get(node) ?? 0);
    },
    notes,
  };
}
