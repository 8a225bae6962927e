import { FORMAT_PREFIXES } from './formats';
import { OUTER_PREFIXES } from './outer';
import { RowSearch } from './rowSearch';
import type { ParsedLine, PrefixRow } from './types';
import type { WrapperMemory } from './wrappers';

// One line → its prefixes and its message. Outer prefixes are peeled from the start; then one format prefix,
// at the start or — for PyTorch's formats — anywhere after text no row knows (that text is a wrapper, which
// the file's WrapperMemory learns and strips from lines that show no format).

const MAX_OUTER = 10;
const C10D_TAG = /^\[c10d(?: - (?:debug|trace))?\] /;
const RANK_AFTER_FORMAT = /^\[rank(\d{1,7})\]: ?/;
const ANYWHERE_ROWS = FORMAT_PREFIXES.filter((r) => r.anywhere);
// Each list of rows searched as one (rowSearch.ts): the first row that matches, as the rows in order find it.
const OUTER_SEARCH = new RowSearch(OUTER_PREFIXES.map((r) => r.re));
const FORMAT_SEARCH = new RowSearch(FORMAT_PREFIXES.map((r) => r.re));
const ANYWHERE_START_SEARCH = new RowSearch(ANYWHERE_ROWS.map((r) => r.re));
const ANYWHERE_SEARCH = new RowSearch(ANYWHERE_ROWS.map((r) => r.anywhere!));
/** Formats that are only a date-time: tools stamp lines with them in front of another format. */
const STAMP_FORMATS = new Set(['iso']);

function empty(): ParsedLine {
  return {
    clocks: [],
    slurm: null,
    host: null,
    hostKeysStream: false,
    hostIsLabel: false,
    tee: null,
    ranks: [],
    format: null,
    level: null,
    origin: null,
    msg: '',
    glogId: null,
    outer: [],
    wrapper: null,
    c10dTag: false,
    pytorchFormat: false,
  };
}

/** Rows whose label also stands before lines their own regex does not accept (types.ts `continuation`). */
const CONTINUED_ROWS = OUTER_PREFIXES.filter((r) => r.continuation);

/** Peel outer prefixes at the start of `rest`; returns what is left. */
function peelOuter(rest: string, out: ParsedLine, labels?: WrapperMemory): string {
  for (let depth = 0; depth < MAX_OUTER; depth++) {
    const r = matchOuter(rest, out, labels) ?? (labels ? matchContinued(rest, out, labels) : null);
    if (!r) break;
    rest = rest.slice(r.len);
  }
  return rest;
}

/** A label this file has shown before known lines, in front of a line no row accepts (a frame, a field). */
function matchContinued(rest: string, out: ParsedLine, labels: WrapperMemory): { len: number } | null {
  for (const r of CONTINUED_ROWS) {
    if (!labels.showedRow(r.id)) continue;
    if (r.lineStartOnly && (out.tee || out.ranks.length || out.outer.includes('tee'))) continue;
    const c = r.continuation!;
    const m = c.re.exec(rest);
    if (!m || m[0].length === 0) continue;
    const g = m.groups ?? {};
    if (!labels.showedLabel(r.id, c.key(g))) continue;
    r.apply(g, out, m[0]);
    out.outer.push(r.id);
    return { len: m[0].length };
  }
  return null;
}

function matchOuter(rest: string, out: ParsedLine, labels?: WrapperMemory): { len: number } | null {
  // The first row that matches, then (when it does not count here) the next one after it.
  for (let hit = OUTER_SEARCH.first(rest); hit !== null; hit = OUTER_SEARCH.first(rest, hit.k + 1)) {
    const r = OUTER_PREFIXES[hit.k]!;
    const m = hit.m;
    // A task label, a host or a quote marker only counts at the start of the line (outside any tee/rank prefix).
    if (r.lineStartOnly && (out.tee || out.ranks.length || out.outer.includes('tee'))) continue;
    if (m[0].length === 0) continue;
    const g = m.groups ?? {};
    if (r.accept && !r.accept(g)) continue;
    r.apply(g, out, m[0]);
    out.outer.push(r.id);
    if (r.continuation && labels) labels.seeLabel(r.id, r.continuation.key(g));
    return { len: m[0].length };
  }
  return null;
}

function applyFormat(r: PrefixRow, m: RegExpExecArray, out: ParsedLine): void {
  r.apply(m.groups ?? {}, out, m[0]);
  out.format = r.id;
  out.pytorchFormat = r.pytorch === true;
}

/** The earliest PyTorch format prefix after position 0, or null. */
function findAnywhere(rest: string): { row: PrefixRow; m: RegExpExecArray } | null {
  const hit = ANYWHERE_SEARCH.earliest(rest);
  if (hit === null) return null;
  if (hit.m.index > 0) return { row: ANYWHERE_ROWS[hit.k]!, m: hit.m };
  // A row's match at 0 does not count, and hides that row's later matches: the rows one by one decide.
  let best: { row: PrefixRow; m: RegExpExecArray } | null = null;
  for (const row of ANYWHERE_ROWS) {
    const m = row.anywhere!.exec(rest);
    if (m && m.index > 0 && (best === null || m.index < best.m.index)) best = { row, m };
  }
  return best;
}

