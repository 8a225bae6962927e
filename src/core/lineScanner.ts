// Streaming line scanner over byte chunks. It never holds more than one chunk plus one partial line, and it
// does not split every line: one combined anchor search runs per decoded block, and only lines holding an
// anchor are cut out and handed on. Line numbers are kept by counting newlines between hits.

export interface ScannedLine {
  /** 1-based line number. */
  line: number;
  text: string;
  /** True when the line was longer than the limit and cut. */
  cut: boolean;
}

export interface ScanStats {
  bytes: number;
  lines: number;
  longLines: number;
  invalidUtf8: boolean;
  binary: boolean;
  /** First bytes looked like a compressed or archive format we should unpack first. */
  packed: 'gzip' | 'zip' | 'tar' | 'bzip2' | 'xz' | 'zstd' | null;
  first: ScannedLine | null;
  last: ScannedLine | null;
}

export interface ScannerOptions {
  /** Lines longer than this (in UTF-16 units) are cut; the rest of the line is skipped. */
  maxLineChars?: number;
  /** Every line up to this number is handed on as well (identity, pre-launch work). */
  headLines?: number;
}

export const CUT_MARKER = ' …[line cut]';

const SNIFF_BYTES = 8192;

function sniffPacked(b: Uint8Array): ScanStats['packed'] {
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'gzip';
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'zip';
  if (b.length >= 3 && b[0] === 0x42 && b[1] === 0x5a && b[2] === 0x68) return 'bzip2';
  if (b.length >= 6 && b[0] === 0xfd && b[1] === 0x37 && b[2] === 0x7a && b[3] === 0x58) return 'xz';
  if (b.length >= 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd) return 'zstd';
  if (b.length >= 262 && String.fromCharCode(...b.subarray(257, 262)) === 'ustar') return 'tar';
  return null;
}

/** Text logs have no NUL bytes and few control characters; a few stray ones (ANSI, BEL) are fine. */
export function looksBinary(b: Uint8Array): boolean {
  const n = Math.min(b.length, SNIFF_BYTES);
  if (n === 0) return false;
  let ctrl = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0) return true;
    if (c < 9 || (c > 13 && c < 32 && c !== 27)) ctrl++;
  }
  return ctrl / n > 0.05;
}

export class LineScanner {
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private readonly maxLine: number;
  private readonly headLines: number;
  private carry = '';
  /** Inside a line that was already cut: drop text until the next newline. */
  private skipping = false;
  private lineNo = 0; // lines completed so far
  private sniffed = false;
  private head: Uint8Array[] = [];
  private headBytes = 0;
  readonly stats: ScanStats = {
    bytes: 0,
    lines: 0,
    longLines: 0,
    invalidUtf8: false,
    binary: false,
    packed: null,
    first: null,
    last: null,
  };

  constructor(
    private anchors: RegExp,
    private readonly onLine: (l: ScannedLine) => void,
    opts: ScannerOptions = {},
  ) {
    if (!anchors.global) throw new Error('anchor regex must be global');
    this.maxLine = opts.maxLineChars ?? 65536;
    this.headLines = opts.headLines ?? 0;
  }

  /** Swap the anchor search (e.g. drop anchors that are no longer needed); takes effect from the next block. */
  setAnchors(re: RegExp): void {
    if (!re.global) throw new Error('anchor regex must be global');
    this.anchors = re;
  }

  /** Returns false once the input is known to be unusable (binary, packed); later pushes are ignored. */
  push(chunk: Uint8Array): boolean {
    if (!this.sniffed) {
      // Decide "binary" and "packed" on the first SNIFF_BYTES, however small the chunks come.
      this.head.push(chunk.slice());
      this.headBytes += chunk.length;
      if (this.headBytes < SNIFF_BYTES) return true;
      return this.endSniff();
    }
    if (this.stats.binary) return false;
    this.consume(chunk);
    return true;
  }

  private endSniff(): boolean {
    this.sniffed = true;
    const all = new Uint8Array(this.headBytes);
    let at = 0;
    for (const c of this.head) {
      all.set(c, at);
      at += c.length;
    }
    this.head = [];
    this.stats.packed = sniffPacked(all);
    this.stats.binary = this.stats.packed !== null || looksBinary(all);
    if (this.stats.binary) return false;
    this.consume(all);
    return true;
  }

