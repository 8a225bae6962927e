// What is removed from a line's bytes before anyone parses it: NUL bytes (padding left by copytruncate or a
// crash) and terminal escape sequences (colour codes from loggers, rich, tqdm; window titles), so that
// `\x1b[32mI1129\x1b[0m …` reads as a glog prefix. ECMA-48's escape bytes are all ASCII, so this works on the
// UTF-8 bytes and never splits a character. Curled quotes (U+2018–U+201F, three bytes each) become ASCII ones:
// a paste that went through a typographer reads `File “train.py”, line 3` as Python printed it
// (catalogue/typographic.ts).

const ESC = 0x1b;
/** Lead and second byte of U+2000–U+203F; the third byte 0x98–0x9B is a single quote, 0x9C–0x9F a double. */
const PUNCT_LEAD = 0xe2;
const PUNCT_SECOND = 0x80;

function curledQuoteAt(b: Uint8Array, i: number, to: number): number {
  if (i + 2 >= to || b[i + 1] !== PUNCT_SECOND) return 0;
  const t = b[i + 2]!;
  if (t >= 0x98 && t <= 0x9b) return 0x27;
  if (t >= 0x9c && t <= 0x9f) return 0x22;
  return 0;
}

export interface Cleaned {
  bytes: Uint8Array;
  /** More bytes of text followed the `limit` kept (the line is over the limit). */
  more: boolean;
  nuls: number;
  sequences: number;
}

/** True when b[from, to) holds a NUL, an ESC byte or a curled quote. */
export function needsCleaning(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    if (c === 0 || c === ESC || (c === PUNCT_LEAD && curledQuoteAt(b, i, to) !== 0)) return true;
  }
  return false;
}

/**
 * b[from, to) without NULs and escape sequences and with ASCII quotes for curled ones, at most `limit` bytes of
 * it. An unterminated sequence runs to the end of the line; NULs are counted up to where the kept text ends.
 */
export function cleanLine(b: Uint8Array, from: number, to: number, limit: number): Cleaned {
  const out = new Uint8Array(Math.min(to - from, limit));
  let o = 0;
  let nuls = 0;
  let sequences = 0;
  let more = false;
  let i = from;
  while (i < to) {
    const c = b[i]!;
    if (c === 0) {
      nuls++;
      i++;
      continue;
    }
    if (c !== ESC) {
      if (o === limit) {
        more = true;
        break;
      }
      const quote = c === PUNCT_LEAD ? curledQuoteAt(b, i, to) : 0;
      out[o++] = quote || c;
      i += quote ? 3 : 1;
      continue;
    }
    sequences++;
    i = skipEscape(b, i + 1, to);
  }
  return { bytes: out.subarray(0, o), more, nuls, sequences };
}

/** The end of the escape sequence whose ESC was just before `i`. */
function skipEscape(b: Uint8Array, i: number, to: number): number {
  if (i >= to) return i;
  const k = b[i]!;
  if (k === 0x5b) {
    // CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, one final byte 0x40–0x7E.
    i++;
    while (i < to && b[i]! >= 0x20 && b[i]! <= 0x3f) i++;
    if (i < to && b[i]! >= 0x40 && b[i]! <= 0x7e) i++;
    return i;
  }
  if (k === 0x5d || k === 0x50 || k === 0x58 || k === 0x5e || k === 0x5f) {
    // OSC, DCS, SOS, PM, APC: a string ended by BEL or ST (ESC \).
    for (i++; i < to; i++) {
      if (b[i] === 0x07) return i + 1;
      if (b[i] === ESC && i + 1 < to && b[i + 1] === 0x5c) return i + 2;
    }
    return i;
  }
  // Two- or three-byte escapes: intermediates 0x20–0x2F, then a final 0x30–0x7E (charset selection, RIS, …).
  while (i < to && b[i]! >= 0x20 && b[i]! <= 0x2f) i++;
  if (i < to && b[i]! >= 0x30 && b[i]! <= 0x7e) i++;
  return i;
}
