// The views' way into src/i18n: the language on screen, `t` bound to it, and the components that word what the
// core writes as codes (notes, reasons, sentences).
import { useMemo, type ReactNode } from 'react';
import { noteText, reasonText } from '../core/notesText';
import type { Note, Reason } from '../core/model';
import {
  isEnglishOnly,
  LANG_TAG,
  sentenceText,
  t as translate,
  type Key,
  type Lang,
  type Sentence,
  type ValuesOf,
} from '../i18n/index';
import { useAppStore } from '../state/index';

export type T = (<K extends Key>(key: K, ...values: ValuesOf<K>) => string) & { lang: Lang };

export function bindT(lang: Lang): T {
  const bound = (<K extends Key>(key: K, ...values: ValuesOf<K>) => translate(lang, key, ...values)) as T;
  bound.lang = lang;
  return bound;
}

export function useLang(): Lang {
  return useAppStore((s) => s.lang);
}

/** `t` for the language on screen; the component re-renders when it changes. */
export function useT(): T {
  const lang = useLang();
  return useMemo(() => bindT(lang), [lang]);
}

/**
 * A sentence core, ingest or share wrote as a code with values (why a file was set aside, how the timeline
 * placed an instant, why files are a node, what is wrong with a link), worded in the language on screen; what
 * it quotes between backticks (a command, a library's or the browser's own words) is code. Words that exist
 * only in English — the notes of a share link of format 1, the problems of a digest made before sentences —
 * are shown as they are, marked `lang="en"`.
 */
export function CoreText({ sentence, className }: { sentence: Sentence; className?: string }) {
  const lang = useLang();
  return (
    <span
      className={className ? `core-text ${className}` : 'core-text'}
      lang={isEnglishOnly(sentence) ? 'en' : undefined}
    >
      <Prose text={sentenceText(lang, sentence)} />
    </span>
  );
}

/**
 * What a program said in its own words — an exception's message, the browser's reason for not reading a file:
 * not ours to translate, so shown as it is, as code (in whatever language the browser wrote it).
 */
export function RawText({ children }: { children: string }) {
  return <code className="raw-text">{children}</code>;
}

/** A failure the views word themselves: its message is already in the language on screen. */
export class WordedError extends Error {
  override name = 'WordedError';
}

/** What went wrong: our sentence, worded; or a program's own words, as code (see `saidOf`). */
export function Said({ what }: { what: Sentence | string }) {
  return typeof what === 'string' ? <RawText>{what}</RawText> : <CoreText sentence={what} />;
}

const TAGS = /<(b|c|k|em)>(.*?)<\/\1>/g;

/**
 * A message with a little markup: `<b>bold</b>`, `<c>code</c>`, `<k>key</k>`, `<em>stress</em>` (code inside bold).
 * Only the catalogue's own text carries tags; values filled into it are shown as text.
 */
export function Rich({ text }: { text: string }) {
  const out: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(TAGS)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const inner = m[2]!;
    const key = out.length;
    // Bold and stress may hold code (`<b><c>--log-dir</c> trees</b>`); code and keys are literal.
    if (m[1] === 'b') out.push(<strong key={key}>{inner.includes('<') ? <Rich text={inner} /> : inner}</strong>);
    else if (m[1] === 'c') out.push(<code key={key}>{inner}</code>);
    else if (m[1] === 'k') out.push(<kbd key={key}>{inner}</kbd>);
    else out.push(<em key={key}>{inner.includes('<') ? <Rich text={inner} /> : inner}</em>);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}

const TICKS = /`([^`]+)`/g;

/**
 * A sentence of the core's advice and findings: what it quotes between backticks (a command, a module, a
 * package) is code, shown as code — the same text reads as Markdown in the CLI's and the export's output.
 */
export function Prose({ text }: { text: string }) {
  if (!text.includes('`')) return <>{text}</>;
  const out: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(TICKS)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(<code key={out.length}>{m[1]}</code>);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}

/** An analysis note or a reason for the culprit: worded in the reader's language from its code and values. */
export function AnalysisText({ item, kind }: { item: Note | Reason; kind: 'note' | 'reason' }) {
  const lang = useLang();
  const text = kind === 'note' ? noteText(lang, item as Note) : reasonText(lang, item as Reason);
  if (item.code !== 'text') return <>{text}</>;
  // A note that arrived as words only — a share link of format 1 — stays in the language its sender wrote it
  // in (the link says which; English when it does not), marked so for screen readers and the reader's browser.
  const written = item.values.lang === 'zh' ? 'zh' : 'en';
  return (
    <span className="core-text" lang={LANG_TAG[written]}>
      {text}
    </span>
  );
}
