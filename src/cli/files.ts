import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fileProblem } from '../core/fileProblem';
import type { FileExtract } from '../core/model';
import { compareNames } from '../core/names';
import { sentence } from '../i18n/sentence';
import { createInputReader } from '../ingest/archive/index';

// Node side of ingest for the CLI: walk paths, stream each file into an extractor. Compressed logs and archives
// (.gz, .zip, .tar, .tar.gz/.tgz) go through the same streaming reader as in the browser (src/ingest/archive/):
// each member becomes its own extract named `<archive>/<path inside>`, a `.gz` keeps its log's name, and bombs
// and damaged archives are reported as file problems.

export class InputError extends Error {}

export interface InputFile {
  abs: string;
  /** Path shown to the user and used for identity (relative to the argument that named it). */
  name: string;
  size: number;
  mtimeMs: number;
}

export async function collectInputs(args: string[]): Promise<InputFile[]> {
  const out: InputFile[] = [];
  for (const arg of args) {
    let st;
    try {
      st = await fs.stat(arg);
    } catch (e) {
      throw new InputError(`cannot read ${arg}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    if (st.isDirectory()) {
      const base = path.basename(path.resolve(arg));
      for await (const f of walk(arg)) {
        const s = await fs.stat(f);
        out.push({ abs: f, name: path.join(base, path.relative(arg, f)), size: s.size, mtimeMs: s.mtimeMs });
      }
    } else {
      out.push({ abs: arg, name: arg, size: st.size, mtimeMs: st.mtimeMs });
    }
  }
  return out;
}

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => compareNames(a.name, b.name));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

/** Every extract one input yields (one for a log or a .gz, one per member of a tar or zip), read as a stream. */
export async function extractInput(f: InputFile): Promise<FileExtract[]> {
  const out: FileExtract[] = [];
  const reader = createInputReader(f.name, { mtimeMs: f.mtimeMs, onExtract: (x) => out.push(x) });
  // Read chunk by chunk from a file handle, not through a read stream: the stream's machinery (an async
  // iterator, its buffering and events) cost about as much CPU as the reads themselves on 1 GiB of logs. Each
  // chunk is a new buffer: the readers may keep a reference to one (the sniffers, an archive's inflater).
  let fh: FileHandle | null = null;
  try {
    fh = await fs.open(f.abs, 'r');
    for (let at = 0; ;) {
      // No more than the file has left (plus one byte, in case it grew): small files take small buffers.
      const size = Math.min(CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, f.size - at + 1));
      const buf = Buffer.allocUnsafe(size);
      const { bytesRead } = await fh.read(buf, 0, size, null);
      if (bytesRead === 0) break;
      at += bytesRead;
      reader.push(bytesRead === size ? buf : buf.subarray(0, bytesRead));
      // A bomb or a damaged archive: the rest of the file is not read.
      if (reader.stopped) break;
    }
  } catch (e) {
    await fh?.close().catch(() => {});
    return [
      ...out,
      {
        file: f.name,
        bytes: f.size,
        lines: 0,
        longLines: 0,
        invalidUtf8: false,
        mtimeMs: f.mtimeMs,
        streams: [],
        problem: fileProblem(
          'unreadable',
          sentence('file.unreadableNamed', { file: f.name, reason: (e as Error).message }),
        ),
      },
    ];
  }
  await fh.close();
  reader.finish();
  return out;
}

/** Bytes read at a time (one chunk through the scanner), and the least a read asks for. */
const CHUNK_BYTES = 1 << 20;
const MIN_CHUNK_BYTES = 1 << 16;
