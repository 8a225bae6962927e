// Sentences the pure layers write — why a file was set aside, how the timeline placed an instant, why files are
// a node, what is wrong with a link or a digest: a key of the `core` messages (en/core.ts) and the values that
// fill it, worded in the reader's language where they are shown (the CLI words them in English unless told).
// They travel as data (workers, digests), so they hold strings, numbers and other sentences only.
import { CATALOGUES, EN } from './catalogue';
import { core } from './en/core';
import { fill } from './translate';
import type { Lang, Params, Value } from './types';

export type SentenceKey = keyof typeof core;

/** A value of a sentence: text as is, a number (formatted for the language), or a sentence worded first. */
export type SentenceValue = Value | Sentence;

export interface Sentence {
  readonly key: SentenceKey;
  readonly values: Readonly<Record<string, SentenceValue>>;
}

type ArgsOf<K extends SentenceKey> = [Params<(typeof core)[K]>] extends [never]
  ? []
  : [values: { [P in Params<(typeof core)[K]>]: SentenceValue }];

/** The sentence `key` with exactly the values its `{placeholders}` name (the type check says which). */
export function sentence<K extends SentenceKey>(key: K, ...values: ArgsOf<K>): Sentence {
  return { key, values: (values[0] ?? {}) as Record<string, SentenceValue> };
}

/**
 * Words that exist only as English text: what share links of format 1 and digests made before sentences
 * carried. Shown as they are, marked as English.
 */
export function english(text: string): Sentence {
  return { key: 'said.english', values: { text } };
}

export const isEnglishOnly = (s: Sentence): boolean => s.key === 'said.english';

const KEYS: ReadonlySet<string> = new Set(Object.keys(core));

/** Whether a key read from outside (a digest) names a sentence this build can word. */
export function isSentenceKey(key: unknown): key is SentenceKey {
  return typeof key === 'string' && KEYS.has(key);
}

/** Sentences inside sentences are worded this deep at most (a digest is untrusted input). */
const MAX_DEPTH = 4;

/** The sentence in `lang`, its values filled (sentences among them worded in the same language). */
export function sentenceText(lang: Lang, s: Sentence, depth = 0): string {
  const message = CATALOGUES[lang]?.[s.key] ?? EN[s.key];
  if (message === undefined) return '';
  const values: Record<string, Value> = {};
  for (const [name, v] of Object.entries(s.values))
    values[name] =
      typeof v === 'object' && v !== null ? (depth < MAX_DEPTH ? sentenceText(lang, v, depth + 1) : '') : v;
  return fill(lang, message, values);
}

/** An error that says what went wrong as a sentence; its `message` is the English wording. */
export class SentenceError extends Error {
  override name = 'SentenceError';
  constructor(readonly sentence: Sentence) {
    super(sentenceText('en', sentence));
  }
}

/**
 * What went wrong, for a view: our sentence when it is a SentenceError (or a sentence that crossed a worker),
 * else the program's own words (an exception's message, the browser's reason), which are not ours to word.
 */
export function saidOf(error: unknown): Sentence | string {
  if (error instanceof SentenceError) return error.sentence;
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
