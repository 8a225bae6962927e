import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUT_MARKER, LineScanner, streamLabelProbe, type ScannedLine } from '../src/core/lineScanner';

const enc = new TextEncoder();

function scan(chunks: Uint8Array[], anchors: string[], opts = {}) {
  const lines: ScannedLine[] = [];
  const s = new LineScanner(anchors, (l) => lines.push(l), opts);
  for (const c of chunks) s.push(c);
  const stats = s.finish();
  return { lines, stats };
}

/** Split bytes into pieces of `n` so that lines and multi-byte characters straddle chunk borders. */
function pieces(b: Uint8Array, n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < b.length; i += n) out.push(b.subarray(i, i + n));
  return out;
}

const REAL = readFileSync(path.join(__dirname, 'fixtures/corpus/torch2.6-s2_static_timeout30_node3_late/node0.log'));

describe('LineScanner', () => {
  it('finds the same anchored lines, with the same numbers, whatever the chunking', () => {
    const anchors = ["Rendezvous'ing worker group", 'waiting for clients'];
    const whole = scan([REAL], anchors);
    expect(whole.lines.map((l) => l.line)).toEqual([21, 70]);
    expect(whole.lines[1]!.text).toBe(
      'torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 3/4 clients joined.',
    );
    for (const n of [1, 7, 64, 4096]) {
      const r = scan(pieces(REAL, n), anchors);
      expect(r.lines).toEqual(whole.lines);
      expect(r.stats.lines).toBe(whole.stats.lines);
    }
    expect(whole.stats.lines).toBe(REAL.toString('utf8').split('\n').length - 1);
  });

  it('strips CR of CRLF lines and counts a last line without newline', () => {
    const { lines, stats } = scan([enc.encode('a\r\nRendezvous x\r\nlast Rendezvous')], ['Rendezvous']);
    expect(lines.map((l) => [l.line, l.text])).toEqual([
      [2, 'Rendezvous x'],
      [3, 'last Rendezvous'],
    ]);
    expect(stats.lines).toBe(3);
    expect(stats.last?.text).toBe('last Rendezvous');
  });

  it('keeps multi-byte characters whole across chunk borders and replaces broken UTF-8', () => {
    const text = '节点 node3 迟到 Rendezvous\n';
    const b = enc.encode(text);
    const r = scan(pieces(b, 1), ['Rendezvous']);
    expect(r.lines[0]!.text).toBe(text.trim());
    expect(r.stats.invalidUtf8).toBe(false);
    const broken = new Uint8Array([...enc.encode('ok Rendezvous '), 0xff, 0xfe, 0xc3, ...enc.encode(' end\n')]);
    const rb = scan([broken], ['Rendezvous']);
    expect(rb.stats.invalidUtf8).toBe(true);
    expect(rb.lines[0]!.text).toContain('\uFFFD');
    expect(rb.lines[0]!.text.endsWith(' end')).toBe(true);
  });

  it('cuts an over-long line with a marker, skips its rest, and keeps counting lines', () => {
    const long = 'x'.repeat(50_000) + ' Rendezvous';
    const b = enc.encode(`first\n${long}\nthird Rendezvous\n`);
    const r = scan(pieces(b, 1000), ['Rendezvous'], { maxLineChars: 1000 });
    expect(r.stats.longLines).toBe(1);
    expect(r.stats.lines).toBe(3);
    const third = r.lines.find((l) => l.text.startsWith('third'))!;
    expect(third.line).toBe(3);
    const cut = r.lines.find((l) => l.cut)!;
    expect(cut.line).toBe(2);
    expect(cut.text.endsWith(CUT_MARKER)).toBe(true);
    expect(cut.text.length).toBeLessThan(1100);
  });

  it('hands on the head lines of a file even without anchors', () => {
    const r = scan([enc.encode('one\ntwo\nthree\nfour\n')], ['nothing-here'], { headLines: 2 });
    expect(r.lines.map((l) => l.text)).toEqual(['one', 'two']);
    expect(r.stats.first?.text).toBe('one');
    expect(r.stats.last?.text).toBe('four');
  });

  it('reports binary and compressed input instead of scanning it', () => {
    const bin = new Uint8Array(4096).map((_, i) => i % 256);
    const r = scan([bin], ['x']);
    expect(r.stats.binary).toBe(true);
    expect(r.lines).toHaveLength(0);
    const gz = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    expect(scan([gz], ['x']).stats.packed).toBe('gzip');
    // ANSI colour codes are text.
    const ansi = scan([enc.encode('\x1b[32mINFO\x1b[0m Rendezvous ok\n')], ['Rendezvous']);
    expect(ansi.stats.binary).toBe(false);
    expect(ansi.lines).toHaveLength(1);
  });

  it('treats an empty input as zero lines', () => {
    const r = scan([], ['x']);
    expect(r.stats).toMatchObject({ bytes: 0, lines: 0, first: null, last: null });
  });
});

