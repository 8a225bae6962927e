import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUT_MARKER, LineScanner, anchorRegex, type ScannedLine } from '../src/core/lineScanner';

const enc = new TextEncoder();

function scan(chunks: Uint8Array[], anchors: string[], opts = {}) {
  const lines: ScannedLine[] = [];
  const s = new LineScanner(anchorRegex(anchors), (l) => lines.push(l), opts);
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
