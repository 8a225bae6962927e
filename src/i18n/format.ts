// Numbers, durations, sizes and lists as each language writes them. Plural-free: a count stands before a
// noun that does not change ("4 nodes" is phrased "nodes: 4" where one would read wrong), so no language
// needs plural rules here.
import { t } from './translate';
import { LANG_TAG, type Lang } from './types';

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number with the language's digit grouping (1,024) and at most `digits` decimals. */
export function formatNumber(lang: Lang, n: number, digits = 3): string {
  const key = `${lang}:${digits}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(LANG_TAG[lang], { maximumFractionDigits: digits });
    numberFormats.set(key, f);
  }
  return f.format(n);
}

const minus = (n: number) => (n < 0 ? '−' : '');

/** Seconds for a headline or a table: `45.1 s`, `2.00 s`, `5 min 45 s`. */
export function formatSeconds(lang: Lang, seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs >= 120) {
    const m = Math.floor(abs / 60);
    return minus(seconds) + t(lang, 'unit.minSec', { m: String(m), s: String(Math.round(abs - m * 60)) });
  }
  return t(lang, 'unit.s', { n: seconds.toFixed(abs >= 10 ? 1 : 2) });
}

/** A duration for tooltips and bars: `48.49 s`, `5 min 34 s`, `120 ms`. */
export function formatDuration(lang: Lang, s: number): string {
  // Nothing is 0 s, as the seconds beside it are (not "0 ms" in a column of seconds); a fraction of one is ms.
  if (s === 0) return t(lang, 'unit.s', { n: '0' });
  if (s < 1) return t(lang, 'unit.ms', { n: String(Math.round(s * 1000)) });
  if (s >= 120) {
    const m = Math.floor(s / 60);
    return t(lang, 'unit.minSec', { m: String(m), s: String(Math.round(s - m * 60)) });
  }
  return t(lang, 'unit.s', { n: s.toFixed(s >= 10 ? 1 : 2) });
}

/** Seconds after the origin as an axis label: `+45 s`, `+1.25 s`, `+5 min`, `+6 min 30 s`, `−6 s`. */
export function formatOffset(lang: Lang, s: number, step = 1): string {
  const sign = s < 0 ? '−' : s > 0 ? '+' : '';
  const a = Math.abs(s);
  if (a >= 120 && step >= 1) {
    const m = Math.floor(a / 60);
    const rest = Math.round(a - m * 60);
    return (
      sign + (rest ? t(lang, 'unit.minSec', { m: String(m), s: String(rest) }) : t(lang, 'unit.min', { m: String(m) }))
    );
  }
  const decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
  return sign + t(lang, 'unit.s', { n: a.toFixed(decimals) });
}

/** Whole seconds as a limit is written: `30 s`, `1800 s` (no grouping: it is the value to type). */
export function formatLimit(lang: Lang, seconds: number): string {
  return t(lang, 'unit.s', { n: String(seconds) });
}

/** Hours of a time-zone difference: `+1 h`, `−5.5 h`. */
export function formatHours(lang: Lang, hours: number): string {
  return (hours < 0 ? '−' : '+') + t(lang, 'unit.h', { n: String(+Math.abs(hours).toFixed(2)) });
}

/** A size in bytes: `0 B`, `40.2 KiB`, `1.5 GiB` (binary units, written the same in every language). */
export function formatBytes(lang: Lang, bytes: number): string {
  if (bytes < 1024) return `${formatNumber(lang, bytes, 0)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** `a`, `a and b`, `a, b and c` — or `a、b 和 c`. */
export function listText(lang: Lang, items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return t(lang, 'list.and', { rest: items.slice(0, -1).join(t(lang, 'list.sep')), last: items[items.length - 1]! });
}

/**
 * The first `shown` items and how many more: `a, b, c and 5 more`. `total` counts items beyond those given (a
 * list the analysis cut to its first few).
 */
export function listSome(lang: Lang, items: readonly string[], shown = 4, total = items.length): string {
  if (total <= shown && items.length === total) return listText(lang, items);
  const named = items.slice(0, Math.min(shown - 1, items.length));
  return t(lang, 'list.more', { list: named.join(t(lang, 'list.sep')), n: total - named.length });
}
