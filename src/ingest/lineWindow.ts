// Reading a few lines out of a large log without holding the file as one string: the bytes stream past once,
// newline bytes are counted to reach the wanted lines, and only those lines are decoded. The byte offset of
// every CHECKPOINT_EVERY-th line start is remembered per file, so a later jump starts near its target.
// Pure: no DOM, no worker; the worker (lines.worker.ts) and the tests drive it with chunks.
//
// Line numbering matches the parsing core (src/core/lineScanner.ts): lines end at `\n`, a `\r` before it is
// dropped, and a last line without a newline is still a line.
import { CUT_MARKER } from '../core/lineScanner';

/** Longer lines are cut to this many UTF-16 units and end with CUT_MARKER. */
export const MAX_LINE_CHARS = 4000;
/** A checkpoint every this many lines: a jump reads at most this many lines it does not show. */
export const CHECKPOINT_EVERY = 1000;

export { CUT_MARKER };

const NL = 0x0a;
const CR = 0x0d;

export interface LineCheckpoint {
  /** 1-based number of the line that starts at `byte`. */
  line: number;
  byte: number;
}

/** What is known about one file's lines: checkpoints learnt while reading it, and its line count once read to the end. */
export class LineIndex {
  /** starts[k] is the byte offset of line k·every + 1. */
  private readonly starts: number[] = [0];
  /** Lines in the file, once some read reached its end. */
  total: number | null = null;

  constructor(readonly every: number = CHECKPOINT_EVERY) {
    if (!Number.isInteger(every) || every < 1) throw new Error('checkpoint interval must be a positive integer');
  }

  /** The last known checkpoint at or before `line`. */
  nearest(line: number): LineCheckpoint {
    const k = Math.max(0, Math.min(Math.floor((line - 1) / this.every), this.starts.length - 1));
    return { line: k * this.every + 1, byte: this.starts[k]! };
  }

  /** How many checkpoints are known (line 1 included). */
  get size(): number {
    return this.starts.length;
  }

  /** Called by a walker at every checkpoint line it passes; walkers start on a checkpoint, so this only extends. */
  note(line: number, byte: number): void {
    const k = (line - 1) / this.every;
    if (k === this.starts.length) this.starts.push(byte);
  }
}

export interface WalkOptions {
  /** First line to decode and hand to `onLine`. */
  decodeFrom: number;
  /** Stop once this line is reached (exclusive); Infinity reads to the end. */
  decodeTo: number;
  maxLineChars?: number;
  /** Gets each decoded line (without `\r`, cut to maxLineChars, no marker); return true to stop the walk. */
  onLine(line: number, text: string, cut: boolean): boolean | void;
}

/**
 * Walks the lines of a byte stream that begins at a checkpoint. Push chunks of any size (even one byte); it
 * says when it has what it needs. Call `end()` when the stream ends before that.
 */
export class LineWalker {
  /** Number of the line being read. */
  line: number;
  done = false;
  private readonly index: LineIndex;
  private readonly opts: WalkOptions;
  private readonly maxChars: number;
  private readonly maxBytes: number;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  /** Absolute byte offset of the next chunk's first byte. */
  private pos: number;
  private lineStart: number;
  private nextCheckpoint: number;
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private overflow = false;

  constructor(index: LineIndex, start: LineCheckpoint, opts: WalkOptions) {
    this.index = index;
    this.opts = opts;
    this.line = start.line;
    this.pos = start.byte;
    this.lineStart = start.byte;
    this.nextCheckpoint = start.line + index.every;
    this.maxChars = Math.max(1, opts.maxLineChars ?? MAX_LINE_CHARS);
    // Enough bytes for maxChars UTF-16 units whatever the characters are (UTF-8 never needs more than 4 per unit).
    this.maxBytes = this.maxChars * 4 + 4;
    if (opts.decodeTo <= start.line || opts.decodeTo <= opts.decodeFrom) this.done = true;
  }

  /** Returns true once the walk is over: stop reading. */
  push(chunk: Uint8Array): boolean {
    if (this.done) return true;
    const n = chunk.length;
    let i = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, i);
      const wanted = this.line >= this.opts.decodeFrom;
      if (wanted) this.collect(chunk, i, nl < 0 ? n : nl);
      if (nl < 0) break;
      const stop = wanted ? this.emit() : false;
      this.line += 1;
      this.lineStart = this.pos + nl + 1;
      if (this.line === this.nextCheckpoint) {
        this.index.note(this.line, this.lineStart);
        this.nextCheckpoint += this.index.every;
      }
      if (stop || this.line >= this.opts.decodeTo) {
        this.done = true;
        this.pos += n;
        return true;
      }
      i = nl + 1;
    }
    this.pos += n;
    return false;
  }

  /** The stream ended: a last line without a newline is still a line; the file's line count is now known. */
  end(): void {
    if (this.done) return;
    this.done = true;
    if (this.pos > this.lineStart) {
      if (this.line >= this.opts.decodeFrom) this.emit();
      this.index.total = this.line;
    } else {
      this.index.total = this.line - 1;
    }
  }

  private collect(chunk: Uint8Array, from: number, to: number): void {
    if (to <= from || this.overflow) return;
    const room = this.maxBytes - this.partBytes;
    if (to - from > room) {
      to = from + room;
      this.overflow = true;
    }
    // A copy: the caller may reuse its chunk buffer.
    this.parts.push(chunk.slice(from, to));
    this.partBytes += to - from;
  }

  private emit(): boolean {
    let bytes: Uint8Array;
    if (this.parts.length === 1) bytes = this.parts[0]!;
    else {
      bytes = new Uint8Array(this.partBytes);
      let at = 0;
      for (const p of this.parts) {
        bytes.set(p, at);
        at += p.length;
      }
    }
    if (!this.overflow && bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1);
    let text = this.decoder.decode(bytes);
    // A byte-order mark opens the file, not the first line.
    if (this.line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let cut = this.overflow;
    if (cut || text.length > this.maxChars) {
      cut = true;
      let end = Math.min(this.maxChars, text.length);
      // Never leave half of a surrogate pair at the cut.
      const last = text.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) end -= 1;
      text = text.slice(0, end);
    }
    this.parts = [];
    this.partBytes = 0;
    this.overflow = false;
    return this.opts.onLine(this.line, text, cut) === true;
  }
}

