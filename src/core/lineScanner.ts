import type { FileDecoding } from './model';
import { anchorSearchFor, type AnchorSearch } from './scan/anchorSearch';
import { cleanLine, needsCleaning } from './scan/clean';
import { SNIFF_BYTES, looksBinary, sniffBom, sniffPacked, type Packed } from './scan/sniff';
import type { StreamProbe } from './scan/streamProbe';
import { decodeUtf8 } from './scan/utf8';

// Streaming line scanner over byte chunks. It searches the raw bytes for the anchor literals, counts lines by
// their newline bytes (a word at a time), and decodes only the lines it hands on (head lines, lines holding an
// anchor, cut lines, the first line of a new stream label), each from its own bytes: no decoded block exists,
// so no event text can keep one alive. Memory is one chunk plus one partial line, capped at the line limit.

export interface ScannedLine {
  /** 1-based line number. */
  line: number;
  text: string;
  /** True when the line was longer than the limit and cut. */
  cut: boolean;
  /** Indices (into the current anchor list, ascending, each once) of every anchor literal on the line. */
  anchors: number[];
}

export type DecodingStats = FileDecoding;

export interface ScanStats {
  bytes: number;
  lines: number;
  longLines: number;
  invalidUtf8: boolean;
  binary: boolean;
  /** First bytes looked like a compressed or archive format we should unpack first. */
  packed: Packed;
  first: ScannedLine | null;
  last: ScannedLine | null;
  decoding: DecodingStats;
}

export interface ScannerOptions {
  /** Lines longer than this (in UTF-16 units) are cut; the rest of the line is skipped. */
  maxLineChars?: number;
  /** Every line up to this number is handed on as well (identity, pre-launch work). */
  headLines?: number;
}

export const CUT_MARKER = ' …[line cut]';
export { looksBinary } from './scan/sniff';
export { streamLabelProbe, type StreamProbe } from './scan/streamProbe';

const NL = 10;
const CR = 13;
const ESC = 27;
const NO_ANCHORS: number[] = [];

export class LineScanner {
  private readonly maxLine: number;
  /** Bytes kept of a line: enough for maxLine UTF-16 units of any UTF-8 (3 bytes per unit at most). */
  private readonly capBytes: number;
  private readonly headLines: number;
  private search: AnchorSearch;
  /** Bumped by setAnchors / setStreamProbe, so a search started before a line's callback is redone after it. */
  private version = 0;
  private probe: StreamProbe | null = null;

  private lineNo = 0; // lines completed so far
  // The line in progress across chunks: its first capBytes bytes without NULs.
  private carrying = false;
  private carry: Uint8Array;
  private carryLen = 0;
  /** The line in progress is over the limit and was handed on cut; the rest of it is skipped. */
  private carryOver = false;
  /** The current chunk as 32-bit words from its first aligned byte, `wordBase` (newlines are counted in words). */
  private words: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private wordBase = 0;
  /** The first bytes held escape sequences: lines with ESC get a look even without an anchor in the raw bytes. */
  private colour = false;

  // Before the first line: byte-order mark, leading NUL padding, the sniff window.
  private bomChecked = false;
  private bomBuf: Uint8Array | null = null;
  private utf16: TextDecoder | null = null;
  private leadingNul = true;
  private sniffed = false;
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private stopped = false;

  readonly stats: ScanStats = {
    bytes: 0,
    lines: 0,
    longLines: 0,
    invalidUtf8: false,
    binary: false,
    packed: null,
    first: null,
    last: null,
    decoding: { encoding: 'utf-8', bom: false, invalidBytes: 0, nulBytes: 0, ansiSequences: 0, cutLines: 0 },
  };

  constructor(
    anchors: readonly string[],
    private readonly onLine: (l: ScannedLine) => void,
    opts: ScannerOptions = {},
  ) {
    this.search = anchorSearchFor(anchors);
    this.maxLine = Math.max(1, opts.maxLineChars ?? 65536);
    this.capBytes = this.maxLine * 3;
    this.headLines = opts.headLines ?? 0;
    this.carry = new Uint8Array(Math.min(this.capBytes, 4096));
  }

  /** Search for these anchors instead, from the line after the current one (callbacks may call this). */
  setAnchors(anchors: readonly string[]): void {
    const s = anchorSearchFor(anchors);
    if (s === this.search) return;
    this.search = s;
    this.version++;
  }

  /** Also hand on the first line of every stream label the probe has not seen (files holding many nodes). */
  setStreamProbe(probe: StreamProbe | null): void {
    if (probe === this.probe) return;
    this.probe = probe;
    this.version++;
  }

