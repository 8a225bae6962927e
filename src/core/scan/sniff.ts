// What the first bytes of a file say before any line is read: an archive or compressed stream, a byte-order
// mark, binary content. Text logs may carry NUL padding (a run of NULs where copytruncate cut the file, or
// where a crash left a preallocated tail), so NULs in runs are padding; NULs spread through the bytes are not.

export type Packed = 'gzip' | 'zip' | 'tar' | 'bzip2' | 'xz' | 'zstd' | null;
export type Bom = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32' | null;

export const SNIFF_BYTES = 8192;
/** More separate NUL runs than this in the first 8 KiB of text is binary (or BOM-less UTF-16), not padding. */
const MAX_NUL_RUNS = 4;

export function sniffPacked(b: Uint8Array): Packed {
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'gzip';
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'zip';
  if (b.length >= 3 && b[0] === 0x42 && b[1] === 0x5a && b[2] === 0x68) return 'bzip2';
  if (b.length >= 6 && b[0] === 0xfd && b[1] === 0x37 && b[2] === 0x7a && b[3] === 0x58) return 'xz';
  if (b.length >= 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd) return 'zstd';
  if (b.length >= 262 && String.fromCharCode(...b.subarray(257, 262)) === 'ustar') return 'tar';
  return null;
}

/** The byte-order mark at the start, if any (needs the first 4 bytes, or all of a shorter file). */
export function sniffBom(b: Uint8Array): Bom {
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return 'utf-32';
  if (b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return 'utf-32';
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

/**
 * Text logs have few control characters; a few stray ones (ANSI escapes, BEL, backspace) are fine. NUL bytes
 * are fine in a few runs (padding); spread through the bytes they mean binary content. `b` is the first bytes
 * after any leading NUL run.
 */
export function looksBinary(b: Uint8Array): boolean {
  const n = Math.min(b.length, SNIFF_BYTES);
  if (n === 0) return false;
  let ctrl = 0;
  let nul = 0;
  let runs = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0) {
      nul++;
      if (i === 0 || b[i - 1] !== 0) runs++;
    } else if (c < 8 || (c > 13 && c < 32 && c !== 27)) ctrl++;
  }
  if (runs > MAX_NUL_RUNS) return true;
  const text = n - nul;
  return text > 0 && ctrl / text > 0.05;
}
