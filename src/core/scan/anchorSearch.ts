// A multi-literal search over raw bytes (Wu–Manber with a bigram shift table). Irregexp gets no useful skip from
// an alternation of ~120 literals whose shortest has six characters, so it tries every alternative at every
// position; this automaton looks at two bytes, usually jumps several, and verifies only where a literal's
// window can end. Literals are searched as their UTF-8 bytes, so the text is never decoded to find them.
//
// Each literal is keyed on one window of m bytes (m = the shortest literal's length), placed where its bigrams
// are rarest in log text rather than at its start, so that the blanks and common letters of ordinary lines
// seldom stop the scan (`time      : ` is not keyed on its run of spaces).

const ENC = new TextEncoder();

/** A rough frequency of a byte in log text: blanks, common letters and digits make poor window ends. */
function weight(c: number): number {
  if (c === 0x20) return 12;
  if (c >= 0x61 && c <= 0x7a) return 'etaoinsrhl'.includes(String.fromCharCode(c)) ? 8 : 4;
  if (c >= 0x30 && c <= 0x39) return 5;
  if (c >= 0x41 && c <= 0x5a) return 1.5;
  return 1;
}

/** Offset of the m-byte window of `l` to key it on: the rarest last bigram, then the rarest bigrams overall. */
function windowOffset(l: Uint8Array, m: number): number {
  if (m < 2) return 0;
  let best = 0;
  let bestCost = Infinity;
  for (let o = 0; o + m <= l.length; o++) {
    let cost = weight(l[o + m - 2]!) * weight(l[o + m - 1]!) * 100;
    for (let j = o + 1; j < o + m - 1; j++) cost += weight(l[j - 1]!) * weight(l[j]!);
    if (cost < bestCost) {
      bestCost = cost;
      best = o;
    }
  }
  return best;
}

export class AnchorSearch {
  /** How many anchors the list had (indices reported by `collect` point into it). */
  readonly size: number;
  /** Length in bytes of the shortest literal (the window of the shift table). */
  private readonly m: number;
  private readonly shift: Uint8Array;
  /** Per bigram with shift 0: 1 + index into bucketStart, or 0 (buckets ≤ literals, far below 2^16). */
  private readonly bucketOf: Uint16Array;
  private readonly bucketStart: Int32Array;
  private readonly bucketLits: Int32Array;
  /** Unique literals: their bytes concatenated, lengths, window offsets, first two bytes. */
  private readonly litStart: Int32Array;
  private readonly litLen: Int32Array;
  private readonly litOff: Int32Array;
  private readonly litPrefix: Int32Array;
  private readonly litBytes: Uint8Array;
  /** Anchor indices of each unique literal (a literal may appear several times in the list). */
  private readonly litIndices: number[][];
  /** Per unique literal: the call of `collect` that last reported it (dedup without clearing). */
  private readonly litStamp: Int32Array;
  private stamp = 0;

  constructor(anchors: readonly string[]) {
    this.size = anchors.length;
    const uniq = new Map<string, number[]>();
    anchors.forEach((a, i) => {
      if (a.length === 0) return; // an empty literal would match everywhere: it is no anchor
      const l = uniq.get(a);
      if (l) l.push(i);
      else uniq.set(a, [i]);
    });
    const lits = [...uniq.keys()].map((s) => ENC.encode(s));
    const n = lits.length;
    this.litIndices = [...uniq.values()];
    this.litStamp = new Int32Array(n);
    this.litStart = new Int32Array(n);
    this.litLen = new Int32Array(n);
    let total = 0;
    lits.forEach((l, k) => {
      this.litStart[k] = total;
      this.litLen[k] = l.length;
      total += l.length;
    });
    this.litBytes = new Uint8Array(total);
    lits.forEach((l, k) => this.litBytes.set(l, this.litStart[k]!));
    // A one-byte literal has prefix -1 (never equal to two bytes); it is checked on its own path.
    this.litPrefix = Int32Array.from(lits, (l) => (l.length >= 2 ? (l[0]! << 8) | l[1]! : -1));
    const m = n ? Math.min(255, ...lits.map((l) => l.length)) : 0;
    this.m = m;
    this.litOff = Int32Array.from(lits, (l) => windowOffset(l, m));
    this.shift = new Uint8Array(65536);
    this.bucketOf = new Uint16Array(65536);
    const buckets = new Map<number, number[]>();
    if (m >= 2) {
      this.shift.fill(m - 1);
      lits.forEach((l, k) => {
        const o = this.litOff[k]!;
        for (let j = 1; j < m; j++) {
          const h = (l[o + j - 1]! << 8) | l[o + j]!;
          const s = m - 1 - j;
          if (s < this.shift[h]!) this.shift[h] = s;
          if (s === 0) pushTo(buckets, h, k);
        }
      });
    } else if (m === 1) {
      lits.forEach((l, k) => pushTo(buckets, l[0]!, k)); // keyed by the first byte; no shifting
    }
    this.bucketStart = new Int32Array(buckets.size + 1);
    const flat: number[] = [];
    let b = 0;
    for (const [h, ks] of buckets) {
      this.bucketOf[h] = b + 1;
      this.bucketStart[b] = flat.length;
      flat.push(...ks);
      b++;
    }
    this.bucketStart[b] = flat.length;
    this.bucketLits = Int32Array.from(flat);
  }