describe('LineScanner sniffing', () => {
  it('sees binary and archives even when the bytes arrive one at a time', () => {
    const bin = new Uint8Array(4096).map((_, i) => i % 256);
    expect(scan(pieces(bin, 1), ['x']).stats.binary).toBe(true);
    const tar = new Uint8Array(1024);
    tar.set(enc.encode('node0.log'), 0);
    tar.set(enc.encode('ustar'), 257);
    expect(scan(pieces(tar, 1), ['x']).stats.packed).toBe('tar');
    // A short text file (under the sniff size) is still read.
    const r = scan(pieces(enc.encode('one Rendezvous\n'), 1), ['Rendezvous']);
    expect(r.lines.map((l) => l.text)).toEqual(['one Rendezvous']);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The byte-level scanner against a plain reference: split on \n, drop CR/NUL/escape sequences, cut, decode,
// and test every anchor with includes(). Random lines (ASCII, multi-byte, CRLF, colour codes, NUL runs, long
// lines, anchors whole and split by a colour code) in random chunkings must give exactly the same lines.

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// eslint-disable-next-line no-control-regex -- escape sequences are what this matches
const ANSI_RE = /\x1b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~]?)/g;

function reference(bytes: Uint8Array, anchors: string[], maxLine: number, headLines: number) {
  const cap = maxLine * 3;
  const dec = new TextDecoder('utf-8', { ignoreBOM: true });
  const out: { line: number; text: string; cut: boolean; anchors: number[] }[] = [];
  let start = 0;
  let lineNo = 0;
  let last: { line: number; text: string } | null = null;
  const raw: Uint8Array[] = [];
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length && i === start) break;
    if (i < bytes.length && bytes[i] !== 10) continue;
    raw.push(bytes.subarray(start, i));
    start = i + 1;
  }
  for (const r0 of raw) {
    lineNo++;
    let r = r0;
    if (r.length && r[r.length - 1] === 13) r = r.subarray(0, r.length - 1);
    // Escapes are ASCII: strip them on a latin1 view, then decode the bytes that remain.
    const latin = String.fromCharCode(...r.filter((c) => c !== 0)).replace(ANSI_RE, '');
    const kept = Uint8Array.from(latin, (ch) => ch.charCodeAt(0));
    let over = kept.length > cap;
    let end = Math.min(cap, kept.length);
    while (over && end > 0 && (kept[end]! & 0xc0) === 0x80) end--;
    let text = dec.decode(kept.subarray(0, end));
    const blank = text.trim() === '';
    if (text.length > maxLine) {
      text = text.slice(0, maxLine);
      over = true;
    }
    const found = anchors.flatMap((a, k) => (text.includes(a) && a !== '' ? [k] : []));
    if (!blank) last = { line: lineNo, text: over ? text + CUT_MARKER : text };
    if (lineNo <= headLines || over || found.length)
      out.push({ line: lineNo, text: over ? text + CUT_MARKER : text, cut: over, anchors: found });
  }
  // A last line of nothing but NUL padding is no line.
  if (raw.length && bytes[bytes.length - 1] !== 10 && raw[raw.length - 1]!.every((c) => c === 0)) lineNo--;
  return { lines: out, count: lineNo, last };
}

