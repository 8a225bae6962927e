export function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
}

const ISO = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d{1,3})?\d*(Z|[+-]\d\d:?\d\d)?$/;

/** Job-clock instants are ISO strings; show them readably without re-interpreting the zone. */
export function formatInstant(iso: string): string {
  const m = ISO.exec(iso);
  if (!m) return iso;
  const [, date, time, fraction = '', zone] = m;
  const zoneText = zone === 'Z' ? ' UTC' : zone ? ` ${zone}` : '';
  return `${date} ${time}${fraction}${zoneText}`;
}
