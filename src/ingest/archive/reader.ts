// One input file in, its extracts out: a plain log, a `.gz`, a `.tar`, a `.tar.gz`/`.tgz` or a `.zip`, streamed.
// Bytes are pushed in whatever chunks the caller reads (a browser File's stream, a Node read stream); each archive
// member goes into its own extractor as it is inflated, so neither an archive nor a member is ever held whole.
// Pure TypeScript (no DOM, no Node APIs): the parse worker and the CLI both use it.
import { Gunzip, Unzip, UnzipInflate, type UnzipDecoderConstructor, type UnzipFile } from 'fflate';
import { createExtractor, type Extractor } from '../../core/index';
import { fileProblem } from '../../core/fileProblem';
import type { FileExtract, FileProblem } from '../../core/model';
import { sentence, SentenceError, type Sentence } from '../../i18n/sentence';
import { TarError, TarReader, type TarHandler } from './tar';

export type InputKind = 'plain' | 'gz' | 'tar' | 'tar.gz' | 'zip';

/** What a file is, from its name (as the user named it: a `.tar.gz` is a tar, not one gzipped file). */
export function inputKind(name: string): InputKind {
  const n = name.toLowerCase();
  if (n.endsWith('.tar.gz') || n.endsWith('.tgz')) return 'tar.gz';
  if (n.endsWith('.tar')) return 'tar';
  if (n.endsWith('.zip')) return 'zip';
  if (n.endsWith('.gz')) return 'gz';
  return 'plain';
}

/** True for names that hold several files (a tar or a zip); `.gz` and plain logs hold one. */
export function isMultiFileArchive(name: string): boolean {
  const kind = inputKind(name);
  return kind === 'tar' || kind === 'tar.gz' || kind === 'zip';
}

export interface ArchiveLimits {
  /** Inflated bytes one input may produce in all (every member, nested `.gz` included). */
  maxInflatedBytes: number;
  /** Past this many inflated bytes, a ratio above `maxRatio` stops the input. */
  ratioAfterBytes: number;
  /**
   * Inflated ÷ compressed bytes read. DEFLATE cannot pass about 1032:1 (a stream of one repeated byte), real logs
   * compress 5–50:1 and even a log of one line printed over and over stays below a few hundred once it holds
   * timestamps; so 500:1 past 256 MiB is a bomb (nested compression) or a file of nothing, not a log — and it is
   * caught after about a second of inflating instead of several.
   */
  maxRatio: number;
  /** Files in one archive. */
  maxMembers: number;
}

export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxInflatedBytes: 8 * 1024 ** 3,
  ratioAfterBytes: 256 * 1024 ** 2,
  maxRatio: 500,
  maxMembers: 20_000,
};

export interface InputReaderOptions {
  /** The input file's modification time (ms since epoch): the year hint for its members without their own. */
  mtimeMs: number | null;
  /** Receives every finished extract, in archive order (problems included). */
  onExtract(extract: FileExtract): void;
  limits?: Partial<ArchiveLimits>;
  /** Sees each file's bytes (a member's as inflated) as they reach its extractor, named as its extract is. */
  tap?(file: string, chunk: Uint8Array): void;
}

export interface InputReader {
  /** Feeds the next bytes of the input file (any chunk size). */
  push(chunk: Uint8Array): void;
  /** The input ended: finishes the open member and reports an archive cut short. Call once. */
  finish(): void;
  /** True once reading stopped early (a bomb, a damaged archive): later pushes are ignored, stop reading. */
  readonly stopped: boolean;
}

/**
 * The core decides "binary" and "compressed" from the first chunk an extractor gets; a member's first bytes can
 * arrive in a sliver at the end of an inflated block, so each member's first 8 KiB are handed over as one chunk.
 */
