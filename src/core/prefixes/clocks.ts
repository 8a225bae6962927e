import type { Clock } from '../model';
import { makeClock, parseOffset } from '../time';
import type { Groups, ParsedLine } from './types';

// Clock readings from the named groups prefix regexes capture (Y M D h m s f z).

const num = (s: string | undefined) => Number(s ?? 0);

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