/** A format prefix at the start of `rest`: applies it and returns the rest of the line, or null. */
function formatAtStart(rest: string, out: ParsedLine, anywhereRows = false): string | null {
  const hit = (anywhereRows ? ANYWHERE_START_SEARCH : FORMAT_SEARCH).first(rest);
  if (hit === null) return null;
  const r = (anywhereRows ? ANYWHERE_ROWS : FORMAT_PREFIXES)[hit.k]!;
  applyFormat(r, hit.m, out);
  return (r.msgPrefix?.(hit.m.groups ?? {}) ?? '') + rest.slice(hit.m[0].length);
}

/** Indented lines looked at for a paste's indentation per file: a paste's block starts near its top. */
const MAX_INDENT_TRIES = 64;
const LEADING_BLANKS = /^[ \t]{2,16}(?=\S)/;

/**
 * A paste's indentation before a known prefix (`    1: INFO:torch…`, `    2026-…Z I1201 …`): the file's
 * WrapperMemory learns it, once. Only lines that start blank and show nothing known are looked at.
 */
function learnIndent(line: string, wrappers: WrapperMemory): boolean {
  if (wrappers.indent !== '' || wrappers.indentTries >= MAX_INDENT_TRIES) return false;
  wrappers.indentTries++;
  const m = LEADING_BLANKS.exec(line);
  if (!m) return false;
  const inner = line.slice(m[0].length);
  if (OUTER_SEARCH.first(inner) === null && FORMAT_SEARCH.first(inner) === null) return false;
  wrappers.indent = m[0];
  return true;
}

/**
 * A relay's stream label before each line it passes on (`accelerate test` prints its subprocess's lines as
 * `stderr: …` and `stdout: …`; other runners as `[stderr] …`): not a host, and whatever stands behind it
 * (a Slurm task label, pdsh's host, PyTorch's format) counts as at the line's start.
 */
const STREAM_LABEL = /^(?:std(?:out|err): |\[std(?:out|err)\] )/;

export function parsePrefixes(line: string, wrappers?: WrapperMemory): ParsedLine {
  let relayed = false;
  if ((line.charCodeAt(0) === 0x73 || line.charCodeAt(0) === 0x5b) && STREAM_LABEL.test(line)) {
    line = line.replace(STREAM_LABEL, '');
    relayed = true;
  }
  if (wrappers) {
    line = wrappers.dedent(line);
    const c = line.charCodeAt(0);
    if ((c === 0x20 || c === 0x09) && wrappers.indent === '' && learnIndent(line, wrappers))
      line = wrappers.dedent(line);
  }
  const out = empty();
  if (relayed) out.outer.push('stream-label');
  let rest = peelOuter(line, out, wrappers);
  let after = formatAtStart(rest, out);
  if (after !== null && STAMP_FORMATS.has(out.format!)) {
    // A bare date-time in front is a stamp some tool added; PyTorch's own format may stand behind it.
    const inner = formatAtStart(after.trimStart(), out, true);
    if (inner !== null) {
      out.outer.push('iso');
      after = inner;
    }
  }
  if (after === null) {
    const hit = findAnywhere(rest);
    if (hit) {
      out.wrapper = rest.slice(0, hit.m.index);
      wrappers?.learn(out.wrapper);
      applyFormat(hit.row, hit.m, out);
      after = (hit.row.msgPrefix?.(hit.m.groups ?? {}) ?? '') + rest.slice(hit.m.index + hit.m[0].length);
    } else if (wrappers && wrappers.size > 0) {
      // A continuation line of a wrapped file: strip the learned wrapper, then what stands behind it.
      const n = wrappers.match(rest);
      if (n > 0) {
        out.wrapper = rest.slice(0, n);
        rest = peelOuter(rest.slice(n), out, wrappers);
        after = formatAtStart(rest, out);
      }
    }
  }
  if (after !== null) {
    rest = after;
    // `[rank0]:` may follow a format prefix too (worker excepthook inside a glog line).
    let rm: RegExpExecArray | null;
    while (rest.startsWith('[rank') && (rm = RANK_AFTER_FORMAT.exec(rest))) {
      out.ranks.push(Number(rm[1]));
      rest = rest.slice(rm[0].length);
    }
  }
  const tag = rest.startsWith('[c10d') ? C10D_TAG.exec(rest) : null;
  if (tag) {
    rest = rest.slice(tag[0].length);
    out.c10dTag = true;
  }
  // trimEnd, not a regex: /\s+$/ backtracks quadratically on long runs of inner spaces.
  out.msg = rest.trimEnd();
  return out;
}