  /** Returns false once the input is known to be unusable (binary, packed); later pushes are ignored. */
  push(bytes: Uint8Array): boolean {
    if (this.stopped) return false;
    this.stats.bytes += bytes.length;
    // A plain Uint8Array view even of a Node Buffer: the hot loops see one array class and stay fast.
    const chunk =
      bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    if (!this.bomChecked) {
      // The byte-order mark needs 4 bytes, however small the chunks come.
      const all = this.bomBuf ? concat([this.bomBuf, chunk]) : chunk;
      if (all.length < 4) {
        this.bomBuf = all.slice();
        return true;
      }
      this.bomBuf = null;
      return this.startBom(all);
    }
    if (this.utf16) return this.pushText(transcode(this.utf16, chunk, this.stats.decoding));
    return this.pushText(chunk);
  }

  private startBom(all: Uint8Array): boolean {
    this.bomChecked = true;
    const bom = sniffBom(all);
    const d = this.stats.decoding;
    if (bom === 'utf-32') return this.stop(true, null);
    if (bom === 'utf-8') {
      d.bom = true;
      return this.pushText(all.subarray(3));
    }
    if (bom === 'utf-16le' || bom === 'utf-16be') {
      d.bom = true;
      d.encoding = bom;
      this.utf16 = new TextDecoder(bom, { fatal: false, ignoreBOM: false });
      return this.pushText(transcode(this.utf16, all, d));
    }
    return this.pushText(all);
  }

  private stop(binary: boolean, packed: Packed): boolean {
    this.stats.binary = binary;
    this.stats.packed = packed;
    this.stopped = true;
    this.head = [];
    return false;
  }

  /** UTF-8 bytes: leading NUL padding skipped, the first SNIFF_BYTES of text sniffed, then scanned. */
  private pushText(chunk: Uint8Array): boolean {
    if (this.stopped) return false;
    let c = chunk;
    if (this.leadingNul) {
      let i = 0;
      while (i < c.length && c[i] === 0) i++;
      this.stats.decoding.nulBytes += i;
      if (i === c.length) return true;
      this.leadingNul = false;
      c = c.subarray(i);
    }
    if (!this.sniffed) {
      // Parts held until the sniff window is full are copied (the caller may reuse its buffer); the last is not.
      this.headBytes += c.length;
      if (this.headBytes < SNIFF_BYTES) {
        this.head.push(c.slice());
        return true;
      }
      this.head.push(c);
      return this.endSniff();
    }
    if (c.length > 0) this.scanChunk(c);
    return true;
  }

  private endSniff(): boolean {
    this.sniffed = true;
    const all = concat(this.head);
    this.head = [];
    const packed = sniffPacked(all);
    if (packed !== null || looksBinary(all)) return this.stop(true, packed);
    this.colour = all.subarray(0, SNIFF_BYTES).indexOf(ESC) >= 0;
    if (all.length > 0) this.scanChunk(all);
    return true;
  }

  finish(): ScanStats {
    if (!this.bomChecked && this.bomBuf) {
      const all = this.bomBuf;
      this.bomBuf = null;
      this.startBom(all);
    }
    if (this.utf16 && !this.stopped) this.pushText(transcode(this.utf16, null, this.stats.decoding));
    // Nothing but NUL bytes is no text; an empty file is just empty.
    if (!this.stopped && this.leadingNul && this.stats.decoding.nulBytes > 0) this.stop(true, null);
    if (!this.stopped && !this.sniffed) this.endSniff();
    if (!this.stopped && this.carrying) {
      // A last line without a newline is still a line (unless it was only NUL padding).
      if (this.carryOver) this.lineNo++;
      else if (this.carryLen > 0) this.carriedLine();
      this.resetCarry();
    }
    this.stats.lines = this.lineNo;
    this.stats.longLines = this.stats.decoding.cutLines;
    this.stats.invalidUtf8 = this.stats.decoding.invalidBytes > 0;
    return this.stats;
  }

  private scanChunk(b: Uint8Array): void {
    let pos = 0;
    const n = b.length;
    if (this.carrying) {
      const nl = b.indexOf(NL);
      if (nl < 0) {
        this.appendCarry(b, 0, n);
        return;
      }
      this.appendCarry(b, 0, nl);
      if (this.carryOver) this.lineNo++;
      else this.carriedLine();
      this.resetCarry();
      pos = nl + 1;
    }
    const lastNl = b.lastIndexOf(NL);
    if (lastNl >= pos) {
      this.wordBase = Math.min(n, (4 - (b.byteOffset & 3)) & 3);
      this.words = new Uint32Array(b.buffer, b.byteOffset + this.wordBase, (n - this.wordBase) >> 2);
      this.scanLines(b, pos, lastNl + 1);
      this.setLast(b, pos, lastNl);
      pos = lastNl + 1;
    }
    if (pos < n) {
      this.carrying = true;
      this.appendCarry(b, pos, n);
    }
  }

