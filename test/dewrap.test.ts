import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Dewrap, wrapWidthOf } from '../src/core/scan/dewrap';
import { CAPTURED, CORPUS, analyseTexts, filesUnder } from './helpers';

// Lines a terminal hard-wrapped (src/core/scan/dewrap.ts): joined before the scan, numbered as in the file.

const enc = new TextEncoder();
const dec = new TextDecoder();
const wrap = (text: string, w: number) =>
  text
    .split('\n')
    .map((l) => (l.length > w ? (l.match(new RegExp(`.{1,${w}}`, 'g')) ?? [l]).join('\n') : l))
    .join('\n');

function through(text: string, chunk: number): { out: string; d: Dewrap } {
  const d = new Dewrap();
  const bytes = enc.encode(text);
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += chunk) {
    const o = d.push(bytes.subarray(i, i + chunk));
    if (o) parts.push(dec.decode(o));
  }
  const rest = d.flush();
  if (rest) parts.push(dec.decode(rest));
  return { out: parts.join(''), d };
}

const run = readFileSync(path.join(CAPTURED, 'torch2.6-static-host-late-fail', 'node1.log'), 'utf8');

describe('hard-wrapped lines', () => {
  it('finds the width and joins the pieces back, the same whatever the chunks', () => {
    const wrapped = wrap(run, 120);
    expect(wrapWidthOf(enc.encode(wrapped))).toBe(120);
    const whole = through(wrapped, 1 << 20).out;
    for (const chunk of [7, 120, 121, 4096]) expect(through(wrapped, chunk).out).toBe(whole);
    // The launch block's lines, the rendezvous and the connect failures come back whole.
    const lines = new Set(whole.split('\n'));
    for (const line of run.split('\n'))
      if (/Starting elastic_operator|Rendezvous'ing worker group|The client socket has timed out after/.test(line))
        expect(lines.has(line), line.slice(0, 80)).toBe(true);
    expect(whole.split('\n').length).toBeLessThan(wrapped.split('\n').length);
  });

  it('numbers each joined line as the line of the file it starts on', () => {
    const wrapped = wrap(run, 120);
    const { out, d } = through(wrapped, 997);
    const physical = wrapped.split('\n');
    out.split('\n').forEach((line, i) => {
      expect(line.startsWith(physical[d.physical(i + 1) - 1]!)).toBe(true);
    });
    // An event's evidence points at its line in the wrapped file.
    const job = analyseTexts({ 'node1.log': wrapped });
    for (const e of job.nodes[0]!.events) expect(physical[e.line - 1]!.startsWith(e.text.slice(0, 40))).toBe(true);
  });

  // Where the width fell in real wrapped pastes (the c10d 2.5 and 1.x store-barrier excerpts in
  // test/fixtures/excerpts): the next piece goes on with text that only looks like a line's start.
  it('joins a piece that goes on with a `word: `, a number and a slash, or a key and a number', () => {
    const going = [
      'I0122 16:40:11.307000 1 site-packages/torch/distributed/elastic/agent/server/api.py:860] [default] starting workers for entrypoint: python',
      'I0122 16:40:21.171000 1 site-packages/torch/distributed/elastic/agent/server/api.py:889] [default] Worker group FAILED. 2/2 attempts left; will restart worker group',
      'INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for rank: 5, key: store_based_barrier_key:1 (world_size=16, worker_count=8, timeout=0:30:00)',
    ];
    const text = `${run}${going.join('\n')}\n`;
    const wrapped = wrap(text, 120);
    for (const piece of ['entrypoint: python', '2/2 attempts left;', 're_based_barrier_key:1 (world_'])
      expect(
        wrapped.split('\n').some((l) => l.startsWith(piece)),
        piece,
      ).toBe(true);
    const lines = new Set(through(wrapped, 4096).out.split('\n'));
    for (const line of going) expect(lines.has(line), line.slice(-40)).toBe(true);
  });

  it('keeps the `host: ` lines of a labelled file apart, and joins what goes on after them', () => {
    const labelled = run
      .split('\n')
      .map((l) => (l ? `a100-07: ${l}` : l))
      .join('\n');
    const { out, d } = through(wrap(labelled, 120), 4096);
    expect(d.wrapWidth).toBe(120);
    expect(out).toBe(labelled);
  });

  it('leaves alone every real run, none of which is wrapped', () => {
    for (const root of [CAPTURED, CORPUS])
      for (const f of filesUnder(root).filter((x) => x.endsWith('.log') || x.endsWith('.out')))
        expect(wrapWidthOf(readFileSync(path.join(root, f))), f).toBe(0);
  });

  it('does not take a table padded to one width, or a line repeated, for a wrap', () => {
    const rows = Array.from(
      { length: 6 },
      (_, i) =>
        `trainjob-worker-${i}   1/1   Running   0   12m   10.0.4.${10 + i}   gpu-node-0${i}`.padEnd(90, ' ') + 'x',
    );
    expect(wrapWidthOf(enc.encode(rows.join('\n') + '\n'))).toBe(0);
    const same = Array.from({ length: 4 }, () => 'E'.repeat(100)).join('\nsome more\n');
    expect(wrapWidthOf(enc.encode(same + '\n'))).toBe(0);
  });
});
