// Files holding many nodes (Slurm `srun -l`, pdsh, a log collector) put a label at the start of every line.
// Once each known node has retired an anchor, a node that appears later may still need it; this probe looks at
// the label of every line, in bytes and without decoding, and tells the scanner to hand on the first line of
// a label it has not seen, so the extractor learns of the new node and searches for its anchors again.

export type StreamProbe = (b: Uint8Array, from: number, to: number) => boolean;

/** Labels remembered per file; past this the probe stops (a file of that many "nodes" is noise). */
const MAX_LABELS = 100_000;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isWord = (c: number) =>
  isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x2d;

/** Set by skipTimestamp: the token was a collector's `date time` (its host follows). */
let collectorStamp = false;

/**
 * The end of a leading date-time token (RFC 3339, `[YYYY-MM-DD HH:MM:SS]`, or a collector's `date time`) and
 * the blanks after it, or `from` when the line does not start with one; `collectorStamp` says which kind. (A
 * number and a flag, not an object: the probe reads every line of a file of many nodes.)
 */
function skipTimestamp(b: Uint8Array, from: number, to: number): number {
  collectorStamp = false;
  let i = from;
  const bracket = b[i] === 0x5b;
  if (bracket) i++;
  if (!(i + 10 <= to && isDigit(b[i]!) && b[i + 4] === 0x2d && b[i + 7] === 0x2d)) return from;
  const limit = Math.min(to, i + 40);
  let collector = false;
  i += 10;
  if (b[i] === 0x20 && !bracket && i + 9 <= to && isDigit(b[i + 1]!) && b[i + 3] === 0x3a) {
    collector = true; // `2025-03-27 17:31:09.952  host-23 `
    i++;
  }
  while (i < limit && b[i] !== 0x20 && b[i] !== 0x09 && b[i] !== 0x5d) i++;
  if (bracket && b[i] === 0x5d) i++;
  if (i >= limit) return from;
  while (i < to && (b[i] === 0x20 || b[i] === 0x09)) i++;
  collectorStamp = collector;
  return i;
}

/** `log`, `out`, `err`, `txt`, `stdout`, `stderr` before a colon: grep's file name (`node3.out:`). */
function grepFile(b: Uint8Array, at: number, i: number): boolean {
  let dot = i - 1;
  while (dot > at && b[dot] !== 0x2e) dot--;
  const n = i - dot - 1;
  if (b[dot] !== 0x2e || n < 3 || n > 6) return false;
  const c = (k: number) => b[dot + 1 + k]! | 0x20;
  if (n === 3) {
    const x = (c(0) << 16) | (c(1) << 8) | c(2);
    return x === 0x6c6f67 || x === 0x6f7574 || x === 0x657272 || x === 0x747874; // log out err txt
  }
  // stdout, stderr
  return n === 6 && c(0) === 0x73 && c(1) === 0x74 && c(2) === 0x64 && (c(3) === 0x6f || c(3) === 0x65);
}

/** Set by labelEnd: the label was grep's file name (another label may follow it, after `lineAfter`). */
let grepLabel = false;
let lineAfter = 0;

/**
 * The end of the label at `at` (Slurm `12: `, pdsh `host-3: `, a collector's host, torchx's `trainer/0 `, grep's
 * `node3.out:`), or -1; `collector`: a collector's date-time stood before it. For grep's file name, `lineAfter`
 * is where the line goes on after its `N:` line number (which is not part of any label).
 */
function labelEnd(b: Uint8Array, at: number, to: number, collector: boolean): number {
  grepLabel = false;
  let i = at;
  const end = Math.min(to, at + 64);
  let digits = true;
  let digitOrDot = false;
  while (i < end && isWord(b[i]!)) {
    const c = b[i]!;
    if (!isDigit(c)) digits = false;
    if (isDigit(c) || c === 0x2e) digitOrDot = true;
    i++;
  }
  const len = i - at;
  if (len === 0) return -1;
  if (b[i] === 0x3a && !digits && grepFile(b, at, i)) {
    grepLabel = true;
    let k = i + 1;
    while (k < to && k < i + 11 && isDigit(b[k]!)) k++;
    lineAfter = k > i + 1 && b[k] === 0x3a ? k + 1 : i + 1;
    return i;
  }
  if (b[i] === 0x2f && !digits) {
    // torchx: `trainer/0 ` (app, replica).
    let k = i + 1;
    while (k < to && k < i + 8 && isDigit(b[k]!)) k++;
    return k > i + 1 && b[k] === 0x20 ? k : -1;
  }
  if (!digitOrDot) return -1;
  // Slurm `12: ` and pdsh `host-3: `; a collector's host is followed by blanks.
  if (b[i] === 0x3a && b[i + 1] === 0x20 && (!digits || len <= 5)) return i;
  if (collector && !digits && (b[i] === 0x20 || b[i] === 0x09)) return i;
  return -1;
}

/** A probe for one file: true for the first line of each label not seen before. */
export function streamLabelProbe(): StreamProbe {
  const seen = new Set<number>();
  let h1 = 0;
  let h2 = 0;
  const mix = (b: Uint8Array, from: number, to: number) => {
    h2 ^= to - from;
    for (let k = from; k < to; k++) {
      h1 = Math.imul(h1 ^ b[k]!, 0x01000193);
      h2 = Math.imul(h2 ^ b[k]!, 0x5bd1e995);
    }
  };
  return (b, from, to) => {
    if (seen.size >= MAX_LABELS) return false;
    const at = skipTimestamp(b, from, to);
    const end = labelEnd(b, at, to, collectorStamp);
    if (end < 0) return false;
    h1 = 0x811c9dc5;
    h2 = 0x01000193;
    mix(b, at, end);
    if (grepLabel) {
      // grep over files that hold labels of their own (`slurm-88.out:12:3: …`): the file and the inner label.
      const inner = skipTimestamp(b, lineAfter, to);
      const innerEnd = labelEnd(b, inner, to, collectorStamp);
      if (innerEnd >= 0) mix(b, inner, innerEnd);
    }
    const key = (h1 >>> 0) * 0x200000 + (h2 & 0x1fffff);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}