const HEAD_BYTES = 8192;
/** Compressed bytes per decompressor push: bounds what one push inflates to (about 33 MiB at DEFLATE's maximum). */
const SLICE_BYTES = 32 * 1024;
/** ZIP methods that exist in the wild but that fflate does not inflate: their members are skipped and listed. */
const ZIP_METHODS: Record<number, string> = {
  9: 'Deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'Zstandard',
  95: 'xz',
  98: 'PPMd',
  99: 'AES',
};

class BombError extends SentenceError {}
class ArchiveError extends SentenceError {}

export function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** A member's path as shown and used for node identity; null for entries that are not logs (macOS metadata). */
export function memberPath(raw: string): string | null {
  const parts = raw
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.' && p !== '..');
  const base = parts[parts.length - 1];
  if (base === undefined || parts[0] === '__MACOSX' || base.startsWith('._') || base === '.DS_Store') return null;
  return parts.join('/');
}

function isGzName(path: string): boolean {
  return inputKind(path) === 'gz';
}

function withoutGz(path: string): string {
  return path.replace(/\.gz$/i, '');
}

/** Pushes `chunk` to a decompressor in slices, counting compressed bytes as each slice goes in. */
function sliced(chunk: Uint8Array, push: (slice: Uint8Array) => void, count?: (n: number) => void): void {
  for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
    const slice = chunk.subarray(at, Math.min(chunk.length, at + SLICE_BYTES));
    count?.(slice.length);
    push(slice);
  }
}

const EMPTY = new Uint8Array(0);
/** Inflated bytes are counted and passed on this much at a time, so what came before a bomb is still read. */
const PIECE_BYTES = 1 << 20;

/** Passes inflated bytes on in pieces, each counted first (the count throws past the limits). */
function deliver(data: Uint8Array, account: Account, sink: (piece: Uint8Array) => void): void {
  for (let at = 0; at < data.length; at += PIECE_BYTES) {
    const piece = data.subarray(at, Math.min(data.length, at + PIECE_BYTES));
    account.inflated(piece.length);
    sink(piece);
  }
}

/**
 * What a decompressor's or the tar reader's complaint means for the person who dropped the file. fflate's own
 * words for what it does not name here are passed on as they are (shown as code).
 */
function damage(archive: string, error: unknown, consumed: number): Sentence {
  if (error instanceof TarError) return sentence('archive.damaged', { archive, what: error.sentence });
  if (error instanceof ArchiveError) return error.sentence;
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'unexpected EOF') return sentence('archive.cutShort', { archive, bytes: bytesText(consumed) });
  if (message === 'invalid gzip data') return sentence('archive.notGzip', { archive });
  if (message === 'invalid zip data') return sentence('archive.badZip', { archive });
  return sentence('archive.damagedRaw', { archive, message, bytes: bytesText(consumed) });
}

interface Account {
  /** Counts inflated bytes; throws a BombError past the limits. */
  inflated(n: number): void;
}

/** One file's bytes into one extractor, through a gunzip when it is a `.gz` inside an archive. */
class Member {
  private readonly extractor: Extractor;
  private head: Uint8Array | null = new Uint8Array(HEAD_BYTES);
  private headFill = 0;
  private readonly gunzip: Gunzip | null;
  private nestedIn = 0;
  problem: FileProblem | null = null;

  constructor(
    readonly file: string,
    mtimeMs: number | null,
    /** The member's name in its archive when it is gzipped there (`node0.log.gz`); null otherwise. */
    private readonly gzName: string | null,
    account: Account,
    private readonly tap: InputReaderOptions['tap'],
  ) {
    this.extractor = createExtractor(file, { mtimeMs });
    this.gunzip = gzName ? new Gunzip((data) => deliver(data, account, (piece) => this.toExtractor(piece))) : null;
  }

  push(chunk: Uint8Array): void {
    if (this.problem) return;
    if (!this.gunzip) return this.toExtractor(chunk);
    try {
      sliced(
        chunk,
        (slice) => this.gunzip!.push(slice),
        (n) => (this.nestedIn += n),
      );
    } catch (error) {
      this.nestedFailed(error);
    }
  }

