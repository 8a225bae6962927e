// Reads line windows out of the user's files for the evidence viewer, one request at a time per file, without
// reading any file into one string. Line checkpoints are kept per file (see lineWindow.ts), so a second jump
// into a large file starts near its target instead of at byte 0.
import { ALL_ANCHORS, recogniseLine } from '../core/index';
import { anchorRegex } from '../core/lineScanner';
import { saidOf, sentence, SentenceError, sentenceText } from '../i18n/sentence';
import { createInputReader } from './archive/index';
import { CancelledError, findLine, LineIndex, readWindow, type ChunkSource } from './lineWindow';
import type { LinesReply, LinesRequest } from './lines';

const scope = self as unknown as DedicatedWorkerGlobalScope;

/** Indexes of the files read lately, by the key the main thread gave each file. */
const MAX_FILES = 32;
const indexes = new Map<string, LineIndex>();
const gzipped = new Map<string, boolean>();
const cancelled = new Set<number>();
/** Requests queued or running: a cancel for anything else (already answered) is ignored. */
const pending = new Set<number>();

function indexFor(key: string): LineIndex {
  let index = indexes.get(key);
  if (index) indexes.delete(key);
  else index = new LineIndex();
  indexes.set(key, index); // most recent last
  while (indexes.size > MAX_FILES) {
    const oldest = indexes.keys().next().value as string;
    indexes.delete(oldest);
    gzipped.delete(oldest);
  }
  return index;
}

// The core's anchor search, without the global flag: one test per line, no state between calls.
const ANCHORS = new RegExp(anchorRegex(ALL_ANCHORS).source);

/** The catalogue entry of a line, or null; the anchor test first, as the extractor does, keeps it cheap. */
function recognise(text: string): string | null {
  return ANCHORS.test(text) ? recogniseLine(text).id : null;
}

async function* chunks(stream: ReadableStream<Uint8Array>, skip: number): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (skip >= value.byteLength) {
        skip -= value.byteLength;
        continue;
      }
      yield skip > 0 ? value.subarray(skip) : value;
      skip = 0;
    }
  } finally {
    // The consumer may stop early: let the file reader go.
    reader.cancel().catch(() => {});
  }
}

async function isGzip(key: string, file: Blob): Promise<boolean> {
  let known = gzipped.get(key);
  if (known === undefined) {
    const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
    known = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
    gzipped.set(key, known);
  }
  return known;
}

/** Bytes of a plain file are read from the offset on; a .gz file is inflated from its start and skipped ahead. */
async function sourceFor(key: string, file: Blob): Promise<ChunkSource> {
  if (await isGzip(key, file)) {
    return (fromByte) => chunks(file.stream().pipeThrough(new DecompressionStream('gzip')), fromByte);
  }
  return (fromByte) => chunks(file.slice(fromByte).stream(), 0);
}

function reply(message: LinesReply): void {
  scope.postMessage(message);
}

// ANSI colour codes (ESC [ … m) are not part of what the viewer shows, so a search does not see them either.
const SGR = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

/** A member larger than this is not unpacked into memory for viewing. */
const MAX_MEMBER_BYTES = 512 * 1024 * 1024;

/** Unpacks one member of an archive: the archive streams past its reader once, up to the end of that member. */
async function memberOf(file: Blob, name: string, member: string, stop: () => boolean): Promise<Blob> {
  const parts: Uint8Array[] = [];
  let size = 0;
  let found = false;
  let done = false;
  const input = createInputReader(name, {
    mtimeMs: null,
    onExtract: (x) => {
      if (x.file === member) done = true;
    },
    tap: (path, chunk) => {
      if (path !== member || size > MAX_MEMBER_BYTES) return;
      found = true;
      size += chunk.length;
      parts.push(chunk.slice());
    },
  });
  const reader = file.stream().getReader();
  try {
    for (;;) {
      if (stop()) throw new CancelledError();
      const { value, done: end } = await reader.read();
      if (end) break;
      input.push(value);
      if (done || input.stopped || size > MAX_MEMBER_BYTES) break;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (!done && !input.stopped) input.finish();
  if (size > MAX_MEMBER_BYTES)
    throw new SentenceError(sentence('lines.memberTooLarge', { member, mib: String(MAX_MEMBER_BYTES / 1024 / 1024) }));
  if (!found && !done) throw new SentenceError(sentence('lines.memberMissing', { member, archive: name }));
  return new Blob(parts as BlobPart[]);
}

async function handle(request: Exclude<LinesRequest, { type: 'cancel' }>): Promise<void> {
  const stop = () => cancelled.has(request.id);
  if (request.type === 'member') {
    const blob = await memberOf(request.file, request.name, request.member, stop);
    reply({ type: 'member', id: request.id, blob });
    return;
  }
  const index = indexFor(request.key);
  const source = await sourceFor(request.key, request.file);
  if (request.type === 'window') {
    const w = await readWindow(index, source, request.from, request.count, { recognise, cancelled: stop });
    reply({ type: 'window', id: request.id, window: w });
  } else if (request.type === 'search') {
    const query = request.query.toLowerCase();
    const line = await findLine(
      index,
      source,
      request.from,
      request.dir,
      (t) => t.replace(SGR, '').toLowerCase().includes(query),
      { limit: request.limit, cancelled: stop },
    );
    reply({ type: 'found', id: request.id, line, total: index.total });
  } else {
    const line = await findLine(index, source, request.from, request.dir, (t) => recognise(t) !== null, {
      limit: request.limit,
      cancelled: stop,
    });
    reply({ type: 'found', id: request.id, line, total: index.total });
  }
}

// Requests run one after another: they share the per-file indexes, and a later jump profits from an earlier read.
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event: MessageEvent<LinesRequest>) => {
  const request = event.data;
  if (request.type === 'cancel') {
    if (pending.has(request.id)) cancelled.add(request.id);
    return;
  }
  pending.add(request.id);
  queue = queue.then(async () => {
    try {
      if (!cancelled.has(request.id)) await handle(request);
    } catch (error) {
      if (error instanceof CancelledError) return;
      const said =
        error instanceof DOMException && error.name === 'NotReadableError' ? sentence('file.gone') : saidOf(error);
      reply(
        typeof said === 'string'
          ? { type: 'error', id: request.id, message: said }
          : { type: 'error', id: request.id, message: sentenceText('en', said), sentence: said },
      );
    } finally {
      cancelled.delete(request.id);
      pending.delete(request.id);
    }
  });
};
