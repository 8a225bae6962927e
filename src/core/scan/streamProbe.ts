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

/** A probe for one file: true for the first line of each label not seen before. */
export function streamLabelProbe(): StreamProbe {
  const seen = new Set<number>();
  return (b, from, to) => {
    if (seen.size >= MAX_LABELS) return false;
    const at = skipTimestamp(b, from, to);
    const collector = collectorStamp;
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
    if (len === 0 || !digitOrDot) return false;
    // Slurm `12: ` and pdsh `host-3: `; a collector's host is followed by blanks.
    const labelled = b[i] === 0x3a && b[i + 1] === 0x20 && (!digits || len <= 5);
    if (!labelled && !(collector && !digits && (b[i] === 0x20 || b[i] === 0x09))) return false;
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193 ^ len;
    for (let k = at; k < i; k++) {
      h1 = Math.imul(h1 ^ b[k]!, 0x01000193);
      h2 = Math.imul(h2 ^ b[k]!, 0x5bd1e995);
    }
    const key = (h1 >>> 0) * 0x200000 + (h2 & 0x1fffff);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}