  /** Start of the first literal occurring wholly inside b[from, to), or -1. */
  first(b: Uint8Array, from: number, to: number): number {
    const m = this.m;
    if (m < 2) return m === 0 ? -1 : this.firstShort(b, from, to);
    // The hot loop holds only the shift table and the position: with the verification's tables hoisted into it
    // as well, V8 spills registers on every step (measured ~20 % slower on training logs).
    const shift = this.shift;
    let i = from + m - 1;
    while (i < to) {
      const h = (b[i - 1]! << 8) | b[i]!;
      const s = shift[h]!;
      if (s !== 0) {
        i += s;
        continue;
      }
      const start = this.verify(b, from, to, i, h);
      if (start >= 0) return start;
      i++;
    }
    return -1;
  }

  /** The start of a literal whose window ends at i (its last bigram h), wholly inside b[from, to); or -1. */
  private verify(b: Uint8Array, from: number, to: number, i: number, h: number): number {
    const win = i - this.m + 1;
    const bk = this.bucketOf[h]! - 1;
    const litOff = this.litOff;
    const litLen = this.litLen;
    const litBytes = this.litBytes;
    for (let q = this.bucketStart[bk]!, qe = this.bucketStart[bk + 1]!; q < qe; q++) {
      const k = this.bucketLits[q]!;
      const start = win - litOff[k]!;
      const len = litLen[k]!;
      if (start < from || start + len > to || ((b[start]! << 8) | b[start + 1]!) !== this.litPrefix[k]) continue;
      const o = this.litStart[k]!;
      let j = 2;
      while (j < len && b[start + j] === litBytes[o + j]) j++;
      if (j === len) return start;
    }
    return -1;
  }

  /**
   * Appends to `out` the anchor indices of every literal occurring in b[from, to), each once, and returns `out`
   * sorted ascending.
   */
  collect(b: Uint8Array, from: number, to: number, out: number[] = []): number[] {
    const m = this.m;
    if (m === 0) return out;
    const stamp = ++this.stamp;
    const shift = this.shift;
    const bucketOf = this.bucketOf;
    let i = from + m - 1;
    while (i < to) {
      const h = m === 1 ? b[i]! : (b[i - 1]! << 8) | b[i]!;
      if (m === 1 ? bucketOf[h] === 0 : shift[h] !== 0) {
        i += m === 1 ? 1 : shift[h]!;
        continue;
      }
      const win = i - m + 1;
      const bk = bucketOf[h]! - 1;
      for (let q = this.bucketStart[bk]!, qe = this.bucketStart[bk + 1]!; q < qe; q++) {
        const k = this.bucketLits[q]!;
        if (this.litStamp[k] !== stamp && this.matches(k, b, win - this.litOff[k]!, from, to)) {
          this.litStamp[k] = stamp;
          for (const idx of this.litIndices[k]!) out.push(idx);
        }
      }
      i++;
    }
    if (out.length > 1) sortAscending(out);
    return out;
  }

  /** Shortest literal of one byte: every position is a window. */
  private firstShort(b: Uint8Array, from: number, to: number): number {
    for (let i = from; i < to; i++) {
      const bk = this.bucketOf[b[i]!]! - 1;
      if (bk < 0) continue;
      for (let q = this.bucketStart[bk]!, qe = this.bucketStart[bk + 1]!; q < qe; q++) {
        if (this.matches(this.bucketLits[q]!, b, i, from, to)) return i;
      }
    }
    return -1;
  }

  private matches(k: number, b: Uint8Array, start: number, from: number, to: number): boolean {
    const len = this.litLen[k]!;
    if (start < from || start + len > to) return false;
    const lb = this.litBytes;
    const ls = this.litStart[k]!;
    for (let j = 0; j < len; j++) if (b[start + j] !== lb[ls + j]) return false;
    return true;
  }
}

/** In place, ascending: a line holds a few anchors, and Array#sort allocates a work array on every call. */
function sortAscending(a: number[]): void {
  for (let i = 1; i < a.length; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
}

function pushTo(map: Map<number, number[]>, k: number, v: number): void {
  const l = map.get(k);
  if (l) {
    if (!l.includes(v)) l.push(v);
  } else map.set(k, [v]);
}

const cache = new Map<string, AnchorSearch>();
const CACHE_MAX = 64;
/** The same list object again (the extractor keeps its lists) skips joining ~120 strings for the key. */
const byList = new WeakMap<readonly string[], AnchorSearch>();

/** The search for this anchor list, compiled once per distinct list (retirement switches between a few). */
export function anchorSearchFor(anchors: readonly string[]): AnchorSearch {
  let s = byList.get(anchors);
  if (s) return s;
  const key = anchors.join('\u0000');
  s = cache.get(key);
  if (!s) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    s = new AnchorSearch(anchors);
    cache.set(key, s);
  }
  byList.set(anchors, s);
  return s;
}
