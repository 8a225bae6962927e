// Lines hard-wrapped at a terminal's width: a paste copied from a terminal (tmux, screen, a web console) breaks
// every line longer than the width into pieces of exactly that width, so a glog line's message, or a traceback
// frame's function name, continues on the next line with no prefix. The head of the file tells the width: many
// lines of exactly one length, none longer. Then each newline that ends a piece of exactly that width joins the
// next piece to it — unless the next line starts like a log line of its own (a line can be the width exactly).
// Line numbers stay those of the file: `physical` maps a joined line's number back.

const NL = 10;
const CR = 13;
/** Bytes of the head the width is read from. */
const HEAD_BYTES = 64 * 1024;
/** Widths a terminal is set to; a longer "width" is a log whose longest lines happen to be alike. */
const MIN_WIDTH = 80;
const MAX_WIDTH = 512;
/** Pieces of the width seen in the head that go on in the next line. */
const MIN_PIECES = 2;
/** Joins kept track of per file; past this the file is passed on as it is. */
const MAX_JOINS = 1_000_000;

export class Dewrap {
  private head: Uint8Array[] | null = [];
  private headBytes = 0;
  private width = 0;
  /** Bytes of the current physical line so far (ASCII only; -1 once a byte ≥ 0x80 is in it). */
  private run = 0;
  /** The newline ending a piece of the width, when the chunk ended right after it (decided on the next bytes). */
  private pending = false;
  private pendingCr = false;
  /** Logical line numbers (1-based, as the scanner counts) that absorbed the physical line after them. */
  private readonly joins: number[] = [];
  private logical = 1;
  /** The `name: ` labels the head starts lines with (pdsh, a collector): only these begin a line after a piece. */
  private labels: ReadonlySet<string> = new Set();

  /** The wrap width found, 0 for none (known once the head is read). */
  get wrapWidth(): number {
    return this.width;
  }

  /** Newlines removed: the file has this many more lines than the scanner counted. */
  get joined(): number {
    return this.joins.length;
  }

  push(chunk: Uint8Array): Uint8Array | null {
    if (this.head === null) return this.pass(chunk);
    this.head.push(chunk.slice());
    this.headBytes += chunk.length;
    if (this.headBytes < HEAD_BYTES) return null;
    return this.release();
  }

  /** What is still held: the head of a short file, a newline waiting on the next bytes. */
  flush(): Uint8Array | null {
    const out = this.head !== null ? this.release() : null;
    if (!this.pending) return out;
    this.pending = false;
    const tail = Uint8Array.of(...(this.pendingCr ? [CR, NL] : [NL]));
    return out ? concat([out, tail]) : tail;
  }

  /** The line number in the file of logical line `n` as the scanner numbered it. */
  physical(n: number): number {
    const j = this.joins;
    if (j.length === 0 || n <= j[0]!) return n;
    // Joins recorded on lines before n, by binary search (the list is in order).
    let lo = 0;
    let hi = j.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (j[mid]! < n) lo = mid + 1;
      else hi = mid;
    }
    return n + lo;
  }

  private release(): Uint8Array | null {
    const all = concat(this.head!);
    this.head = null;
    this.width = wrapWidthOf(all);
    if (this.width > 0) this.labels = labelsOf(all, this.width);
    return all.length ? this.pass(all) : null;
  }

  private pass(b: Uint8Array): Uint8Array {
    if (this.width === 0) return b;
    const out = new Uint8Array(b.length + 2);
    let o = 0;
    let i = 0;
    if (this.pending) {
      this.pending = false;
      if (!this.join(b, 0)) {
        if (this.pendingCr) out[o++] = CR;
        out[o++] = NL;
        this.logical++;
      }
    }
    const w = this.width;
    while (i < b.length) {
      const c = b[i]!;
      if (c === NL) {
        const len = this.run > 0 && b[i - 1] === CR ? this.run - 1 : this.run;
        const cr = i > 0 && b[i - 1] === CR;
        this.run = 0;
        if (len === w && this.joins.length < MAX_JOINS) {
          if (i + 1 >= b.length) {
            // Decide when the next bytes come.
            if (cr) o--;
            this.pending = true;
            this.pendingCr = cr;
            i++;
            continue;
          }
          if (this.join(b, i + 1)) {
            if (cr) o--;
            i++;
            continue;
          }
        }
        out[o++] = NL;
        this.logical++;
        i++;
        continue;
      }
      if (this.run >= 0) this.run = c >= 0x80 ? -1 : this.run + 1;
      out[o++] = c;
      i++;
    }
    return out.subarray(0, o);
  }

  /** Join the line starting at b[at] to the piece before it, unless it starts like a log line of its own. */
  private join(b: Uint8Array, at: number): boolean {
    if (startsLikeALine(b, at, this.labels)) return false;
    this.joins.push(this.logical);
    return true;
  }
}

