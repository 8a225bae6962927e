import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { createExtractor } from '../core/index';
import type { FileExtract } from '../core/model';

// Node side of ingest for the CLI: walk paths, stream each file (gunzip on the fly) into an extractor.

export class InputError extends Error {}

/** A .gz that inflates past this is treated as a bomb, not a log. */
const MAX_INFLATED_BYTES = 8 * 1024 ** 3;
const MAX_RATIO = 2000;

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
  entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

export async function extractFile(f: InputFile): Promise<FileExtract> {
  const gz = /\.gz$/i.test(f.name) && !/\.tar\.gz$/i.test(f.name);
  const name = gz ? f.name.replace(/\.gz$/i, '') : f.name;
  const ex = createExtractor(name, { mtimeMs: f.mtimeMs });
  const raw = createReadStream(f.abs, { highWaterMark: 1 << 20 });
  let inflated = 0;
  try {
    if (gz) {
      const gunzip = createGunzip();
      raw.pipe(gunzip);
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        if (inflated > MAX_INFLATED_BYTES || (inflated > 256 * 1024 ** 2 && inflated > f.size * MAX_RATIO)) {
          raw.destroy();
          gunzip.destroy();
          const fe = ex.finish();
          return {
            ...fe,
            streams: [],
            problem: {
              code: 'bomb',
              message: `${f.name} inflates beyond ${inflated} bytes from ${f.size}; not read further`,
            },
          };
        }
        ex.push(chunk);
      }
    } else {
      for await (const chunk of raw as AsyncIterable<Buffer>) ex.push(chunk);
    }
  } catch (e) {
    const fe = ex.finish();
    return { ...fe, streams: [], problem: { code: 'unreadable', message: `${f.name}: ${(e as Error).message}` } };
  }
  return ex.finish();
}