  /** Complete lines b[from, to): `to` is just after a newline. */
  private scanLines(b: Uint8Array, from: number, to: number): void {
    let pos = from;
    while (this.lineNo < this.headLines && pos < to) {
      const le = b.indexOf(NL, pos);
      this.handleLine(b, pos, le, true);
      pos = le + 1;
    }
    while (pos < to) {
      if (this.probe !== null) {
        // Files holding many nodes: line by line, the anchor search bounded to each line. A new label's line can
        // change the anchors, and a search run far ahead with the old ones would be thrown away each time.
        pos = this.walkLines(b, pos, to, to, true);
        continue;
      }
      const target = this.search.first(b, pos, to);
      if (target < 0) break;
      const ls = lineStart(b, pos, target);
      const version = this.version;
      const reached = this.walk(b, pos, ls);
      if (reached < ls || this.version !== version) {
        // A line on the way was handed on and its callback changed the search: search again from there.
        pos = reached;
        continue;
      }
      const le = b.indexOf(NL, target);
      this.handleLine(b, ls, le, false);
      pos = le + 1;
    }
    this.walk(b, pos, to);
  }

  /**
   * Count the lines of b[from, to) (whole lines), handing on those that need a look without an anchor found
   * in the raw bytes: in a coloured file, lines holding ESC (an anchor may hide behind a colour code), cut lines,
   * with a stream probe, the first line of a new label. Returns where it stopped: `to`, or just after a line
   * whose callback changed the search.
   */
  private walk(b: Uint8Array, from: number, to: number): number {
    if (this.probe !== null) return this.walkLines(b, from, to, to, false);
    // Newlines are counted a word at a time, block by block. In a coloured file a block holding an ESC is walked
    // line by line; a line over the limit covers a whole block (half the limit) without a newline, and is looked
    // at alone (NUL padding too long to be a line is dropped there).
    const block = Math.max(1, this.maxLine >> 1);
    let pos = from;
    while (pos < to) {
      const end = Math.min(to, pos + block);
      const n = countNewlines(b, this.words, this.wordBase, pos, end, this.colour);
      if (n > 0) {
        this.lineNo += n;
        pos = end;
        continue;
      }
      const ls = lineStart(b, from, pos);
      const version = this.version;
      if (n < 0) {
        // Through the end of the line the block ends in.
        const stop = end === to ? to : b.indexOf(NL, end - 1) + 1;
        const reached = this.walkLines(b, ls, stop, to, false);
        if (reached < stop || this.version !== version) return reached;
        pos = stop;
      } else {
        const le = b.indexOf(NL, end);
        this.handleLine(b, ls, le, false);
        if (this.version !== version) return le + 1;
        pos = le + 1;
      }
    }
    return to;
  }

  /**
   * `walk` one line at a time: the stream probe, the length, (coloured files) ESC and, with `anchors`, the
   * anchor search are checked on each line.
   */
  private walkLines(b: Uint8Array, from: number, stop: number, to: number, anchors: boolean): number {
    let pos = from;
    const long = this.maxLine;
    const probe = this.probe;
    const version = this.version;
    const search = this.search;
    while (pos < stop) {
      const le = b.indexOf(NL, pos);
      const fresh = probe !== null && probe(b, pos, le);
      if (
        fresh ||
        le - pos > long ||
        (this.colour && hasEsc(b, pos, le)) ||
        (anchors && search.first(b, pos, le) >= 0)
      ) {
        this.handleLine(b, pos, le, fresh);
        if (this.version !== version) return le + 1;
      } else this.lineNo++;
      pos = le + 1;
    }
    return pos < to ? pos : to;
  }

  /** The line b[ls, le) (le at its newline), handed on when forced or when it holds an anchor or is cut. */
  private handleLine(b: Uint8Array, ls: number, le: number, force: boolean): void {
    this.line(b, ls, le > ls && b[le - 1] === CR ? le - 1 : le, force, false);
  }

