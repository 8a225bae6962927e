import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExtractor, recogniseLine } from '../src/core/index';
import {
  CUT_MARKER,
  findLine,
  LineIndex,
  MAX_LINE_CHARS,
  readWindow,
  type ChunkSource,
} from '../src/ingest/lineWindow';
import { lineSourceFor } from '../src/ingest/lines';
import { CORPUS } from './helpers';

// The evidence viewer's line windows: the lines a user sees for "node0.log line 70" must be the file's real
// line 70, whatever the chunking, line endings, or line lengths.

const enc = new TextEncoder();

/** A file as a chunk source, `size` bytes a chunk; remembers where each read started. */
function source(bytes: Uint8Array, size = 1): ChunkSource & { starts: number[] } {
  const starts: number[] = [];
  const fn = (fromByte: number) => {
    starts.push(fromByte);
    return (async function* () {
      for (let i = fromByte; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
    })();
  };
  return Object.assign(fn, { starts });
}

/** The lines a text editor shows: split at \n, \r dropped, no phantom line after a final newline. */
function reference(text: string): string[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function corpusLogs(): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) visit(p);
      else if (/\.(log|out|txt)$/.test(name)) out.push(p);
    }
  };
  visit(CORPUS);
  return out.sort();
}

const recognise = (t: string) => recogniseLine(t).id;

