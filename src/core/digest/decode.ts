import * as v from 'valibot';
import { sentence, sentenceText, type Sentence } from '../../i18n/sentence';
import { fileProblem } from '../fileProblem';
import type { FileExtract } from '../model';
import { crc32Hex } from './crc';
import { DIGEST_FORMAT, DIGEST_VERSION, type Digest } from './format';
import { unpackExtract } from './pack';
import { DigestSchema } from './schema';

// Reading a digest back: any bytes in, a digest or one sentence saying what is wrong with it — never a throw.

export type DigestError = 'damaged' | 'newer-version' | 'older-version' | 'changed' | 'invalid';

export type DecodedDigest =
  | { ok: true; digest: Digest }
  | { ok: false; code: DigestError; sentence: Sentence; /** The sentence in English. */ message: string };

/** JSON whitespace, and a byte-order mark, may come before the first member. */
const HEAD = /^\uFEFF?\s*\{\s*"format"\s*:\s*"skewscope-digest"/;
const HEAD_TEXT = `{"format":"${DIGEST_FORMAT}"`;
/** Leading whitespace a head may have before it stops looking like a digest. */
const MAX_LEADING_SPACE = 256;

/**
 * Whether a file that starts with these bytes is a digest: 'yes', 'no', or 'more' (too few bytes to tell).
 * Only the opening (`{"format":"skewscope-digest"`, any JSON whitespace between) decides, so a log is told
 * from a digest by its first bytes, whatever its name.
 */
export function sniffDigest(head: Uint8Array): 'yes' | 'no' | 'more' {
  const n = Math.min(head.length, MAX_LEADING_SPACE + 64);
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(head[i]!);
  // The UTF-8 byte-order mark, read byte by byte, is three Latin-1 characters.
  s = s.replace(/^\u00ef\u00bb\u00bf/, '\uFEFF');
  if (HEAD.test(s)) return 'yes';
  const compact = s.replace(/^\uFEFF/, '').replace(/\s+/g, '');
  if (compact.length >= HEAD_TEXT.length || n >= MAX_LEADING_SPACE + 64) return 'no';
  return HEAD_TEXT.startsWith(compact) && n === head.length ? 'more' : 'no';
}

function fail(code: DigestError, said: Sentence): DecodedDigest {
  return { ok: false, code, sentence: said, message: sentenceText('en', said) };
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Whether a text that does not parse ends inside an object, an array or a string: a copy cut short, not one
 * damaged in the middle. (A cut can end on a `}` of an inner object, so the last character does not tell.)
 */
function opensLeft(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return inString || depth > 0;
}

/** A digest's text → the digest, checked: JSON, format, version, checksum, every field the analysis reads. */
export function decodeDigest(text: string, name: string): DecodedDigest {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const cut = opensLeft(text);
    return fail('damaged', sentence(cut ? 'digest.cut' : 'digest.damaged', { file: name }));
  }
  if (!isObj(doc) || doc.format !== DIGEST_FORMAT) return fail('invalid', sentence('digest.notOne', { file: name }));
  const version = doc.version;
  const producer = typeof doc.producer === 'string' ? doc.producer.slice(0, 64) : null;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return fail('invalid', sentence('digest.noVersion', { file: name }));
  const formats = { file: name, version: String(version), reads: String(DIGEST_VERSION) };
  if (version > DIGEST_VERSION)
    return fail(
      'newer-version',
      producer === null ? sentence('digest.newerUnknown', formats) : sentence('digest.newer', { ...formats, producer }),
    );
  if (version < DIGEST_VERSION) return fail('older-version', sentence('digest.older', formats));
  const { check, ...body } = doc;
  if (typeof check !== 'string') return fail('invalid', sentence('digest.noCheck', { file: name }));
  if (!sealedAsMade(text, check) && crc32Hex(JSON.stringify(body)) !== check)
    return fail('changed', sentence('digest.changed', { file: name }));
  const lines = body.lines === true;
  if (Array.isArray(body.files)) body.files = body.files.map((x) => unpackExtract(x, lines));
  const parsed = v.safeParse(DigestSchema, { ...body, check });
  if (!parsed.success) {
    const detail = issueText(parsed.issues[0]);
    return fail(
      'invalid',
      detail === null
        ? sentence('digest.invalidShape', { file: name })
        : sentence('digest.invalid', { file: name, detail }),
    );
  }
  const digest = parsed.output as unknown as Digest;
  const names = new Set<string>();
  for (const x of digest.files) {
    if (names.has(x.file)) return fail('invalid', sentence('digest.twice', { file: name, member: x.file }));
    names.add(x.file);
  }
  return { ok: true, digest };
}

/** The check is over the body's JSON; a digest as skewscope wrote it is that text with the check added last. */
const SEAL = /,"check":"([0-9a-f]{8})"\}\s*$/;
function sealedAsMade(text: string, check: string): boolean {
  const tail = text.slice(-64);
  const m = SEAL.exec(tail);
  if (!m || m[1] !== check) return false;
  return crc32Hex(text.slice(0, text.length - tail.length + m.index) + '}') === check;
}

/**
 * Where in the digest, and the schema's words for what is wrong there (shown as code):
 * `files[2].streams[0].events[5].kind: an unknown event kind`.
 */
function issueText(issue: v.BaseIssue<unknown> | undefined): string | null {
  if (!issue) return null;
  let where = '';
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === 'number') where += `[${key}]`;
    else where += where ? `.${String(key).slice(0, 40)}` : String(key).slice(0, 40);
  }
  let what = issue.message;
  if (/^Invalid type/.test(what)) what = `expected ${issue.expected ?? 'something else'}, got ${issue.received}`;
  else if (/^Invalid/.test(what)) what = `${issue.expected ?? 'a different value'} expected, got ${issue.received}`;
  return where ? `${where}: ${what}` : what;
}

/** A digest file that cannot be read, as the job lists it: with what is wrong with it. */
export function digestProblem(name: string, bytes: number, mtimeMs: number | null, why: Sentence): FileExtract {
  return {
    file: name,
    bytes,
    lines: 1,
    longLines: 0,
    invalidUtf8: false,
    mtimeMs,
    streams: [],
    problem: fileProblem('unreadable', sentence('said.end', { what: why })),
  };
}
