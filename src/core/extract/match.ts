import { CATALOGUE, type CatalogueEntry } from '../catalogue';
import { anchorSearchFor, type AnchorSearch } from '../scan/anchorSearch';

// Which catalogue entry a line belongs to. Each anchor maps to the entries that list it, so a line is only
// tested against entries whose anchor it holds; among those the catalogue order decides.

export interface CompiledEntry {
  entry: CatalogueEntry;
  /** Position in the catalogue: the match order. */
  order: number;
  re: RegExp;
}

export const COMPILED: CompiledEntry[] = CATALOGUE.map((entry, order) => ({
  entry,
  order,
  re: new RegExp(entry.pattern),
}));

/** Entries that matching considers (frames and traceback starts are structure, read by the traceback tracker). */
const MATCHABLE = COMPILED.filter((c) => c.entry.kind !== 'frame' && c.entry.kind !== 'traceback');

const BY_ANCHOR = new Map<string, CompiledEntry[]>();
for (const c of MATCHABLE)
  for (const a of c.entry.anchors) {
    const list = BY_ANCHOR.get(a) ?? [];
    if (!list.includes(c)) list.push(c);
    BY_ANCHOR.set(a, list);
  }

export interface Hit {
  entry: CatalogueEntry;
  fields: Record<string, string>;
  /** Where the match ended in the message (a collapsed line goes on with more messages after it). */
  end: number;
}

/** The first entry (in catalogue order) whose anchor is on the line and whose pattern matches the message. */
export function firstEntry(text: string, msg: string, retired: ReadonlySet<string>): Hit | null {
  // Lines that come without the scanner's anchors (a new stream's first line, quoted tracebacks, error files,
  // the evidence viewer): every anchor searched at once in the line's bytes, not each entry's with includes.
  const search = (ALL_SEARCH ??= anchorSearchFor(ALL_ANCHORS));
  const bytes = ENCODER.encode(text);
  return firstEntryOf(ALL_ANCHORS, search.collect(bytes, 0, bytes.length, []), msg, retired);
}

/**
 * The first message in the text: for a collapsed line, whose messages are read one after another, not by
 * which kind of message the catalogue tries first. Entries that read overlapping text (the exception catch-all
 * and the ChildFailedError entry both read `…errors.ChildFailedError:`) go by catalogue order, specific first.
 */
export function leftmostEntry(msg: string, retired: ReadonlySet<string>): Hit | null {
  const search = (ALL_SEARCH ??= anchorSearchFor(ALL_ANCHORS));
  const bytes = ENCODER.encode(msg);
  const seen = new Set<CompiledEntry>();
  const found: { c: CompiledEntry; m: RegExpExecArray }[] = [];
  for (const i of search.collect(bytes, 0, bytes.length, []))
    for (const c of BY_ANCHOR.get(ALL_ANCHORS[i]!) ?? NO_ENTRIES) {
      if (seen.has(c) || retired.has(c.entry.id)) continue;
      seen.add(c);
      const m = c.re.exec(msg);
      if (m) found.push({ c, m });
    }
  if (found.length === 0) return null;
  let first = found[0]!;
  for (const f of found) if (f.m.index < first.m.index) first = f;
  const firstEnd = first.m.index + first.m[0].length;
  let best = first;
  for (const f of found) if (f.m.index < firstEnd && f.c.order < best.c.order) best = f;
  return { entry: best.c.entry, fields: groupsOf(best.m), end: best.m.index + best.m[0].length };
}

/** Every anchor of a matchable entry, once: the list `firstEntry` searches (no anchor is empty). */
const ALL_ANCHORS = [...BY_ANCHOR.keys()];
const ENCODER = new TextEncoder();
let ALL_SEARCH: AnchorSearch | null = null;

/**
 * The same, for a line whose anchors the scanner already found (`indices` into the scanner's anchor `list`,
 * ascending): only their entries are tried.
 */
export function firstEntryOf(
  list: readonly string[],
  indices: readonly number[],
  msg: string,
  retired: ReadonlySet<string>,
): Hit | null {
  const per = entriesOfList(list);
  // Most candidate lines hold one anchor: its entries, already in catalogue order, are the candidates.
  let cands = indices.length === 1 ? per[indices[0]!]! : NO_ENTRIES;
  if (indices.length > 1) {
    // Merged in catalogue order by insertion (a few entries; Array#sort allocates on every call).
    const all: CompiledEntry[] = [];
    for (const i of indices)
      for (const c of per[i]!) {
        if (all.includes(c)) continue;
        let j = all.length;
        while (j > 0 && all[j - 1]!.order > c.order) j--;
        all.splice(j, 0, c);
      }
    cands = all;
  }
  for (const c of cands) {
    if (retired.has(c.entry.id)) continue;
    const m = c.re.exec(msg);
    if (m) return { entry: c.entry, fields: groupsOf(m), end: m.index + m[0].length };
  }
  return null;
}

const NO_ENTRIES: readonly CompiledEntry[] = [];
/** Per anchor list the scanner searches (a few, as entries retire): the entries of each of its anchors. */
const BY_LIST = new WeakMap<readonly string[], (readonly CompiledEntry[])[]>();

function entriesOfList(list: readonly string[]): (readonly CompiledEntry[])[] {
  let per = BY_LIST.get(list);
  if (per === undefined) {
    per = list.map((a) => BY_ANCHOR.get(a) ?? NO_ENTRIES);
    BY_LIST.set(list, per);
  }
  return per;
}

export function groupsOf(m: RegExpExecArray): Record<string, string> {
  const out: Record<string, string> = {};
  const g = m.groups;
  // for…in, not Object.entries: the same keys in the same order without an array per group (every event).
  if (g)
    for (const k in g) {
      const v = g[k];
      if (v !== undefined) out[k] = v;
    }
  return out;
}
