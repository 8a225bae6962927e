// CRC-32 (IEEE), to tell a digest that was changed after it was made from one that was not. Not a signature:
// anyone can recompute it; it catches edits by hand, damage in transit and files cut short.

let table: Uint32Array | null = null;

function makeTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}

export function crc32(bytes: Uint8Array): number {
  const t = (table ??= makeTable());
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The check a digest carries: CRC-32 of the UTF-8 bytes of its body, 8 hex digits. */
export function crc32Hex(text: string): string {
  return crc32(new TextEncoder().encode(text)).toString(16).padStart(8, '0');
}