  /** The member's extract; a skewscope digest gives the extracts it carries. */
  finish(): FileExtract[] {
    if (this.gunzip && !this.problem) {
      try {
        this.gunzip.push(EMPTY, true);
      } catch (error) {
        this.nestedFailed(error);
      }
    }
    if (this.problem) return [this.abort(this.problem)];
    if (this.head && this.headFill > 0) this.extractor.push(this.head.subarray(0, this.headFill));
    this.head = null;
    return this.extractor.finishAll();
  }

  /** The member's extract with a problem instead of its lines (what was read of it is not trusted). */
  abort(problem: FileProblem): FileExtract {
    this.head = null;
    return { ...this.extractor.finish(), streams: [], problem };
  }

  private nestedFailed(error: unknown): void {
    // A bomb stops the whole archive; a damaged member inside it is that member's problem only.
    if (error instanceof BombError) throw error;
    this.problem = fileProblem('archive-error', damage(this.gzName!, error, this.nestedIn));
  }

  private toExtractor(chunk: Uint8Array): void {
    this.tap?.(this.file, chunk);
    if (!this.head) return this.extractor.push(chunk);
    const n = Math.min(chunk.length, HEAD_BYTES - this.headFill);
    this.head.set(chunk.subarray(0, n), this.headFill);
    this.headFill += n;
    if (this.headFill < HEAD_BYTES) return;
    const head = this.head;
    this.head = null;
    this.extractor.push(head);
    if (n < chunk.length) this.extractor.push(chunk.subarray(n));
  }
}

/** An extract for the input itself, when what went wrong is not inside one member. */
function inputProblem(file: string, bytes: number, mtimeMs: number | null, problem: FileProblem): FileExtract {
  return { file, bytes, lines: 0, longLines: 0, invalidUtf8: false, mtimeMs, streams: [], problem };
}

class Reader implements InputReader, Account {
  stopped = false;
  private readonly limits: ArchiveLimits;
  private readonly kind: InputKind;
  /** Input bytes pushed, and compressed bytes handed to the decompressor so far. */
  private read = 0;
  private consumed = 0;
  private inflatedBytes = 0;
  private members = 0;
  private member: Member | null = null;
  private readonly gunzip: Gunzip | null = null;
  private readonly tar: TarReader | null = null;
  private readonly unzip: Unzip | null = null;
  private zipEntries = 0;
  private emitted = 0;
  private zipHead = new Uint8Array(4);
  private zipHeadFill = 0;

  constructor(
    private readonly name: string,
    private readonly options: InputReaderOptions,
  ) {
    this.limits = { ...ARCHIVE_LIMITS, ...options.limits };
    this.kind = inputKind(name);
    switch (this.kind) {
      case 'plain':
        this.member = this.open(name, options.mtimeMs, null);
        break;
      case 'gz':
        // One gzipped log: its extract keeps the log's own name, as if it had been dropped unpacked.
        this.member = this.open(withoutGz(name), options.mtimeMs, null);
        this.gunzip = new Gunzip((data) => deliver(data, this, (piece) => this.member?.push(piece)));
        break;
      case 'tar':
        this.tar = new TarReader(this.tarHandler());
        break;
      case 'tar.gz':
        this.tar = new TarReader(this.tarHandler());
        this.gunzip = new Gunzip((data) => deliver(data, this, (piece) => this.tar!.push(piece)));
        break;
      case 'zip':
        this.unzip = new Unzip((file) => this.zipFile(file));
        this.unzip.register(UnzipInflate);
        for (const method of Object.keys(ZIP_METHODS)) this.unzip.register(skipDecoder(Number(method)));
        break;
    }
  }