/**
 * The width the head is wrapped at, or 0: the longest lines (ASCII, 80–512 bytes) share one length, and most of
 * them go on mid-token in a next line that does not start like a log line — the rest of a broken word or path.
 */
export function wrapWidthOf(b: Uint8Array): number {
  const lengths = new Map<number, { n: number; continued: number; pieces: Set<number> }>();
  let max = 0;
  let s = 0;
  while (s < b.length) {
    let e = b.indexOf(NL, s);
    if (e < 0) e = b.length;
    const end = e > s && b[e - 1] === CR ? e - 1 : e;
    let ascii = true;
    for (let k = s; k < end; k++)
      if (b[k]! >= 0x80) {
        ascii = false;
        break;
      }
    const len = end - s;
    if (ascii && len >= MIN_WIDTH) {
      if (len > max) max = len;
      const got = lengths.get(len) ?? { n: 0, continued: 0, pieces: new Set<number>() };
      got.n++;
      // Broken mid-token: the piece ends in a non-blank and the next line goes on with one (a terminal breaks at
      // the width whatever the text; a long line followed by an indented frame or a new log line is no wrap).
      if (e + 1 < b.length && isWordByte(b[end - 1]) && isWordByte(b[e + 1]) && remainderOf(b, e + 1)) {
        const key = hashOf(b, s, end);
        if (!got.pieces.has(key)) {
          got.pieces.add(key);
          got.continued++;
        }
      }
      lengths.set(len, got);
    }
    s = e + 1;
  }
  if (max < MIN_WIDTH || max > MAX_WIDTH) return 0;
  const at = lengths.get(max)!;
  return at.continued >= MIN_PIECES ? max : 0;
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const isWordByte = (c: number | undefined) =>
  c !== undefined && (isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f);

/** A line's bytes hashed (the same line repeated is one piece, not several). */
function hashOf(b: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ b[k]!, 0x01000193);
  return h >>> 0;
}

function startsWith(b: Uint8Array, at: number, s: string): boolean {
  if (at + s.length > b.length) return false;
  for (let k = 0; k < s.length; k++) if (b[at + k] !== s.charCodeAt(k)) return false;
  return true;
}

/**
 * The line at b[at] is the rest of a broken line: it does not start like a log line, and what follows it does
 * (or the text ends) — a table's next row, padded to the same width, is followed by more rows.
 */
function remainderOf(b: Uint8Array, at: number): boolean {
  if (startsLikeALine(b, at)) return false;
  const e = b.indexOf(NL, at);
  return e < 0 || e + 1 >= b.length || startsLikeALine(b, e + 1) || isBlank(b[e + 1]);
}

/** A traceback's source line after a frame's rest (`it__.py", line 346, in wrapper`), indented. */
const isBlank = (c: number | undefined) => c === 0x20 || c === 0x09;

const LINE_STARTS = [
  'Traceback (',
  '  File "',
  'INFO:',
  'WARNING:',
  'ERROR:',
  'DEBUG:',
  'CRITICAL:',
  '***',
  '====',
  'frame #',
];

