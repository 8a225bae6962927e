import type { Clock } from '../model';
import { makeClock, parseOffset } from '../time';
import type { Groups, ParsedLine } from './types';

// Clock readings from the named groups prefix regexes capture (Y M D h m s f z).

/**
 * `Number(s ?? 0)`. Prefix groups are short digit runs (`\d{2}`, a pid), read seven times per clock: summed digit
 * by digit they skip Number's general string parsing (anything else still goes through Number).
 */
function num(s: string | undefined): number {
  if (s === undefined) return 0;
  const n = s.length;
  if (n === 0 || n > 15) return Number(s);
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number(s);
    v = v * 10 + d;
  }
  return v;
}

export function isoClock(source: string, g: Groups, text: string, zoned: boolean): Clock | null {
  return makeClock(source, text, {
    year: num(g.Y),
    month: num(g.M),
    day: num(g.D),
    hour: num(g.h),
    minute: num(g.m),
    second: num(g.s),
    frac: g.f,
    offsetMinutes: zoned ? parseOffset(g.z) : null,
  });
}

export function clockNoYear(source: string, g: Groups, text: string, resolutionMs?: number): Clock | null {
  return makeClock(source, text, {
    year: null,
    month: num(g.M),
    day: num(g.D),
    hour: num(g.h),
    minute: num(g.m),
    second: num(g.s),
    frac: g.f,
    ...(resolutionMs === undefined ? {} : { resolutionMs }),
  });
}

export function pushClock(out: ParsedLine, c: Clock | null): void {
  if (c) out.clocks.push(c);
}

export { num };
