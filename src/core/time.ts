import type { Clock } from './model';

/** Years a log line can honestly carry: a clock never set reads 1970; beyond 2999 the stamp is damaged or forged. */
export const MIN_YEAR = 1970;
export const MAX_YEAR = 2999;
/** UTC offsets run from −12:00 to +14:00; anything past ±18 h (ISO 8601's bound) is no zone. */
const MAX_OFFSET_MINUTES = 18 * 60;

// Clock readings keep what the line said (fields, quality, zone if stated). Turning them into instants needs
// decisions the line cannot make alone — which year, which zone — so those live in `toInstant`, with the
// assumption passed in and reported by the caller.

export function makeClock(
  source: string,
  text: string,
  f: {
    year: number | null;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
    frac?: string | undefined;
    offsetMinutes?: number | null;
    resolutionMs?: number;
  },
): Clock | null {
  const { month, day, hour, minute, second } = f;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  // A year or zone no clock prints (`0000-…`, `+99:99`) makes the reading unusable, not a date centuries away.
  if (f.year !== null && !(f.year >= MIN_YEAR && f.year <= MAX_YEAR)) return null;
  if (f.offsetMinutes != null && !(Math.abs(f.offsetMinutes) <= MAX_OFFSET_MINUTES)) return null;
  const frac = f.frac ?? '';
  const millis = frac ? Math.floor(Number((frac + '000').slice(0, 3))) : 0;
  const offsetMinutes = f.offsetMinutes ?? null;
  const quality = f.year === null ? 'no-year' : offsetMinutes === null ? 'no-zone' : 'full';
  const resolutionMs =
    f.resolutionMs ?? (frac.length >= 3 ? 1 : frac.length === 2 ? 10 : frac.length === 1 ? 100 : 1000);
  return { source, text, quality, year: f.year, month, day, hour, minute, second, millis, offsetMinutes, resolutionMs };
}

/** `Z`, `+08:00`, `-0500` → minutes east of UTC; NaN for a zone no clock prints (`+01:75`), which makeClock refuses. */
export function parseOffset(s: string | undefined): number | null {
  if (!s) return null;
  if (s === 'Z' || s === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(s);
  if (!m) return null;
  if (Number(m[3]) > 59) return NaN;
  const v = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -v : v;
}

/** Wall-clock fields read as if they were UTC, with `year` supplied where the clock has none. */
export function naiveMs(c: Clock, year: number): number {
  return Date.UTC(c.year ?? year, c.month - 1, c.day, c.hour, c.minute, c.second, c.millis);
}

/**
 * The instant a clock denotes. `assumedOffsetMinutes` is used only when the clock states no zone;
 * `yearFor` only when it has no year.
 */
export function toInstant(c: Clock, yearFor: (c: Clock) => number, assumedOffsetMinutes: number): number {
  const y = c.year ?? yearFor(c);
  const off = c.offsetMinutes ?? assumedOffsetMinutes;
  return naiveMs(c, y) - off * 60_000;
}

/** Year for a month/day clock given a reference date: pick the year that puts it nearest the reference. */
export function nearestYear(month: number, day: number, refMs: number): number {
  const ref = new Date(refMs);
  const y = ref.getUTCFullYear();
  let best = y;
  let bestDist = Infinity;
  for (const cand of [y - 1, y, y + 1]) {
    const d = Math.abs(Date.UTC(cand, month - 1, day) - refMs);
    if (d < bestDist) {
      bestDist = d;
      best = cand;
    }
  }
  return best;
}

export { parseTimedelta } from './durations';

export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** The ISO instant of `ms`, or null when it is not a representable date (a duration read from a hostile line). */
export function isoOrNull(ms: number): string | null {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}
