import { sentence, type Sentence } from '../../i18n/sentence';
import type { FileExtract } from '../model';
import { decodeDigest, digestProblem, sniffDigest } from './decode';
import { MAX_DIGEST_FILE_BYTES } from './format';

/**
 * Sits in front of a file's line scanner: tells a digest from a log by the file's first bytes (whatever its
 * name) and holds a digest whole, as it is read whole. A log's bytes pass straight on; only a first chunk too
 * short to tell (a few dozen bytes at most) is held back until the next one.
 */
export class DigestSniffer {
  private sniffing = true;
  private held: Uint8Array | null = null;
  private chunks: Uint8Array[] | null = null;
  private bytes = 0;
  private result: { extracts: FileExtract[]; self: FileExtract } | null = null;

  constructor(
    private readonly file: string,
    private readonly mtimeMs: number | null,
  ) {}

  get isDigest(): boolean {
    return this.chunks !== null;
  }

  /** The bytes to pass on to the scanner: the chunk itself once the file is known to be a log, else none. */
  push(chunk: Uint8Array): Uint8Array | null {
    if (!this.sniffing) return this.keep(chunk);
    const head = this.held ? concat([this.held, chunk]) : chunk;
    const verdict = sniffDigest(head);
    if (verdict === 'more') {
      this.held = head.slice();
      return null;
    }
    this.sniffing = false;
    this.held = null;
    if (verdict === 'yes') this.chunks = [];
    return this.keep(head);
  }

  /** At the end of the file: what was held back for the scanner (a file shorter than a digest's opening). */
  flush(): Uint8Array | null {
    const held = this.held;
    this.sniffing = false;
    this.held = null;
    return held;
  }

  /** The digest's extracts, or the digest file itself with what is wrong with it. */
  read(): { extracts: FileExtract[]; self: FileExtract } {
    return (this.result ??= this.decode());
  }

  private keep(chunk: Uint8Array): Uint8Array | null {
    if (!this.chunks) return chunk;
    if (this.bytes + chunk.length <= MAX_DIGEST_FILE_BYTES) this.chunks.push(chunk.slice());
    this.bytes += chunk.length;
    return null;
  }

  private decode(): { extracts: FileExtract[]; self: FileExtract } {
    const { file, bytes, mtimeMs } = this;
    let why: Sentence;
    if (bytes > MAX_DIGEST_FILE_BYTES) {
      why = sentence('digest.tooLarge', { file, mib: String(MAX_DIGEST_FILE_BYTES / 1024 / 1024) });
    } else {
      const text = new TextDecoder().decode(concat(this.chunks ?? []));
      const pieces = digestLines(text);
      const self: FileExtract = {
        file,
        bytes,
        lines: pieces.length,
        longLines: 0,
        invalidUtf8: false,
        mtimeMs,
        streams: [],
        problem: null,
      };
      if (pieces.length === 1) {
        const decoded = decodeDigest(text, file);
        if (decoded.ok) return { extracts: decoded.digest.files, self };
        why = decoded.sentence;
      } else {
        // Several digests, one per line: each is read (or refused) on its own.
        const extracts = pieces.flatMap(({ line, text: one }) => {
          const name = `${file}:${line}`;
          const decoded = decodeDigest(one, name);
          return decoded.ok ? decoded.digest.files : [digestProblem(name, one.length, mtimeMs, decoded.sentence)];
        });
        return { extracts, self };
      }
    }
    const self = digestProblem(file, bytes, mtimeMs, why);
    return { extracts: [self], self };
  }
}

/** Where each digest of a file starts: a line that opens one. A digest reformatted over many lines is one piece. */
const OPENING = /^\s*\{\s*"format"\s*:\s*"skewscope-digest"/;
function digestLines(text: string): { line: number; text: string }[] {
  const lines = text.split('\n');
  const out: { line: number; lines: string[] }[] = [];
  lines.forEach((l, i) => {
    if (i === 0 || OPENING.test(l)) out.push({ line: i + 1, lines: [l] });
    else out.at(-1)!.lines.push(l);
  });
  return out.map((p) => ({ line: p.line, text: p.lines.join('\n') })).filter((p, i) => i === 0 || p.text.trim());
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
