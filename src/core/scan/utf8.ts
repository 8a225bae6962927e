// Decoding of single lines. The scanner decodes only the lines it hands on, so it counts what the decoder
// replaced in them; a valid U+FFFD in the input (EF BF BD) is not counted.

const DECODER = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export interface Decoded {
  text: string;
  /** Bytes that were not valid UTF-8 and became U+FFFD. */
  invalid: number;
}

export function decodeUtf8(b: Uint8Array, from: number, to: number): Decoded {
  const text = DECODER.decode(b.subarray(from, to));
  return { text, invalid: text.includes('\uFFFD') ? countInvalid(b, from, to) : 0 };
}

/** Bytes of b[from, to) outside well-formed UTF-8 sequences (Unicode Table 3-7). */
export function countInvalid(b: Uint8Array, from: number, to: number): number {
  let bad = 0;
  let i = from;
  while (i < to) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else {
      bad++;
      i++;
      continue;
    }
    // The maximal subpart: the lead byte plus the continuation bytes that were still acceptable.
    let j = 1;
    for (; j <= need && i + j < to; j++) {
      const d = b[i + j]!;
      if (d < (j === 1 ? lo : 0x80) || d > (j === 1 ? hi : 0xbf)) break;
    }
    if (j > need) i += need + 1;
    else {
      bad += j;
      i += j;
    }
  }
  return bad;
}