  /**
   * One line's bytes b[s, e) (no newline, no CR); `over`: more of it was dropped already (carried lines).
   * Cleaned and decoded only if handed on: when forced (head line, probe), when it holds an anchor once NULs
   * and escape sequences are gone, or when it decodes to more than the limit.
   */
  private line(b: Uint8Array, s: number, e: number, force: boolean, over: boolean): void {
    const d = this.stats.decoding;
    let src = b;
    let from = s;
    let to = e;
    if (needsCleaning(b, s, e)) {
      const c = cleanLine(b, s, e, this.capBytes);
      d.nulBytes += c.nuls;
      d.ansiSequences += c.sequences;
      src = c.bytes;
      from = 0;
      to = src.length;
      over ||= c.more;
    } else if (e - s > this.capBytes) {
      to = s + this.capBytes;
      over = true;
    }
    // A cut ends on a character boundary.
    if (over) while (to > from && (src[to]! & 0xc0) === 0x80) to--;
    if (this.probe) this.probe(src, from, to); // learn the label of every line looked at
    let anchors = this.search.collect(src, from, to, []);
    if (!force && !over && anchors.length === 0 && to - from <= this.maxLine) {
      this.lineNo++;
      return;
    }
    const dec = decodeUtf8(src, from, to);
    d.invalidBytes += dec.invalid;
    let text = dec.text;
    if (text.length > this.maxLine) {
      // Cut to the limit; the anchors are those of the text handed on.
      text = text.slice(0, this.maxLine);
      over = true;
      const kept = ENCODER.encode(text);
      anchors = this.search.collect(kept, 0, kept.length, []);
    }
    if (!force && !over && anchors.length === 0) {
      this.lineNo++;
      return;
    }
    if (over) {
      d.cutLines++;
      text += CUT_MARKER;
    }
    const l: ScannedLine = { line: this.lineNo + 1, text, cut: over, anchors: anchors.length ? anchors : NO_ANCHORS };
    this.lineNo++;
    if (this.stats.first === null && text.trim() !== '') this.stats.first = l;
    this.onLine(l);
  }

  // ---- the line in progress across chunks

  /** Keep the bytes b[from, to) of the line in progress, without NULs, up to the limit. */
  private appendCarry(b: Uint8Array, from: number, to: number): void {
    if (this.carryOver) return;
    const cap = this.capBytes;
    let i = from;
    let nuls = 0;
    while (i < to) {
      const c = b[i++]!;
      if (c === 0) {
        nuls++;
        continue;
      }
      if (this.carryLen === cap) {
        this.carryOver = true;
        break;
      }
      if (this.carryLen === this.carry.length) {
        const grown = new Uint8Array(Math.min(cap, this.carry.length * 2));
        grown.set(this.carry);
        this.carry = grown;
      }
      this.carry[this.carryLen++] = c;
    }
    this.stats.decoding.nulBytes += nuls;
    if (this.carryOver) {
      // Over the limit whatever it decodes to: hand the start on now and skip the rest as it arrives.
      this.line(this.carry, 0, this.carryLen, this.lineNo < this.headLines, true);
      this.lineNo--; // the line is counted when its newline comes
      this.setLastLine(this.carry, 0, this.carryLen, this.lineNo + 1, true);
      this.carry = new Uint8Array(4096);
      this.carryLen = 0;
    }
  }

  /** Hand on (if it needs it) the carried line, which is complete. */
  private carriedLine(): void {
    let e = this.carryLen;
    if (e > 0 && this.carry[e - 1] === CR) e--;
    const lineNo = this.lineNo + 1;
    this.line(this.carry, 0, e, this.lineNo < this.headLines, false);
    this.setLastLine(this.carry, 0, e, lineNo);
  }

  private resetCarry(): void {
    this.carrying = false;
    this.carryLen = 0;
    this.carryOver = false;
    if (this.carry.length > 65536) this.carry = new Uint8Array(4096);
  }

  // ---- the file's last line (its end time)

  /** The last non-blank line among the complete lines b[from, lastNl] (lastNl at a newline). */
  private setLast(b: Uint8Array, from: number, lastNl: number): void {
    let end = lastNl;
    let lineNo = this.lineNo;
    while (end >= from) {
      const ls = lineStart(b, from, end);
      if (this.setLastLine(b, ls, end > ls && b[end - 1] === CR ? end - 1 : end, lineNo)) return;
      end = ls - 1;
      lineNo--;
    }
  }

  private setLastLine(b: Uint8Array, s: number, e: number, lineNo: number, over = false): boolean {
    if (!hasText(b, s, e)) return false;
    const c = cleanLine(b, s, e, this.capBytes);
    let cut = over || c.more;
    let to = c.bytes.length;
    if (cut) while (to > 0 && (c.bytes[to]! & 0xc0) === 0x80) to--;
    let text = decodeUtf8(c.bytes, 0, to).text;
    if (text.trim() === '') return false;
    if (text.length > this.maxLine) {
      text = text.slice(0, this.maxLine);
      cut = true;
    }
    this.stats.last = { line: lineNo, text: cut ? text + CUT_MARKER : text, cut, anchors: NO_ANCHORS };
    return true;
  }
}

