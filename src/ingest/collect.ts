// Turns what the user dropped or picked into files with paths relative to the dropped item, so a
// `--log-dir` tree keeps names like `node0_logdir/job/attempt_0/0/stdout.log` that identify the node.
import { appendAll } from '../core/arrays';
import type { InputFile } from './types';

export interface Collected {
  files: InputFile[];
  /** Entries the browser would not open (permissions, vanished files), with the reason. */
  failures: { path: string; reason: string }[];
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function entryFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}

function isFile(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

async function walk(entry: FileSystemEntry, out: Collected): Promise<void> {
  const path = entry.fullPath.replace(/^\/+/, '');
  try {
    if (isFile(entry)) {
      out.files.push({ path, file: await entryFile(entry) });
    } else if (isDirectory(entry)) {
      const reader = entry.createReader();
      // readEntries hands out a directory in batches (100 in Chromium) until it returns an empty one.
      for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
        for (const child of batch) await walk(child, out);
      }
    }
  } catch (error) {
    out.failures.push({ path, reason: reasonOf(error) });
  }
}

/**
 * Must be called synchronously inside the drop handler: the browser empties the DataTransfer as
 * soon as the event returns, so entries and files are taken first and walked afterwards.
 */
export function filesFromDataTransfer(data: DataTransfer): Promise<Collected> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.() ?? null;
    if (entry) entries.push(entry);
    else {
      // Files built by script (and some browsers' drags) have no file-system entry.
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (entries.length === 0 && loose.length === 0) appendAll(loose, Array.from(data.files));
  return (async () => {
    const out: Collected = { files: filesFromList(loose), failures: [] };
    for (const entry of entries) await walk(entry, out);
    return out;
  })();
}

export function filesFromList(list: FileList | File[] | null): InputFile[] {
  return Array.from(list ?? []).map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}
