export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatSeconds(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs >= 120) {
    const minutes = Math.floor(abs / 60);
    return `${seconds < 0 ? '−' : ''}${minutes} min ${Math.round(abs - minutes * 60)} s`;
  }
  return `${seconds.toFixed(abs >= 10 ? 1 : 2)} s`;
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

export function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
}

export function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
