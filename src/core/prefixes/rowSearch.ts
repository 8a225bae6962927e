// Prefix rows are tried in order, each its own regex: a line with no prefix at its start costs one failed exec
// per row (16 outer rows, 16 format rows, repeated for each outer prefix peeled), and a line with no format at
// its start one search of the whole line per `anywhere` row. A candidate line of a startup log pays that about
// 50 times. One alternation of the rows, each row a capturing group, answers the same question in one exec:
// where the first match is and, there, which row (the first in order) — then only that row's regex runs, for
// its groups, exactly as the loop would have run it.

export class RowSearch {
  /** The rows as one regex, row k in group k + 1; null when that rewrite would not be exact. */
  private readonly any: RegExp | null;
  /** Every row is anchored at the start (`^`): the first row in order that matches is the earliest match. */
  private readonly anchored: boolean;
  /** Each row's regex, sticky: run again at the position the alternation found. */
  private readonly at: RegExp[];

  constructor(private readonly res: readonly RegExp[]) {
    this.any = alternation(res);
    this.anchored = this.any !== null && this.any.source.startsWith('^');
    this.at = res.map((r) => new RegExp(r.source, r.flags + 'y'));
  }

  /** The rows are searched as one regex (false: one by one, the rewrite would not have been exact). */
  get combined(): boolean {
    return this.any !== null;
  }

  /** The first row, from row `from` on, whose regex matches: its index and `res[k].exec(text)`, or null. */
  first(text: string, from = 0): { k: number; m: RegExpExecArray } | null {
    if (from === 0 && this.anchored) return this.earliest(text);
    for (let k = from; k < this.res.length; k++) {
      const m = this.res[k]!.exec(text);
      if (m) return { k, m };
    }
    return null;
  }

  /** The earliest match of any row, the first row in order at that position: its index and `res[k].exec(text)`. */
  earliest(text: string): { k: number; m: RegExpExecArray } | null {
    if (this.any === null) return this.earliestEach(text);
    const hit = this.any.exec(text);
    if (hit === null) return null;
    let k = 1;
    while (hit[k] === undefined) k++;
    const at = this.at[k - 1]!;
    at.lastIndex = hit.index;
    const m = at.exec(text);
    return m ? { k: k - 1, m } : this.earliestEach(text);
  }

  /** `earliest`, each row searched on its own (what the alternation stands for). */
  private earliestEach(text: string): { k: number; m: RegExpExecArray } | null {
    let best: { k: number; m: RegExpExecArray } | null = null;
    for (let k = 0; k < this.res.length; k++) {
      const m = this.res[k]!.exec(text);
      if (m && (best === null || m.index < best.m.index)) best = { k, m };
    }
    return best;
  }
}

/**
 * `lead(?:(b1)|(b2)|…)` for rows that all begin with the same `lead` (`^`, or a lookbehind) and have no
 * alternation at their top level, their own groups made non-capturing. Null when that is not exact: different
 * flags, a global or sticky row, backreferences, a row that is not one sequence, group counts that do not add up.
 */
function alternation(res: readonly RegExp[]): RegExp | null {
  if (res.length === 0) return null;
  const flags = res[0]!.flags;
  if (/[gy]/.test(flags) || res.some((r) => r.flags !== flags || /\\(?:k<|[1-9])/.test(r.source))) return null;
  if (res.some((r) => topLevelAlternation(r.source))) return null;
  const lead = leadOf(res[0]!.source);
  const shared = lead !== '' && res.every((r) => r.source.startsWith(lead));
  const bodies = res.map((r) => (shared ? r.source.slice(lead.length) : r.source));
  // `(?<name>` (not a lookbehind `(?<=`, `(?<!`, not an escaped paren) becomes `(?:`.
  const plain = bodies.map((b) => b.replace(/(?<!\\)((?:\\\\)*)\(\?<([A-Za-z_$][\w$]*)>/g, '$1(?:'));
  let re: RegExp;
  try {
    re = new RegExp(`${shared ? lead : ''}(?:${plain.map((b) => `(${b})`).join('|')})`, flags);
  } catch {
    return null;
  }
  // Exactly one capturing group per row, or the group numbers would not name the row.
  const groups = new RegExp(`${re.source}|`, flags).exec('')!.length - 1;
  return groups === res.length ? re : null;
}

/** `^`, or a `(?<=…)` group, at the start of a regex source; '' otherwise. */
function leadOf(src: string): string {
  if (src.startsWith('^')) return '^';
  if (!src.startsWith('(?<=')) return '';
  const end = groupEnd(src, 0);
  return end < 0 ? '' : src.slice(0, end + 1);
}

/** Index of the `)` closing the group opened at `open`, or -1 (escapes and classes skipped). */
function groupEnd(src: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** A `|` outside every group and class: the source is several alternatives, not one sequence. */
function topLevelAlternation(src: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}