describe('line windows on the real corpus', () => {
  const files = corpusLogs();

  it('finds the corpus logs', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('every window equals the file’s own lines, read one byte at a time', async () => {
    for (const file of files) {
      const bytes = readFileSync(file);
      const want = reference(bytes.toString('utf8'));
      const index = new LineIndex(7);
      const src = source(bytes, 1);
      // In the middle, at the start, across the end, and past it.
      for (const [from, count] of [
        [Math.max(1, Math.floor(want.length / 2) - 5), 11],
        [1, 3],
        [Math.max(1, want.length - 4), 10],
      ] as const) {
        const w = await readWindow(index, src, from, count, { recognise });
        expect(w.from, file).toBe(from);
        expect(w.lines, `${file} @${from}`).toEqual(want.slice(from - 1, from - 1 + count));
      }
      expect(index.total, file).toBe(want.length);
    }
  });

  it('counts lines as the parser does, so evidence line numbers point at the same text', async () => {
    for (const file of files) {
      const bytes = readFileSync(file);
      const ex = createExtractor(path.basename(file));
      for (let i = 0; i < bytes.length; i += 4096) ex.push(bytes.subarray(i, i + 4096));
      const extract = ex.finish();
      const index = new LineIndex(50);
      const src = source(bytes, 997);
      await readWindow(index, src, Number.MAX_SAFE_INTEGER, 1);
      expect(index.total, file).toBe(extract.lines);
      for (const stream of extract.streams) {
        for (const e of stream.events.slice(0, 12)) {
          const w = await readWindow(index, src, e.line, 1, { recognise });
          // The event's text is the line as printed (trimmed, maybe cut); its catalogue entry is recognised there.
          expect(w.lines[0]!.trimEnd().startsWith(e.text.replace(/ …$/, '').slice(0, 200)), `${file}:${e.line}`).toBe(
            true,
          );
        }
      }
    }
  });

  it('shows node0’s failure at line 70 of the s2 log, recognised, with the recognised lines around it', async () => {
    const bytes = readFileSync(path.join(CORPUS, 'torch2.6-s2_static_timeout30_node3_late', 'node0.log'));
    const index = new LineIndex();
    const w = await readWindow(index, source(bytes, 64), 60, 20, { recognise });
    expect(w.from).toBe(60);
    expect(w.lines).toHaveLength(11); // 60 … 70, the last line
    expect(w.total).toBe(70);
    expect(w.lines[10]).toContain('Timed out after 31 seconds waiting for clients');
    expect(w.ids[10]).toBe('master-wait-clients');
    expect(w.ids.slice(0, 10).every((id) => id === null)).toBe(true);
  });

  it('jumps to the next and previous recognised line, also beyond the lines read so far', async () => {
    const bytes = readFileSync(path.join(CORPUS, 'torch2.6-s2_static_timeout30_node3_late', 'node0.log'));
    const test = (t: string) => recognise(t) !== null;
    const index = new LineIndex(5);
    const src = source(bytes, 3);
    expect(await findLine(index, src, 1, 1, test)).toBe(4);
    expect(await findLine(index, src, 21, 1, test)).toBe(24);
    expect(await findLine(index, src, 24, 1, test)).toBe(70);
    expect(await findLine(index, src, 70, 1, test)).toBeNull();
    expect(await findLine(index, src, 70, -1, test)).toBe(24);
    expect(await findLine(index, src, 4, -1, test)).toBe(1);
    expect(await findLine(index, src, 1, -1, test)).toBeNull();
    // A limit bounds the search.
    expect(await findLine(new LineIndex(5), src, 24, 1, test, { limit: 10 })).toBeNull();
    expect(await findLine(index, src, 70, -1, test, { limit: 10 })).toBeNull();
  });
});

describe('line checkpoints', () => {
  it('a later jump starts reading at the checkpoint before its target, not at byte 0', async () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1} ${'x'.repeat(i % 13)}`).join('\n') + '\n';
    const bytes = enc.encode(text);
    const want = reference(text);
    const index = new LineIndex(100);
    const src = source(bytes, 4096);
    const first = await readWindow(index, src, 9_500, 5);
    expect(first.lines).toEqual(want.slice(9_499, 9_504));
    expect(src.starts).toEqual([0]);
    expect(index.size).toBe(96); // lines 1, 101, …, 9501 (passed on the way to 9504)

    const second = await readWindow(index, src, 9_450, 3);
    expect(second.lines).toEqual(['line 9450 ' + 'x'.repeat(9449 % 13), want[9_450], want[9_451]]);
    // Line 9401 starts at this byte: the read began there.
    expect(src.starts[1]).toBe(enc.encode(want.slice(0, 9_400).join('\n') + '\n').length);
    expect(index.total).toBeNull();

    const last = await readWindow(index, src, 20_000, 3);
    expect(last.from).toBe(9_998);
    expect(last.lines).toEqual(want.slice(9_997));
    expect(last.total).toBe(10_000);
  });
});

describe('line ends, odd bytes and long lines', () => {
  const read = async (text: string | Uint8Array, from = 1, count = 100, chunk = 1) => {
    const bytes = typeof text === 'string' ? enc.encode(text) : text;
    const index = new LineIndex(2);
    return readWindow(index, source(bytes, chunk), from, count);
  };

  it('CRLF line ends, even with \\r and \\n in different chunks', async () => {
    const w = await read('first\r\nsecond\r\n\r\nfourth\r\n');
    expect(w.lines).toEqual(['first', 'second', '', 'fourth']);
    expect(w.total).toBe(4);
    // A \r inside a line stays.
    expect((await read('a\rb\r\n')).lines).toEqual(['a\rb']);
  });

  it('a last line without a newline is a line; a final newline adds none', async () => {
    expect(await read('a\nb')).toMatchObject({ lines: ['a', 'b'], total: 2 });
    expect(await read('a\nb\n')).toMatchObject({ lines: ['a', 'b'], total: 2 });
    expect(await read('only')).toMatchObject({ lines: ['only'], total: 1 });
    expect(await read('\n')).toMatchObject({ lines: [''], total: 1 });
    expect(await read('')).toMatchObject({ lines: [], total: 0 });
    expect((await read('a\nb\nc', 3, 5)).lines).toEqual(['c']);
  });

  it('an over-long line is cut with a marker, and the lines after it keep their numbers', async () => {
    const long = 'x'.repeat(MAX_LINE_CHARS * 5);
    for (const chunk of [1, 1000, 1 << 20]) {
      const w = await read(`before\n${long}\nafter\n`, 1, 100, chunk);
      expect(w.lines[1]).toBe('x'.repeat(MAX_LINE_CHARS) + CUT_MARKER);
      expect(w.cut).toEqual([false, true, false]);
      expect(w.lines[2]).toBe('after');
      expect(w.total).toBe(3);
    }
    // A line of exactly the limit is whole.
    const exact = await read('y'.repeat(MAX_LINE_CHARS) + '\n');
    expect(exact.cut).toEqual([false]);
    expect(exact.lines[0]).toHaveLength(MAX_LINE_CHARS);
  });

  it('cuts long lines of multi-byte characters on a character boundary', async () => {
    const w = await read('é'.repeat(MAX_LINE_CHARS + 10) + '\n' + '😀'.repeat(MAX_LINE_CHARS) + '\n', 1, 10, 7);
    expect(w.lines[0]).toBe('é'.repeat(MAX_LINE_CHARS) + CUT_MARKER);
    const emoji = w.lines[1]!.slice(0, -CUT_MARKER.length);
    expect(emoji).toBe('😀'.repeat(MAX_LINE_CHARS / 2));
    expect(emoji).not.toContain('\uFFFD');
  });

  it('replaces invalid UTF-8 and keeps characters split across chunks whole', async () => {
    const bytes = new Uint8Array([0x6f, 0x6b, 0x0a, 0x62, 0xff, 0x61, 0x64, 0x0a, ...enc.encode('中文 ok\n')]);
    const w = await read(bytes, 1, 10, 1);
    expect(w.lines).toEqual(['ok', 'b\uFFFDad', '中文 ok']);
  });

  it('drops a byte-order mark at the start of the file only', async () => {
    expect((await read('\uFEFFfirst\nsecond\n')).lines).toEqual(['first', 'second']);
  });

  it('windows clamp to the file: line 0 is line 1, past the end gives the last lines', async () => {
    const text = 'a\nb\nc\nd\n';
    expect(await read(text, 0, 2)).toMatchObject({ from: 1, lines: ['a', 'b'] });
    expect(await read(text, 99, 2)).toMatchObject({ from: 3, lines: ['c', 'd'], total: 4 });
    expect(await read(text, 2, 0)).toMatchObject({ from: 2, lines: [] });
  });
});

describe('which files the viewer can read', () => {
  const file = new Blob(['x']);
  it('dropped files have their own File; archive members say which archive holds them', () => {
    expect(lineSourceFor('node0.log', { 'node0.log': file })).toEqual({ kind: 'file', file });
    expect(lineSourceFor('job.tar.gz/logs/node0.log', { 'job.tar.gz': file })).toEqual({
      kind: 'archive-member',
      archive: 'job.tar.gz',
      member: 'logs/node0.log',
      file,
    });
    expect(lineSourceFor('job.zip/node0.log', {})).toMatchObject({
      kind: 'archive-member',
      archive: 'job.zip',
      file: null,
    });
    // A plain .gz holds one file, read by inflating the .gz itself.
    expect(lineSourceFor('node0.log.gz/node0.log', { 'node0.log.gz': file })).toEqual({ kind: 'file', file });
    expect(lineSourceFor('gone/node0.log', {})).toEqual({ kind: 'missing' });
  });
});
