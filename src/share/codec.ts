import { deflateSync, Inflate } from 'fflate';

// The envelope: JSON text → CRC-32 (4 bytes) + raw DEFLATE (with the format's preset dictionary) → base64url,
// in the URL fragment as `#share=<version>.<payload>`. The fragment never reaches a server. Decoding is bounded: the fragment's length
// is checked before anything is decoded, and inflating stops as soon as the output passes the limit.

/** Longest fragment payload read at all. */
export const MAX_FRAGMENT_CHARS = 64 * 1024;
/** Largest JSON a payload may inflate to. */
export const MAX_INFLATED_BYTES = 1024 * 1024;

export type EnvelopeError =
  | 'not-a-share-link'
  | 'bad-version'
  | 'too-large'
  | 'bad-base64'
  | 'truncated'
  | 'bad-deflate'
  | 'too-large-inflated'
  | 'checksum'
  | 'bad-json';

export type Fragment = { ok: true; version: number; payload: string } | { ok: false; code: EnvelopeError };
export type Opened = { ok: true; json: unknown } | { ok: false; code: EnvelopeError };

export function seal(version: number, json: string, dictionary?: Uint8Array): string {
  const text = new TextEncoder().encode(json);
  const packed = deflateSync(text, { level: 9, mem: 12, ...(dictionary ? { dictionary } : {}) });
  const bytes = new Uint8Array(4 + packed.length);
  new DataView(bytes.buffer).setUint32(0, crc32(text));
  bytes.set(packed, 4);
  return `${version}.${toBase64Url(bytes)}`;
}

/** `…#share=1.xyz`, `#share=1.xyz` or `share=1.xyz` → the format version and the payload, before any decoding. */
export function parseFragment(input: string): Fragment {
  // The fragment of a URL, or the text itself (`share=1.…` pasted alone).
  const hash = input.indexOf('#');
  const fragment = hash >= 0 ? input.slice(hash + 1) : input.trim();
  const key = /(?:^|&)share=/.exec(fragment);
  if (!key) return { ok: false, code: 'not-a-share-link' };
  const raw = fragment.slice(key.index + key[0].length);
  if (raw.length > 2 * MAX_FRAGMENT_CHARS) return { ok: false, code: 'too-large' };
  // Mail and chat clients wrap long links: whitespace is never part of a payload, so it is dropped.
  const rest = raw.replace(/\s+/g, '');
  const m = /^(\d{1,4})\.([^&]*)/.exec(rest);
  if (!m) return { ok: false, code: /^\d{1,4}$/.test(rest) ? 'truncated' : 'bad-version' };
  if (m[2]!.length > MAX_FRAGMENT_CHARS) return { ok: false, code: 'too-large' };
  return { ok: true, version: Number(m[1]), payload: m[2]! };
}

/** The payload → the JSON it carries, checked: alphabet, length, inflated size, checksum, UTF-8, JSON. */
export function unpack(payload: string, dictionary: Uint8Array | undefined): Opened {
  const bytes = fromBase64Url(payload);
  if (bytes === 'bad') return { ok: false, code: 'bad-base64' };
  if (bytes === 'short' || bytes.length < 6) return { ok: false, code: 'truncated' };
  const inflated = inflateCapped(bytes.subarray(4), MAX_INFLATED_BYTES, dictionary);
  if (!inflated.ok) return { ok: false, code: inflated.code };
  if (crc32(inflated.bytes) !== new DataView(bytes.buffer, bytes.byteOffset).getUint32(0))
    return { ok: false, code: 'checksum' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes);
  } catch {
    return { ok: false, code: 'bad-json' };
  }
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, code: 'bad-json' };
  }
}

function inflateCapped(
  data: Uint8Array,
  max: number,
  dictionary: Uint8Array | undefined,
): { ok: true; bytes: Uint8Array } | { ok: false; code: 'truncated' | 'bad-deflate' | 'too-large-inflated' } {
  const parts: Uint8Array[] = [];
  let total = 0;
  let over = false;
  let ended = false;
  const inflate = new Inflate(dictionary ? { dictionary } : {}, (chunk, final) => {
    total += chunk.length;
    if (total > max) {
      over = true;
      throw new Error('inflated past the limit');
    }
    parts.push(chunk);
    if (final) ended = true;
  });
  try {
    // Small pushes: one push can inflate ~1000× its size, so each stays near the limit at worst.
    const step = 1024;
    for (let i = 0; i < data.length; i += step) inflate.push(data.subarray(i, i + step), i + step >= data.length);
  } catch (e) {
    if (over) return { ok: false, code: 'too-large-inflated' };
    return { ok: false, code: (e as { code?: number }).code === 0 ? 'truncated' : 'bad-deflate' };
  }
  if (!ended) return { ok: false, code: 'truncated' };
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { ok: true, bytes: out };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** Strict: only the base64url alphabet, no padding; a length no encoder makes means the text was cut. */
export function fromBase64Url(text: string): Uint8Array | 'bad' | 'short' {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || LOOKUP[c]! < 0) return 'bad';
  }
  if (text.length % 4 === 1) return 'short';
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    acc = (acc << 6) | LOOKUP[text.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
