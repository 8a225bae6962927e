import type { StatedDuration } from './catalogue';
import { boundedSeconds, MAX_DURATION_S } from './numbers';

// The one reader of durations a message states (`after 30000ms`, `after 60s`, `timeout=0:30:00`): which field
// and unit is the catalogue entry's to say; the number is range-checked here.

/** `0:30:00`, `1 day, 0:00:00` (Python timedelta str) → seconds. */
export function parseTimedelta(s: string): number | null {
  const m = /^(?:(\d{1,6}) days?, )?(\d{1,6}):(\d{2}):(\d{2}(?:\.\d{1,9})?)$/.exec(s.trim());
  if (!m) return null;
  const v = Number(m[1] ?? 0) * 86400 + Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  return v <= MAX_DURATION_S ? v : null;
}

/** Seconds of a duration an event's fields state, or null when absent or absurd. */
export function statedSeconds(fields: Record<string, string>, d: StatedDuration): number | null {
  const raw = fields[d.field];
  if (raw === undefined) return null;
  switch (d.unit) {
    case 'timedelta':
      return parseTimedelta(raw);
    case 'unit-field':
      return boundedSeconds(raw, fields.unit === 'ms' ? 'ms' : 's');
    default:
      return boundedSeconds(raw, d.unit);
  }
}