  push(chunk: Uint8Array): void {
    if (this.stopped || chunk.length === 0) return;
    this.read += chunk.length;
    try {
      if (this.gunzip) {
        const gunzip = this.gunzip;
        sliced(
          chunk,
          (slice) => gunzip.push(slice),
          (n) => (this.consumed += n),
        );
      } else if (this.unzip) {
        this.sniffZip(chunk);
        const unzip = this.unzip;
        sliced(
          chunk,
          (slice) => unzip.push(slice),
          (n) => (this.consumed += n),
        );
      } else if (this.tar) {
        this.consumed += chunk.length;
        this.tar.push(chunk);
      } else {
        this.consumed += chunk.length;
        this.member?.push(chunk);
      }
    } catch (error) {
      this.fail(error);
    }
  }

  finish(): void {
    if (this.stopped) return;
    try {
      if (this.read === 0) {
        // Nothing to inflate: the core names an empty file for what it is.
        const member = this.member ?? this.open(this.name, this.options.mtimeMs, null);
        this.member = null;
        this.stopped = true;
        this.emitAll(member.finish());
        return;
      }
      this.gunzip?.push(EMPTY, true);
      this.tar?.finish();
      if (this.unzip) {
        this.unzip.push(EMPTY, true);
        if (this.member)
          throw new ArchiveError(sentence('archive.endsInMember', { archive: this.name, member: this.member.file }));
        if (this.zipEntries === 0) throw new ArchiveError(this.notAZip());
      }
      const member = this.member;
      this.member = null;
      this.stopped = true;
      if (member) this.emitAll(member.finish());
      // A tar of folders only, a zip of macOS metadata: the input is still listed, with the reason.
      if (this.emitted === 0)
        this.emit(
          inputProblem(
            this.name,
            this.read,
            this.options.mtimeMs,
            fileProblem('empty', sentence('archive.noFiles', { archive: this.name })),
          ),
        );
    } catch (error) {
      this.fail(error);
    }
  }

  inflated(n: number): void {
    this.inflatedBytes += n;
    const { maxInflatedBytes, ratioAfterBytes, maxRatio } = this.limits;
    const read = Math.max(1, this.consumed);
    if (this.inflatedBytes > maxInflatedBytes)
      throw new BombError(
        sentence('archive.inflatesPast', {
          archive: this.name,
          max: bytesText(maxInflatedBytes),
          read: bytesText(read),
        }),
      );
    if (this.inflatedBytes > ratioAfterBytes && this.inflatedBytes > maxRatio * read)
      throw new BombError(
        sentence('archive.bombRatio', {
          archive: this.name,
          ratio: String(Math.round(this.inflatedBytes / read)),
          inflated: bytesText(this.inflatedBytes),
          read: bytesText(read),
        }),
      );
  }

  private open(file: string, mtimeMs: number | null, gzName: string | null): Member {
    this.members += 1;
    if (this.members > this.limits.maxMembers)
      throw new BombError(sentence('archive.tooMany', { archive: this.name, max: this.limits.maxMembers }));
    return new Member(file, mtimeMs, gzName, this, this.options.tap);
  }

  /** A member of a tar or zip: `<archive>/<path inside>`, gunzipped on the way when it is a `.gz`. */
  private openMember(raw: string, mtimeMs: number | null): Member | null {
    const path = memberPath(raw);
    if (path === null) return null;
    const gz = isGzName(path);
    return this.open(`${this.name}/${gz ? withoutGz(path) : path}`, mtimeMs, gz ? path : null);
  }

  private emitAll(extracts: FileExtract[]): void {
    for (const x of extracts) this.emit(x);
  }

  private emit(extract: FileExtract): void {
    this.emitted += 1;
    this.options.onExtract(extract);
  }

  private fail(error: unknown): void {
    this.stopped = true;
    // Damage after the tar's end-of-archive blocks (a cut gzip trailer, padding) loses nothing.
    if (this.tar?.ended && !(error instanceof BombError)) return;
    const member = this.member;
    this.member = null;
    let problem: FileProblem;
    if (error instanceof BombError) {
      problem = fileProblem('bomb', sentence(member ? 'archive.notAnalysed' : 'said.end', { what: error.sentence }));
    } else {
      const what = damage(this.name, error, this.consumed);
      const inside = member && this.kind !== 'gz' && this.kind !== 'plain';
      problem = fileProblem('archive-error', sentence(inside ? 'archive.notAnalysed' : 'said.end', { what }));
    }
    if (member) this.emit(member.abort(problem));
    else this.emit(inputProblem(this.name, this.read, this.options.mtimeMs, problem));
  }