  private consume(chunk: Uint8Array): void {
    this.stats.bytes += chunk.length;
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  finish(): ScanStats {
    if (!this.sniffed) this.endSniff();
    if (!this.stats.binary) {
      this.feed(this.decoder.decode());
      if (this.skipping) this.lineNo++;
      // A last line without a newline is still a line.
      else if (this.carry.length > 0) this.scanBlock(this.carry + '\n');
      this.carry = '';
      this.skipping = false;
    }
    this.stats.lines = this.lineNo;
    return this.stats;
  }

  private feed(text: string): void {
    if (text.length === 0) return;
    if (!this.stats.invalidUtf8 && text.includes('\uFFFD')) this.stats.invalidUtf8 = true;
    let start = 0;
    if (this.skipping) {
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      this.skipping = false;
      this.lineNo++;
      start = nl + 1;
    }
    const lastNl = text.lastIndexOf('\n');
    if (lastNl < start) {
      this.carry += text.slice(start);
      this.checkOverlong();
      return;
    }
    const block = this.carry + text.slice(start, lastNl + 1);
    this.carry = text.slice(lastNl + 1);
    this.scanBlock(block);
    this.checkOverlong();
  }

  /** A partial line beyond the limit is emitted cut, and the rest of it is skipped as it arrives. */
  private checkOverlong(): void {
    if (this.carry.length <= this.maxLine) return;
    this.stats.longLines++;
    this.emitLine(this.carry.slice(0, this.maxLine), true);
    this.carry = '';
    this.skipping = true;
  }

  private scanBlock(block: string): void {
    // Head lines first (every line, few of them), then the anchor search over the rest of the block.
    let pos = 0;
    while (this.lineNo < this.headLines && pos < block.length) {
      const nl = block.indexOf('\n', pos);
      this.emitLine(block.slice(pos, nl), false);
      this.lineNo++;
      pos = nl + 1;
    }
    const re = this.anchors;
    re.lastIndex = pos;
    let counted = pos; // newlines before `counted` are already in lineNo
    let m: RegExpExecArray | null;
    while ((m = re.exec(block)) !== null) {
      const at = m.index;
      const ls = block.lastIndexOf('\n', at - 1) + 1;
      const le = block.indexOf('\n', at);
      this.lineNo += countNewlines(block, counted, ls);
      this.emitLine(block.slice(ls, le), false);
      this.lineNo++;
      counted = le + 1;
      re.lastIndex = le + 1;
    }
    // The last complete line of the block, for the file's end time.
    const total = this.lineNo + countNewlines(block, counted, block.length);
    this.setLast(block.slice(block.lastIndexOf('\n', block.length - 2) + 1, block.length - 1), total);
    this.lineNo = total;
  }

  private setLast(raw: string, line: number): void {
    const text = detach(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (text.trim() === '') return;
    const cut = text.length > this.maxLine;
    this.stats.last = { line, text: cut ? text.slice(0, this.maxLine) + CUT_MARKER : text, cut };
  }

  private emitLine(raw: string, alreadyCut: boolean): void {
    let text = detach(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    let cut = alreadyCut;
    if (text.length > this.maxLine) {
      text = text.slice(0, this.maxLine);
      cut = true;
      this.stats.longLines++;
    }
    if (cut) text += CUT_MARKER;
    const l: ScannedLine = { line: this.lineNo + 1, text, cut };
    if (this.stats.first === null && text.trim() !== '') this.stats.first = l;
    this.onLine(l);
  }
}

/**
 * A copy of the string that does not point into the decoded block. V8 keeps a slice's parent alive, so a
 * few short event texts would otherwise hold every megabyte-sized block they came from.
 */
function detach(s: string): string {
  return (' ' + s).slice(1);
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  let i = s.indexOf('\n', from);
  while (i >= 0 && i < to) {
    n++;
    i = s.indexOf('\n', i + 1);
  }
  return n;
}

/** One regex that finds any of the literals; longer literals first so alternation prefers them. */
export function anchorRegex(literals: string[]): RegExp {
  const sorted = [...new Set(literals)].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
}
