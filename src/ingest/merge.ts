// Several drops, picks and pastes make one job: what each input yielded is kept by the input's path, and the
// job's extracts, sources and corrections are rebuilt from that. Pure functions, so the store stays small.
import type { FileExtract, Overrides } from '../core/model';
import { inputKind } from './archive/index';

/** What one input file yielded: one extract for a log, one per member for an archive. */
export interface Yielded {
  /** The input itself (null for entries the browser would not open). */
  file: File | null;
  extracts: FileExtract[];
}

/**
 * The job's extracts, inputs in order. Two inputs can yield the same name (`node3.log` and `node3.log.gz`): the
 * later one wins, as a file dropped again replaces the one read before.
 */
export function mergeExtracts(paths: Iterable<string>, yielded: ReadonlyMap<string, Yielded>): FileExtract[] {
  const byName = new Map<string, FileExtract>();
  for (const path of paths) {
    for (const extract of yielded.get(path)?.extracts ?? []) {
      byName.delete(extract.file);
      byName.set(extract.file, extract);
    }
  }
  return [...byName.values()];
}

/**
 * Where each file's bytes can be read again (the evidence viewer): every input under its own path, and a plain
 * `.gz` also under the name of the log it holds (`node3.log.gz` yields `node3.log`). Archive members are found
 * through their archive's path, the leading part of theirs.
 */
export function sourcesOf(
  paths: Iterable<string>,
  yielded: ReadonlyMap<string, { file: File | null; extracts: readonly { file: string }[] }>,
): Record<string, File> {
  const out: Record<string, File> = {};
  for (const path of paths) {
    const y = yielded.get(path);
    if (!y?.file) continue;
    out[path] = y.file;
    if (inputKind(path) === 'gz') for (const x of y.extracts) out[x.file] = y.file;
  }
  return out;
}

type FileKeyed = 'fileNode' | 'fileYear' | 'fileOffsetMinutes';
const FILE_KEYED: FileKeyed[] = ['fileNode', 'fileYear', 'fileOffsetMinutes'];

/** Corrections for files no longer in the job are dropped; node names stay (a node can come back). */
export function pruneOverrides(overrides: Overrides, extracts: FileExtract[]): Overrides {
  const names = new Set(extracts.map((x) => x.file));
  let changed = false;
  const out: Overrides = { ...overrides };
  for (const key of FILE_KEYED) {
    const map = overrides[key] as Record<string, string | number> | undefined;
    if (!map) continue;
    const kept = Object.fromEntries(Object.entries(map).filter(([file]) => names.has(file)));
    if (Object.keys(kept).length !== Object.keys(map).length) {
      changed = true;
      (out as Record<FileKeyed, unknown>)[key] = kept;
    }
  }
  return changed ? out : overrides;
}

/** The default name for pasted text: `pasted-1.log`, or the next number not taken yet. */
export function nextPastedName(taken: (path: string) => boolean): string {
  for (let n = 1; ; n++) if (!taken(`pasted-${n}.log`)) return `pasted-${n}.log`;
}

/** The name a paste is analysed under: the user's, tidied (it names the node), or the default. */
export function pastedPath(name: string, fallback: string): string {
  const tidy = name
    .trim()
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.' && p !== '..')
    .join('/');
  return tidy || fallback;
}