/** Start of the line holding b[at] (or ending at the newline `at`), not before `from` (itself a line start). */
function lineStart(b: Uint8Array, from: number, at: number): number {
  return at <= from ? from : Math.max(from, b.lastIndexOf(NL, at - 1) + 1);
}

function hasEsc(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (b[i] === ESC) return true;
  return false;
}

/** Any byte that is not ASCII blank (non-ASCII blanks are judged after decoding). */
function hasText(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0b && c !== 0x0c && c !== CR) return true;
  }
  return false;
}

/**
 * Newlines in b[from, to), four bytes at a time (a zero byte of word XOR 0x0a0a0a0a marks each one, exactly);
 * with `esc`, -1 instead when the range holds an ESC byte. `w` views b from its byte `base` on, 4-byte aligned.
 */
function countNewlines(b: Uint8Array, w: Uint32Array, base: number, from: number, to: number, esc: boolean): number {
  let n = 0;
  let odd = false;
  let i = from;
  for (; i < to && ((i - base) & 3) !== 0; i++) {
    if (b[i] === NL) n++;
    else if (b[i] === ESC) odd = true;
  }
  const j0 = (i - base) >> 2;
  const j1 = Math.max(j0, (to - base) >> 2);
  // Per-byte counts add up in the four lanes of `acc`, folded before a lane could pass 255.
  let acc = 0;
  let k = 0;
  let flags = 0;
  if (esc) {
    for (let j = j0; j < j1; j++) {
      const v = w[j]!;
      const x = v ^ 0x0a0a0a0a;
      acc += (~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080) >>> 7;
      const y = v ^ 0x1b1b1b1b;
      flags |= (y - 0x01010101) & ~y;
      if (++k === 255) {
        n += (acc & 255) + ((acc >>> 8) & 255) + ((acc >>> 16) & 255) + (acc >>> 24);
        acc = 0;
        k = 0;
      }
    }
  } else {
    // Four words an iteration (the hot loop of the whole scan): at most 4 per lane, folded every 63 iterations.
    let j = j0;
    while (j + 4 <= j1) {
      const stop = Math.min(j1 - 3, j + 252);
      for (; j < stop; j += 4) {
        const x0 = w[j]! ^ 0x0a0a0a0a;
        const x1 = w[j + 1]! ^ 0x0a0a0a0a;
        const x2 = w[j + 2]! ^ 0x0a0a0a0a;
        const x3 = w[j + 3]! ^ 0x0a0a0a0a;
        acc +=
          ((~(((x0 & 0x7f7f7f7f) + 0x7f7f7f7f) | x0) & 0x80808080) >>> 7) +
          ((~(((x1 & 0x7f7f7f7f) + 0x7f7f7f7f) | x1) & 0x80808080) >>> 7) +
          ((~(((x2 & 0x7f7f7f7f) + 0x7f7f7f7f) | x2) & 0x80808080) >>> 7) +
          ((~(((x3 & 0x7f7f7f7f) + 0x7f7f7f7f) | x3) & 0x80808080) >>> 7);
      }
      n += (acc & 255) + ((acc >>> 8) & 255) + ((acc >>> 16) & 255) + (acc >>> 24);
      acc = 0;
    }
    for (; j < j1; j++) {
      const x = w[j]! ^ 0x0a0a0a0a;
      n += (((~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080) >>> 7) * 0x01010101) >>> 24;
    }
  }
  n += (acc & 255) + ((acc >>> 8) & 255) + ((acc >>> 16) & 255) + (acc >>> 24);
  for (i = Math.max(i, base + j1 * 4); i < to; i++) {
    if (b[i] === NL) n++;
    else if (b[i] === ESC) odd = true;
  }
  return esc && (odd || (flags & 0x80808080) !== 0) ? -1 : n;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

const ENCODER = new TextEncoder();

/** UTF-16 bytes to UTF-8, chunk by chunk (the decoder keeps a split character); null flushes. */
function transcode(dec: TextDecoder, chunk: Uint8Array | null, d: DecodingStats): Uint8Array {
  const s = chunk ? dec.decode(chunk, { stream: true }) : dec.decode();
  for (let i = s.indexOf('\uFFFD'); i >= 0; i = s.indexOf('\uFFFD', i + 1)) d.invalidBytes += 2;
  return ENCODER.encode(s);
}

/** One regex that finds any of the literals in a decoded line (the evidence viewer tests single lines with it). */
export function anchorRegex(literals: readonly string[]): RegExp {
  const sorted = [...new Set(literals)].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
}
