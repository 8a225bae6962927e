import type { FileExtract } from '../../core/model';
import type { TimeGaps } from './types';

/** Which of each file's timestamps lack a year or a zone (the corrections a file can take). */
export function timeGaps(extracts: readonly FileExtract[]): Record<string, TimeGaps> {
  const out: Record<string, TimeGaps> = {};
  for (const x of extracts) {
    const gaps = { yearless: false, zoneless: false };
    for (const s of x.streams) {
      const lines = [...s.events, ...(s.firstLine ? [s.firstLine] : []), ...(s.lastLine ? [s.lastLine] : [])];
      for (const l of lines)
        for (const c of l.clocks) {
          if (c.year === null) gaps.yearless = true;
          if (c.offsetMinutes === null) gaps.zoneless = true;
        }
      if (gaps.yearless && gaps.zoneless) break;
    }
    out[x.file] = gaps;
  }
  return out;
}