describe('LineScanner against a reference', () => {
  const ANCHORS = ['Rendezvous', 'rank=', 'File "', 'Timed out', '节点', 'x', 'rank'];
  // A few NUL runs are padding; more would make the file binary (tested on its own below).
  let nulRuns = 0;
  const piece = (rand: () => number): string => {
    const r = rand();
    if (r < 0.15) return ANCHORS[Math.floor(rand() * ANCHORS.length)]!;
    if (r < 0.2) return '\x1b[3' + Math.floor(rand() * 8) + 'm';
    if (r < 0.23) return '\x1b[0m';
    if (r < 0.25) return 'Rend\x1b[1mezvous'; // an anchor split by a colour code
    if (r < 0.27) return '\x1b]0;title\x07';
    if (r < 0.3) return nulRuns-- > 0 ? '\u0000'.repeat(1 + Math.floor(rand() * 5)) : '';
    if (r < 0.33) return 'é迟到▏';
    if (r < 0.36) return ' '.repeat(Math.floor(rand() * 40));
    if (r < 0.38) return 'y'.repeat(Math.floor(rand() * 90));
    return 'abc def 12:34 [rank3] '.slice(Math.floor(rand() * 10));
  };

  it('hands on the same lines, numbers, texts and anchors, whatever the input and the chunking', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = mulberry32(seed);
      const lines: string[] = [];
      nulRuns = 3;
      // Start with a colour code so the file counts as coloured (an ESC in its first 8 KiB).
      const n = 1 + Math.floor(rand() * 40);
      for (let i = 0; i < n; i++) {
        let l = i === 0 ? '\x1b[0m' : '';
        const parts = Math.floor(rand() * 8);
        for (let k = 0; k < parts; k++) l += piece(rand);
        lines.push(l + (rand() < 0.2 ? '\r' : ''));
      }
      let text = lines.join('\n');
      if (rand() < 0.7) text += '\n';
      const bytes = enc.encode(text);
      const maxLine = 20 + Math.floor(rand() * 60);
      const headLines = Math.floor(rand() * 4);
      const want = reference(bytes, ANCHORS, maxLine, headLines);
      for (const size of [1, 3, 7, 64, 100000]) {
        const got = scan(pieces(bytes, size), ANCHORS, { maxLineChars: maxLine, headLines });
        const ctx = `seed ${seed}, chunks of ${size}`;
        expect(got.stats.binary, ctx).toBe(false);
        expect(got.lines, ctx).toEqual(want.lines);
        expect(got.stats.lines, ctx).toBe(want.count);
        expect(got.stats.last && { line: got.stats.last.line, text: got.stats.last.text }, ctx).toEqual(want.last);
      }
    }
  });
});

