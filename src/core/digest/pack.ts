import type { FileExtract } from '../model';

// The two changes a digest makes to an extract on the way out, and undoes on the way in. Both are generic, so
// a field the core adds later is carried without a change here:
//   - line texts: any object that refers to a line ({line: number, text: string}) loses its text (or has it
//     redacted), and any other string of the stream that quotes one of those texts loses the quote;
//   - file names: a stream's or an event's `file` is left out when it is the extract's own.

/** What happens to line texts: left out (null), or kept through the producer's redaction. */
export type LineText = ((text: string) => string) | null;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isLineRef = (o: Obj): boolean => typeof o.line === 'number' && typeof o.text === 'string';

/** Quotes shorter than this are not looked for (they would match by chance). */
const MIN_QUOTE = 12;
/** A quote is found by the start of the text it quotes. */
const QUOTE_HEAD = 40;

function lineTexts(x: Json, out: string[]): void {
  if (Array.isArray(x)) for (const y of x) lineTexts(y, out);
  else if (isObj(x)) {
    if (isLineRef(x)) {
      const t = (x.text as string).trim();
      if (t.length >= MIN_QUOTE) out.push(t.slice(0, QUOTE_HEAD));
    }
    for (const k in x) lineTexts(x[k]!, out);
  }
}

/** A string that quotes a line: the quote goes (from where it starts), or is passed through `text`. */
function unquote(s: string, heads: string[], text: LineText): string {
  for (const h of heads) {
    const at = s.indexOf(h);
    if (at >= 0) return s.slice(0, at) + (text ? text(s.slice(at)) : '…');
  }
  return s;
}

function packValue(x: Json, heads: string[], text: LineText, inFields: boolean): Json {
  if (typeof x === 'string') return inFields || heads.length === 0 ? x : unquote(x, heads, text);
  if (Array.isArray(x)) return x.map((y) => packValue(y, heads, text, inFields));
  if (!isObj(x)) return x;
  const ref = isLineRef(x);
  const out: Obj = {};
  for (const k in x) {
    const y = x[k]!;
    if (ref && k === 'text') {
      if (text) out.text = text(y as string);
      continue;
    }
    // Extracted values are data the analysis reads, not quotes: they travel as they are.
    out[k] = packValue(y, heads, text, inFields || k === 'fields');
  }
  return out;
}

/** An extract as a digest carries it. */
export function packExtract(x: FileExtract, text: LineText): Json {
  const json = x as unknown as Obj;
  const out: Obj = {};
  for (const k in json) {
    if (k !== 'streams') {
      out[k] = json[k]!;
      continue;
    }
    out.streams = (json.streams as Json[]).map((s) => {
      const heads: string[] = [];
      lineTexts(s, heads);
      const packed = packValue(s, [...new Set(heads)], text, false) as Obj;
      if (packed.file === x.file) delete packed.file;
      for (const e of packed.events as Obj[]) if (e.file === x.file) delete e.file;
      return packed;
    });
  }
  return out;
}

function restoreTexts(x: unknown): void {
  if (Array.isArray(x)) for (const y of x) restoreTexts(y);
  else if (isObj(x)) {
    if (typeof x.line === 'number' && !('text' in x)) x.text = '';
    for (const k in x) restoreTexts(x[k]);
  }
}

/**
 * An extract as the digest carried it, back in the shape the core made (still to be validated: this walks
 * whatever JSON it is given and changes only what it recognises).
 */
export function unpackExtract(raw: unknown, lines: boolean): unknown {
  if (!isObj(raw) || typeof raw.file !== 'string' || !Array.isArray(raw.streams)) return raw;
  const file = raw.file;
  for (const s of raw.streams) {
    if (!isObj(s)) continue;
    if (!('file' in s)) s.file = file;
    if (Array.isArray(s.events)) for (const e of s.events) if (isObj(e) && !('file' in e)) e.file = file;
    if (!lines) restoreTexts(s);
  }
  return raw;
}
