// `t(lang, key, values)`: a message of the catalogue with its {placeholders} filled.
import { CATALOGUES, EN, type Catalogue, type Key } from './catalogue';
import { LANG_TAG, type Lang, type Params, type Value } from './types';

/** The values a message needs: none, or exactly its `{placeholders}`. */
export type ValuesOf<K extends Key> = [Params<Catalogue[K]>] extends [never]
  ? []
  : [values: { [P in Params<Catalogue[K]>]: Value }];

const PLACEHOLDER = /\{(\w+)\}/g;

const numbers = new Map<Lang, Intl.NumberFormat>();
function number(lang: Lang, n: number): string {
  let f = numbers.get(lang);
  if (!f) {
    f = new Intl.NumberFormat(LANG_TAG[lang], { maximumFractionDigits: 3 });
    numbers.set(lang, f);
  }
  return f.format(n);
}

/** Fills a message's placeholders: strings as they are, numbers with the language's grouping. */
export function fill(lang: Lang, message: string, values: Record<string, Value> | undefined): string {
  if (!values) return message;
  return message.replace(PLACEHOLDER, (whole, name: string) => {
    const v = values[name];
    return v === undefined ? whole : typeof v === 'number' ? number(lang, v) : v;
  });
}

/** The message `key` in `lang` with its placeholders filled. */
export function t<K extends Key>(lang: Lang, key: K, ...values: ValuesOf<K>): string {
  const message = CATALOGUES[lang]?.[key] ?? EN[key];
  return fill(lang, message, values[0] as Record<string, Value> | undefined);
}

/** The placeholder names of a message, in order of appearance (for tests and tools). */
export function placeholders(message: string): string[] {
  return [...message.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}