describe('LineScanner byte-level behaviour', () => {
  it('reports each anchor index once, ascending, including duplicates of one literal', () => {
    const { lines } = scan(
      [enc.encode('a Timed out, Rendezvous and Rendezvous again\n')],
      ['Rendezvous', 'nothing', 'Timed out', 'Rendezvous'],
    );
    expect(lines[0]!.anchors).toEqual([0, 2, 3]);
  });

  it('switches anchors from the next line, even inside one chunk', () => {
    const text = 'alpha one\nalpha two\nbeta three\nalpha four\n';
    const seen: string[] = [];
    const s = new LineScanner(
      ['alpha', 'beta'],
      (l) => {
        seen.push(l.text);
        if (l.text === 'alpha one') s.setAnchors(['beta']);
      },
      {},
    );
    s.push(enc.encode(text));
    s.finish();
    expect(seen).toEqual(['alpha one', 'beta three']);
  });

  it('strips colour codes and finds an anchor split by one', () => {
    const text =
      '\x1b[32mI1129 18:30:40.510000 6301 torch/distributed/run.py:651]\x1b[0m \x1b[1mRendez\x1b[0mvous ok\n';
    const r = scan([enc.encode(text)], ['Rendezvous']);
    expect(r.lines.map((l) => l.text)).toEqual([
      'I1129 18:30:40.510000 6301 torch/distributed/run.py:651] Rendezvous ok',
    ]);
    expect(r.stats.decoding.ansiSequences).toBe(4);
  });

  it('skips NUL padding at the start (copytruncate), in the middle and at the end (crash), and counts it', () => {
    const pad = (n: number) => new Uint8Array(n);
    const body = enc.encode('one Rendezvous\ntwo\n');
    const tail = enc.encode('three Rendezvous\n');
    const bytes = new Uint8Array([...pad(200_000), ...body, ...pad(300_000), ...tail, ...pad(5000)]);
    for (const size of [4096, 1 << 20]) {
      const r = scan(pieces(bytes, size), ['Rendezvous']);
      expect(r.stats.binary).toBe(false);
      expect(r.lines.map((l) => [l.line, l.text])).toEqual([
        [1, 'one Rendezvous'],
        [3, 'three Rendezvous'],
      ]);
      expect(r.stats.lines).toBe(3);
      expect(r.stats.decoding.nulBytes).toBe(505_000);
      expect(r.stats.last?.text).toBe('three Rendezvous');
    }
  });

  it('still calls NULs spread through the bytes, or nothing but NULs, binary', () => {
    const spread = enc.encode('a\u0000b\u0000c\u0000d\u0000e\u0000f\u0000 Rendezvous\n');
    expect(scan([spread], ['Rendezvous']).stats.binary).toBe(true);
    expect(scan([new Uint8Array(20_000)], ['x']).stats.binary).toBe(true);
    // UTF-16 without a byte-order mark: a NUL every other byte.
    const u16 = new Uint8Array([...'Rendezvous ok\n'].flatMap((c) => [c.charCodeAt(0), 0]));
    expect(scan([u16], ['Rendezvous']).stats.binary).toBe(true);
  });

  it('reads UTF-16 with a byte-order mark, little and big endian, however the chunks split it', () => {
    const text = 'first 节点\r\nINFO Rendezvous 迟到 ok\nlast\n';
    const le = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0) & 255, c.charCodeAt(0) >> 8])]);
    const be = new Uint8Array([0xfe, 0xff, ...[...text].flatMap((c) => [c.charCodeAt(0) >> 8, c.charCodeAt(0) & 255])]);
    for (const [bytes, encoding] of [
      [le, 'utf-16le'],
      [be, 'utf-16be'],
    ] as const) {
      for (const size of [1, 3, 4096]) {
        const r = scan(pieces(bytes, size), ['Rendezvous'], { headLines: 1 });
        expect(r.stats.binary).toBe(false);
        expect(r.stats.decoding).toMatchObject({ encoding, bom: true, invalidBytes: 0 });
        expect(r.lines.map((l) => [l.line, l.text])).toEqual([
          [1, 'first 节点'],
          [2, 'INFO Rendezvous 迟到 ok'],
        ]);
        expect(r.stats.lines).toBe(3);
      }
    }
  });

  it('drops a UTF-8 byte-order mark from the first line only', () => {
    const r = scan([new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('head\n\uFEFFRendezvous\n')])], ['Rendezvous'], {
      headLines: 1,
    });
    expect(r.lines.map((l) => l.text)).toEqual(['head', '\uFEFFRendezvous']);
    expect(r.stats.decoding.bom).toBe(true);
  });

  it('counts the invalid bytes it replaced, not a valid U+FFFD', () => {
    const bytes = new Uint8Array([
      ...enc.encode('ok Rendezvous \uFFFD '),
      0xff,
      0xe2,
      0x82, // a truncated 3-byte sequence: one replacement for two bytes
      0x41,
      0xc3,
      ...enc.encode('\n'),
    ]);
    const r = scan([bytes], ['Rendezvous']);
    expect(r.stats.decoding.invalidBytes).toBe(4);
    expect(r.stats.invalidUtf8).toBe(true);
    expect(r.lines[0]!.text).toBe('ok Rendezvous \uFFFD \uFFFD\uFFFDA\uFFFD');
  });

  it('cuts a 50 MB single line without holding it, and counts the cut lines', () => {
    const chunk = new Uint8Array(1 << 20).fill(0x61);
    chunk.set(enc.encode(' Rendezvous '), 100);
    const lines: ScannedLine[] = [];
    const s = new LineScanner(['Rendezvous'], (l) => lines.push(l), { maxLineChars: 65536 });
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    for (let i = 0; i < 50; i++) {
      s.push(chunk);
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }
    s.push(enc.encode('\nafter Rendezvous\n'));
    const st = s.finish();
    expect(lines.map((l) => [l.line, l.cut, l.text.length])).toEqual([
      [1, true, 65536 + CUT_MARKER.length],
      [2, false, 'after Rendezvous'.length],
    ]);
    expect(lines[0]!.anchors).toEqual([0]);
    expect(st).toMatchObject({ lines: 2, longLines: 1 });
    expect(st.decoding.cutLines).toBe(1);
    // What the scanner keeps is one line's start (≤ 3 × 64 Ki), never the 50 MB.
    expect(peak).toBeLessThan(8 << 20);
  });

  it('hands on the first line of each new stream label when a probe is set', () => {
    const text = ['0: Rendezvous', '0: noise', '1: noise', '1: more', '2025-03-27T10:00:00Z 2: noise', '0: noise'].join(
      '\n',
    );
    const seen: number[] = [];
    const s = new LineScanner(['Rendezvous'], (l) => seen.push(l.line), {});
    s.setStreamProbe(streamLabelProbe());
    s.push(enc.encode(text + '\n'));
    s.finish();
    expect(seen).toEqual([1, 3, 5]);
  });
});