/** Gives a file's bytes from a byte offset on, in chunks. The consumer may stop early (`break`). */
export type ChunkSource = (fromByte: number) => AsyncIterable<Uint8Array>;

export interface LineWindow {
  /** Number of lines[0]; may differ from the request when it asked for lines past the end. */
  from: number;
  lines: string[];
  /** Whether each line was cut (its text then ends with CUT_MARKER). */
  cut: boolean[];
  /** Catalogue id of each line when a recogniser was given (null: not recognised). */
  ids: (string | null)[];
  /** Lines in the file, when known (a read has reached its end). */
  total: number | null;
}

export interface WindowOptions {
  maxLineChars?: number;
  /** Which catalogue entry a line is; runs on the text before any cut marker. */
  recognise?: (text: string) => string | null;
  /** Checked between chunks: a read nobody waits for any more stops early. */
  cancelled?: () => boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

async function walk(
  index: LineIndex,
  source: ChunkSource,
  opts: WalkOptions,
  cancelled: (() => boolean) | undefined,
): Promise<void> {
  const start = index.nearest(opts.decodeFrom);
  const walker = new LineWalker(index, start, opts);
  if (walker.done) return;
  for await (const chunk of source(start.byte)) {
    if (cancelled?.()) throw new CancelledError();
    if (walker.push(chunk)) return;
  }
  walker.end();
}

/**
 * Lines `from` … `from + count − 1` of a file (1-based). Asking past the end gives the file's last lines
 * (`from` in the answer says which); an empty file gives no lines.
 */
export async function readWindow(
  index: LineIndex,
  source: ChunkSource,
  from: number,
  count: number,
  opts: WindowOptions = {},
): Promise<LineWindow> {
  const want = Math.max(0, Math.floor(count));
  let first = Math.max(1, Math.floor(from));
  if (index.total !== null && first > index.total) first = Math.max(1, index.total - want + 1);
  const read = async (at: number): Promise<LineWindow> => {
    const lines: string[] = [];
    const cut: boolean[] = [];
    const ids: (string | null)[] = [];
    if (want > 0) {
      await walk(
        index,
        source,
        {
          decodeFrom: at,
          decodeTo: at + want,
          maxLineChars: opts.maxLineChars,
          onLine: (_line, text, wasCut) => {
            ids.push(opts.recognise ? opts.recognise(text) : null);
            lines.push(wasCut ? text + CUT_MARKER : text);
            cut.push(wasCut);
          },
        },
        opts.cancelled,
      );
    }
    return { from: at, lines, cut, ids, total: index.total };
  };
  const window = await read(first);
  // Past the end: now that the line count is known, give the last lines instead of nothing.
  if (window.lines.length === 0 && want > 0 && index.total !== null && index.total > 0 && first > index.total) {
    return read(Math.max(1, index.total - want + 1));
  }
  return window;
}

export interface FindOptions extends WindowOptions {
  /** Give up after looking at this many lines (null is returned). */
  limit?: number;
  /** Lines read per step when searching backwards. */
  block?: number;
}

/**
 * The nearest line after (`dir` 1) or before (`dir` −1) line `from` whose text passes `test`, or null when
 * there is none within `limit` lines.
 */
export async function findLine(
  index: LineIndex,
  source: ChunkSource,
  from: number,
  dir: 1 | -1,
  test: (text: string) => boolean,
  opts: FindOptions = {},
): Promise<number | null> {
  const limit = Math.max(1, opts.limit ?? 200_000);
  if (dir === 1) {
    let found: number | null = null;
    const first = Math.max(1, Math.floor(from) + 1);
    await walk(
      index,
      source,
      {
        decodeFrom: first,
        decodeTo: first + limit,
        maxLineChars: opts.maxLineChars,
        onLine: (line, text) => {
          if (!test(text)) return false;
          found = line;
          return true;
        },
      },
      opts.cancelled,
    );
    return found;
  }
  // Backwards: windows ending just before `from`, each found quickly from the checkpoints passed on the way.
  const block = Math.max(1, opts.block ?? CHECKPOINT_EVERY);
  let hi = Math.floor(from) - 1;
  if (index.total !== null) hi = Math.min(hi, index.total);
  let looked = 0;
  while (hi >= 1 && looked < limit) {
    const lo = Math.max(1, hi - block + 1, hi - (limit - looked) + 1);
    const w = await readWindow(index, source, lo, hi - lo + 1, {
      maxLineChars: opts.maxLineChars,
      cancelled: opts.cancelled,
    });
    for (let i = Math.min(w.lines.length, hi - w.from + 1) - 1; i >= 0; i--) {
      const text = w.cut[i] ? w.lines[i]!.slice(0, -CUT_MARKER.length) : w.lines[i]!;
      if (test(text)) return w.from + i;
    }
    looked += hi - lo + 1;
    hi = lo - 1;
  }
  return null;
}
