// A streaming tar reader: bytes in (any chunking, down to one byte at a time), entries out. It never holds more
// than one 512-byte header, plus a GNU long name or a pax header (capped), and passes file data straight through.
// Reads POSIX ustar (with its name prefix), GNU tar (`././@LongLink` long names, base-256 sizes) and pax
// (`path` and `size` records). Pure TypeScript: no DOM, no Node APIs.

import { sentence, SentenceError } from '../../i18n/sentence';

export interface TarEntry {
  /** The path inside the archive as stored: GNU long name or pax `path` applied, ustar prefix joined. */
  path: string;
  size: number;
  /** The entry's modification time (ms since epoch), or null when the header has none. */
  mtimeMs: number | null;
}

/** Receives the regular files in archive order: `entry`, then `data` for exactly `size` bytes, then `end`. */
export interface TarHandler {
  entry(entry: TarEntry): void;
  data(chunk: Uint8Array): void;
  end(): void;
}

/** What is wrong with a tar, as a sentence (src/i18n/<lang>/core.ts). */
export class TarError extends SentenceError {
  override name = 'TarError';
}

const BLOCK = 512;
/** A GNU long name or a pax header larger than this is not a name: the archive is damaged or hostile. */
const MAX_META_BYTES = 1024 * 1024;

type State = 'header' | 'data' | 'meta' | 'skip' | 'padding' | 'end';

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** A NUL-terminated text field. */
function field(h: Uint8Array, start: number, length: number): string {
  let end = start;
  while (end < start + length && h[end] !== 0) end++;
  return utf8.decode(h.subarray(start, end));
}

/** An octal number field (space or NUL padded), or GNU's base-256 form when the high bit of the first byte is set. */
function numeric(h: Uint8Array, start: number, length: number): number | null {
  const first = h[start]!;
  if (first & 0x80) {
    // Base-256, big-endian; the first byte's high bit is the marker (0xff would be a negative number).
    if (first === 0xff) return null;
    let value = first & 0x7f;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + h[i]!;
    return Number.isSafeInteger(value) ? value : null;
  }
  let value = 0;
  let digits = 0;
  for (let i = start; i < start + length; i++) {
    const c = h[i]!;
    if (c === 0) break;
    if (c === 0x20) {
      if (digits > 0) break;
      continue;
    }
    if (c < 0x30 || c > 0x37) return null;
    value = value * 8 + (c - 0x30);
    digits++;
  }
  return digits > 0 ? value : null;
}

function isZeroBlock(h: Uint8Array): boolean {
  for (let i = 0; i < BLOCK; i++) if (h[i] !== 0) return false;
  return true;
}

/** The header checksum: the sum of its bytes with the checksum field read as spaces (unsigned, or signed by old tars). */
function checksumMatches(h: Uint8Array): boolean {
  const stored = numeric(h, 148, 8);
  if (stored === null) return false;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : h[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return stored === unsigned || stored === signed;
}

/** pax extended header records: `<length> <key>=<value>\n`, the length counting the whole record. */
export function parsePax(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < bytes.length) {
    let space = pos;
    while (space < bytes.length && bytes[space] !== 0x20) space++;
    const length = Number(utf8.decode(bytes.subarray(pos, space)));
    if (!Number.isInteger(length) || length <= 0 || pos + length > bytes.length) {
      // Trailing NUL padding ends the records; anything else is damage.
      if (bytes.subarray(pos).every((b) => b === 0)) break;
      throw new TarError(sentence('tar.paxMalformed'));
    }
    const record = utf8.decode(bytes.subarray(space + 1, pos + length)).replace(/\n$/, '');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    pos += length;
  }
  return out;
}

export class TarReader {
  private state: State = 'header';
  private readonly header = new Uint8Array(BLOCK);
  private headerFill = 0;
  /** Bytes still to come in the current data, meta, skip or padding stretch. */
  private remaining = 0;
  private meta: { type: string; bytes: Uint8Array; fill: number } | null = null;
  private longName: string | null = null;
  private pax: Record<string, string> = {};
  private current: TarEntry | null = null;
  /** Bytes consumed so far: where in the archive a problem was found. */
  private offset = 0;
  private sawHeader = false;
  /** The size whose padding follows a skipped entry. */
  private pendingPadding = 0;

  constructor(private readonly handler: TarHandler) {}

  /** The file whose data is being read right now, if any. */
  get openEntry(): TarEntry | null {
    return this.state === 'data' ? this.current : null;
  }

  /** True once the end-of-archive marker was read; later bytes are ignored. */
  get ended(): boolean {
    return this.state === 'end';
  }