/**
 * The `name: ` labels that start lines of the head not following a piece of the width: pdsh's `host: `, a
 * collector's `worker-1: `. A piece broken before `entrypoint: python` is not such a line, unless the file's
 * lines start with `entrypoint: ` elsewhere.
 */
function labelsOf(b: Uint8Array, width: number): Set<string> {
  const out = new Set<string>();
  let prev = -1;
  let s = 0;
  while (s < b.length) {
    let e = b.indexOf(NL, s);
    if (e < 0) e = b.length;
    const label = prev !== width ? labelAt(b, s) : null;
    if (label !== null) out.add(label);
    prev = (e > s && b[e - 1] === CR ? e - 1 : e) - s;
    s = e + 1;
  }
  return out;
}

/** The token of a `name: ` label at b[at], or null. */
function labelAt(b: Uint8Array, at: number): string | null {
  let k = at;
  while (k < b.length && k < at + 64 && (isWordByte(b[k]) || b[k] === 0x2d || b[k] === 0x2e)) k++;
  if (k === at || b[k] !== 0x3a || b[k + 1] !== 0x20) return null;
  return String.fromCharCode(...b.subarray(at, k));
}

/**
 * The line at b[at] starts like a log line of its own (a line that filled the width exactly is then not
 * wrapped): a glog or C++ prefix, a date, a bracket, a logger's level, a traceback's own lines, a task label
 * (with `labels`, a `name: ` label only when it is one of them).
 */
function startsLikeALine(b: Uint8Array, at: number, labels: ReadonlySet<string> | null = null): boolean {
  const c = b[at];
  if (c === undefined || c === NL || c === CR) return true;
  // glog `I1201 `, `W1201 09:…`
  if ((c === 0x49 || c === 0x57 || c === 0x45 || c === 0x46) && isDigit(b[at + 1]) && isDigit(b[at + 4])) return true;
  // `[W socket.cpp…]`, `[2025-…`, `[rank0]:`, `[default0]:`
  if (c === 0x5b) return true;
  // `2025-06-04…`, and a Slurm label `12: `
  if (isDigit(c)) {
    let k = at;
    while (k < b.length && k < at + 6 && isDigit(b[k])) k++;
    if (k - at === 4 && b[k] === 0x2d) return true;
    if (b[k] === 0x3a && b[k + 1] === 0x20) return true;
  }
  for (const s of LINE_STARTS) if (startsWith(b, at, s)) return true;
  // An actor label `(Name pid=N…)`.
  if (c === 0x28) {
    let k = at + 1;
    while (k < b.length && k < at + 82 && (isWordByte(b[k]) || b[k] === 0x2e)) k++;
    return k > at + 1 && startsWith(b, k, ' pid=');
  }
  // A label, NCCL's `host:pid:tid [dev] `, torchx's `trainer/0 `: a token, then a colon before a number and a
  // colon or before a blank, or a slash and a number.
  let k = at;
  while (k < b.length && k < at + 64 && (isWordByte(b[k]) || b[k] === 0x2d || b[k] === 0x2e)) k++;
  if (k === at) return false;
  if (b[k] === 0x3a && isDigit(b[k + 1])) {
    // `host:pid:tid [dev] `, grep's `file:14:`; not `store_based_barrier_key:1 (world_size=…` going on.
    k++;
    while (k < b.length && isDigit(b[k])) k++;
    return b[k] === 0x3a;
  }
  if (b[k] === 0x3a && b[k + 1] === 0x20)
    return labels === null || labels.has(String.fromCharCode(...b.subarray(at, k)));
  // (torchx's app names start with a letter: `2/2 attempts left` is a message going on.)
  if (b[k] !== 0x2f || !isDigit(b[k + 1]) || isDigit(c)) return false;
  k++;
  while (k < b.length && isDigit(b[k])) k++;
  return b[k] === 0x20;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