  private tarHandler(): TarHandler {
    return {
      entry: (entry) => {
        this.member = this.openMember(entry.path, entry.mtimeMs ?? this.options.mtimeMs);
      },
      data: (chunk) => this.member?.push(chunk),
      end: () => {
        const member = this.member;
        this.member = null;
        if (member) this.emitAll(member.finish());
      },
    };
  }

  private zipFile(file: UnzipFile): void {
    this.zipEntries += 1;
    const member = file.name.endsWith('/') ? null : this.openMember(file.name, this.options.mtimeMs);
    const unsupported = ZIP_METHODS[file.compression];
    if (member && unsupported) {
      this.emit(
        member.abort(
          fileProblem(
            'archive-error',
            file.compression === 99
              ? sentence('archive.zipEncrypted', { code: String(file.compression) })
              : sentence('archive.zipMethod', { method: unsupported, code: String(file.compression) }),
          ),
        ),
      );
    }
    if (!member || unsupported) {
      // Started all the same, so its compressed bytes flow past instead of piling up in the unzipper.
      file.ondata = (error) => {
        if (error) throw error;
      };
      file.start();
      return;
    }
    if (file.compression !== 0 && file.compression !== 8)
      throw new ArchiveError(
        sentence('archive.zipMethodOf', { archive: this.name, code: String(file.compression), member: file.name }),
      );
    this.member = member;
    file.ondata = (error, data, final) => {
      if (error) throw error;
      if (this.member !== member) return;
      deliver(data, this, (piece) => member.push(piece));
      if (final) {
        this.member = null;
        this.emitAll(member.finish());
      }
    };
    file.start();
  }

  private sniffZip(chunk: Uint8Array): void {
    if (this.zipHeadFill >= 4) return;
    const n = Math.min(4 - this.zipHeadFill, chunk.length);
    this.zipHead.set(chunk.subarray(0, n), this.zipHeadFill);
    this.zipHeadFill += n;
    if (this.zipHeadFill === 4 && !(this.zipHead[0] === 0x50 && this.zipHead[1] === 0x4b))
      throw new ArchiveError(this.notAZip());
  }

  private notAZip(): Sentence {
    const h = this.zipHead;
    const archive = this.name;
    if (this.zipHeadFill === 4 && h[0] === 0x50 && h[1] === 0x4b && h[2] === 5 && h[3] === 6)
      return sentence('archive.emptyZip', { archive });
    if (this.zipHeadFill >= 2 && h[0] === 0x1f && h[1] === 0x8b) return sentence('archive.gzipNotZip', { archive });
    return sentence('archive.notZip', { archive });
  }
}

/** A decoder for ZIP methods fflate cannot inflate: swallows the member's bytes so the archive reads on. */
function skipDecoder(method: number): UnzipDecoderConstructor {
  return class Skip {
    static compression = method;
    ondata: (error: Error | null, data: Uint8Array, final: boolean) => void = () => {};
    push(_chunk: Uint8Array, final: boolean): void {
      if (final) this.ondata(null, EMPTY, true);
    }
  };
}

export function createInputReader(name: string, options: InputReaderOptions): InputReader {
  return new Reader(name, options);
}

/** Reads a whole input held in memory (tests, small pastes): every extract, in order. */
export function readInput(
  name: string,
  chunks: Iterable<Uint8Array>,
  options: Omit<InputReaderOptions, 'onExtract'> = { mtimeMs: null },
): FileExtract[] {
  const out: FileExtract[] = [];
  const reader = createInputReader(name, { ...options, onExtract: (x) => out.push(x) });
  for (const chunk of chunks) {
    if (reader.stopped) break;
    reader.push(chunk);
  }
  reader.finish();
  return out;
}