  push(chunk: Uint8Array): void {
    let pos = 0;
    while (pos < chunk.length && this.state !== 'end') {
      const available = chunk.length - pos;
      switch (this.state) {
        case 'header': {
          const n = Math.min(BLOCK - this.headerFill, available);
          this.header.set(chunk.subarray(pos, pos + n), this.headerFill);
          this.headerFill += n;
          pos += n;
          this.offset += n;
          if (this.headerFill === BLOCK) {
            this.headerFill = 0;
            this.readHeader();
          }
          break;
        }
        case 'data': {
          const n = Math.min(this.remaining, available);
          this.handler.data(chunk.subarray(pos, pos + n));
          pos += n;
          this.offset += n;
          this.remaining -= n;
          if (this.remaining === 0) this.endData();
          break;
        }
        case 'meta': {
          const meta = this.meta!;
          const n = Math.min(this.remaining, available);
          meta.bytes.set(chunk.subarray(pos, pos + n), meta.fill);
          meta.fill += n;
          pos += n;
          this.offset += n;
          this.remaining -= n;
          if (this.remaining === 0) this.endMeta();
          break;
        }
        case 'skip':
        case 'padding': {
          const n = Math.min(this.remaining, available);
          pos += n;
          this.offset += n;
          this.remaining -= n;
          if (this.remaining === 0) {
            if (this.state === 'skip') this.startPadding(this.pendingPadding);
            else this.state = 'header';
          }
          break;
        }
      }
    }
  }

  /** The input ended: an archive cut inside a header or a file's data is damaged. */
  finish(): void {
    if (this.state === 'end') return;
    if (!this.sawHeader)
      throw new TarError(
        this.offset === 0 ? sentence('tar.empty') : sentence('tar.tooShort', { bytes: String(this.offset) }),
      );
    if (this.state === 'header' && this.headerFill === 0) return; // ends on a header boundary without end blocks
    if (this.state === 'data' && this.current)
      throw new TarError(
        sentence('tar.endsInMember', {
          member: this.current.path,
          done: String(this.current.size - this.remaining),
          size: String(this.current.size),
        }),
      );
    throw new TarError(sentence('tar.endsInHeader', { at: String(this.offset) }));
  }

  private startPadding(size: number): void {
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    this.remaining = pad;
    this.state = pad > 0 ? 'padding' : 'header';
  }

  private readHeader(): void {
    const h = this.header;
    const at = this.offset - BLOCK;
    if (isZeroBlock(h)) {
      // One zero block is enough to end (GNU writes two, then pads to the record size).
      if (!this.sawHeader) throw new TarError(sentence('tar.noFiles'));
      this.state = 'end';
      return;
    }
    if (!checksumMatches(h)) {
      throw new TarError(this.sawHeader ? sentence('tar.headerDamaged', { at: String(at) }) : sentence('tar.notTar'));
    }
    this.sawHeader = true;
    const type = String.fromCharCode(h[156]!);
    const magic = field(h, 257, 6);
    let size = numeric(h, 124, 12) ?? 0;
    if (this.pax.size !== undefined) {
      const paxSize = Number(this.pax.size);
      if (Number.isSafeInteger(paxSize) && paxSize >= 0) size = paxSize;
    }
    if (size < 0 || !Number.isSafeInteger(size)) throw new TarError(sentence('tar.badSize', { at: String(at) }));

    if (type === 'L' || type === 'K' || type === 'x' || type === 'g') {
      if (size > MAX_META_BYTES)
        throw new TarError(
          sentence('tar.metaTooLarge', { kind: type === 'x' || type === 'g' ? 'pax' : 'long-name', at: String(at) }),
        );
      this.meta = { type, bytes: new Uint8Array(size), fill: 0 };
      this.remaining = size;
      this.state = 'meta';
      if (size === 0) this.endMeta();
      return;
    }

    // ustar keeps the leading directories of a long path in `prefix`; old GNU tar uses those bytes for times.
    const prefix = magic === 'ustar' && h[345] !== 0 ? field(h, 345, 155) : '';
    const stored = field(h, 0, 100);
    const path = this.pax.path ?? this.longName ?? (prefix ? `${prefix}/${stored}` : stored);
    const mtime = this.pax.mtime !== undefined ? Number(this.pax.mtime) : numeric(h, 136, 12);
    this.longName = null;
    this.pax = {};

    const regular = type === '0' || type === '\0' || type === '7';
    if (!regular) {
      // Directories, links, devices, sparse files: nothing to read as a log; skip what they carry.
      this.pendingPadding = size;
      this.remaining = size;
      if (size > 0) this.state = 'skip';
      else this.state = 'header';
      return;
    }
    this.current = { path, size, mtimeMs: mtime !== null && Number.isFinite(mtime) ? mtime * 1000 : null };
    this.handler.entry(this.current);
    this.remaining = size;
    this.state = 'data';
    if (size === 0) this.endData();
  }

  private endData(): void {
    const size = this.current?.size ?? 0;
    this.current = null;
    this.handler.end();
    this.startPadding(size);
  }

  private endMeta(): void {
    const meta = this.meta!;
    this.meta = null;
    if (meta.type === 'L') this.longName = field(meta.bytes, 0, meta.bytes.length);
    else if (meta.type === 'x') this.pax = { ...this.pax, ...parsePax(meta.bytes) };
    // 'K' (a long link target) and 'g' (pax defaults for the whole archive) say nothing a log reader needs.
    this.startPadding(meta.bytes.length);
  }
}
