import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildJob, createExtractor } from '../src/core/index';
import { noteText } from '../src/core/notesText';
import type { FileExtract } from '../src/core/model';

// Honest decoding end to end (issue 13, item 9): the same real log read through colour codes, NUL padding and
// UTF-16 gives the same events at the same line numbers, and the extract says what was cleaned up.

const LOG = readFileSync(
  path.join(__dirname, 'fixtures/corpus/torch2.6-s2_static_timeout30_node3_late/node0.log'),
  'utf8',
);
const enc = new TextEncoder();

function extract(bytes: Uint8Array, chunk = 4096): FileExtract {
  const ex = createExtractor('node0.log');
  for (let i = 0; i < bytes.length; i += chunk) ex.push(bytes.subarray(i, i + chunk));
  return ex.finish();
}

const events = (x: FileExtract) => x.streams.flatMap((s) => s.events.map((e) => [e.id, e.line, e.text, e.clocks]));

/** Colours as a terminal logger prints them: the glog level letter, and a word inside the message. */
function colourise(text: string): string {
  return text
    .split('\n')
    .map((l) =>
      l
        .replace(/^([IWE])(\d{4} )/, '\x1b[1;32m$1\x1b[0m$2')
        .replace("Rendezvous'ing", "\x1b[33mRendez\x1b[1mvous\x1b[0m'ing")
        .replace(/(Timed out)/, '\x1b[31m$1\x1b[39m'),
    )
    .join('\n');
}

describe('honest decoding of a real log', () => {
  const plain = extract(enc.encode(LOG));

  it('reads the plain log with nothing to report', () => {
    expect(events(plain).length).toBeGreaterThan(5);
    expect(plain.decoding).toEqual({
      encoding: 'utf-8',
      bom: false,
      invalidBytes: 0,
      nulBytes: 0,
      ansiSequences: 0,
      cutLines: 0,
    });
  });

  it('finds every event through colour codes, and counts them', () => {
    const coloured = colourise(LOG);
    expect(coloured).not.toBe(LOG);
    const x = extract(enc.encode(coloured));
    expect(x.problem).toBeNull();
    expect(events(x)).toEqual(events(plain));
    expect(x.decoding!.ansiSequences).toBe(coloured.split('\x1b').length - 1);
  });

  it('reads quotes a typographer curled as the ASCII quotes Python printed, split across chunks too', () => {
    const curled = LOG.replace(/"([^"\n]*)"/g, '\u201c$1\u201d').replace(/'([^'\n]*)'/g, '\u2018$1\u2019');
    expect(curled).toContain('File \u201c/usr/bin/torchrun\u201d, line 33');
    for (const chunk of [4096, 7]) expect(events(extract(enc.encode(curled), chunk))).toEqual(events(plain));
    // Other punctuation of the same block (an ellipsis, a dash) is left as it is.
    const first = String(events(plain)[0]![2]);
    const other = extract(enc.encode(LOG.replace(first, `${first} \u2026 \u2014`)));
    expect(events(other)[0]![2]).toBe(`${first} \u2026 \u2014`);
  });

  it('reads a log after copytruncate NUL padding and with a crash-padded end, at the same line numbers', () => {
    const bytes = new Uint8Array([...new Uint8Array(1 << 20), ...enc.encode(LOG), ...new Uint8Array(70_000)]);
    const x = extract(bytes, 65536);
    expect(x.problem).toBeNull();
    expect(events(x)).toEqual(events(plain));
    expect(x.lines).toBe(plain.lines);
    expect(x.decoding!.nulBytes).toBe((1 << 20) + 70_000);
  });

  it('reads UTF-16 little endian with a byte-order mark like UTF-8', () => {
    const u16 = new Uint8Array(2 + LOG.length * 2);
    u16.set([0xff, 0xfe]);
    for (let i = 0; i < LOG.length; i++) {
      u16[2 + 2 * i] = LOG.charCodeAt(i) & 255;
      u16[3 + 2 * i] = LOG.charCodeAt(i) >> 8;
    }
    const x = extract(u16, 1001);
    expect(x.problem).toBeNull();
    expect(events(x)).toEqual(events(plain));
    expect(x.decoding).toMatchObject({ encoding: 'utf-16le', bom: true });
  });

  it('says what was mended, in the job notes and on each file of the JSON', () => {
    const padded = extract(new Uint8Array([...new Uint8Array(4096), ...enc.encode(LOG)]));
    const job = buildJob([plain], { nowMs: Date.UTC(2026, 11, 1) });
    expect(job.notes.map((n) => n.code)).not.toContain('decoding-cleaned');
    const mended = buildJob([{ ...padded, file: 'node0.log' }], { nowMs: Date.UTC(2026, 11, 1) });
    const note = mended.notes.find((n) => n.code === 'decoding-cleaned');
    expect(note?.values).toEqual({ files: 1, cutLines: 0, invalidBytes: 0, nulBytes: 4096, transcoded: 0 });
    expect(noteText('en', note!)).toBe('Reading 1 file mended the text: 4,096 NUL bytes skipped (padding).');
    expect(noteText('zh', note!)).toContain('NUL');
    expect(mended.files[0]!.decoding?.nulBytes).toBe(4096);
  });
});
