// What is removed from a line's bytes before anyone parses it: NUL bytes (padding left by copytruncate or a
// crash) and terminal escape sequences (colour codes from loggers, rich, tqdm; window titles), so that
// `\x1b[32mI1129\x1b[0m …` reads as a glog prefix. ECMA-48's escape bytes are all ASCII, so this works on the
// UTF-8 bytes and never splits a character.

const ESC = 0x1b;

export interface Cleaned {
  bytes: Uint8Array;
  /** More bytes of text followed the `limit` kept (the line is over the limit). */
  more: boolean;
  nuls: number;
  sequences: number;
}

/** True when b[from, to) holds a NUL or an ESC byte. */
export function needsCleaning(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    if (c === 0 || c === ESC) return true;
  }
  return false;
}

/**
 * b[from, to) without NULs and escape sequences, at most `limit` bytes of it. An unterminated sequence runs to
 * the end of the line; NULs are counted up to where the kept text ends.
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
      out[o++] = c;
      i++;
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
