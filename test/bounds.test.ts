import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newStream } from '../src/core/extract/stream';
import { MAX_FRAMES, readTraceback } from '../src/core/extract/traceback';
import type { FileExtract } from '../src/core/model';
import { buildJob, createExtractor } from '../src/core/index';
import { CORPUS } from './helpers';

// Per-stream state that grew with the input besides the events (issue 13, item 2): the frames of one
// traceback. The input is a real traceback with a user's recursion in it, deeper than Python's own limit.

function extract(name: string, text: string): FileExtract {
  const ex = createExtractor(name);
  ex.push(new TextEncoder().encode(text));
  return ex.finish();
}

describe('a traceback of 20,000 frames', () => {
  // node2 of a real torch 2.6 run whose init_process_group timed out: its worker's traceback (train.py's main,
  // then torch's init_process_group and rendezvous frames), with 20,000 frames of a recursion in train.py
  // between main and the call into torch.
  const text = readFileSync(path.join(CORPUS, 'torch2.6-s9_static_pg_init_timeout20', 'node2.log'), 'utf8');
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes('/sim/tools/train.py", line 116, in main'));
  const deep = [
    ...lines.slice(0, at),
    ...Array.from({ length: 20_000 }, () => [
      '  File "/sim/tools/train.py", line 40, in recurse',
      '    return recurse(n - 1)',
    ]).flat(),
    ...lines.slice(at),
  ].join('\n');

  it('keeps the outermost and the innermost frames', () => {
    const s = newStream('node2.log', '');
    readTraceback(s, 1, 'Traceback (most recent call last):');
    readTraceback(s, 2, '  File "/sim/tools/train.py", line 146, in <module>');
    for (let k = 0; k < 20_000; k++) readTraceback(s, 3 + k, '  File "/sim/tools/train.py", line 40, in recurse');
    readTraceback(
      s,
      20_003,
      '  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 1714, in init_process_group',
    );
    expect(s.frames.length).toBeLessThanOrEqual(MAX_FRAMES);
    expect(s.frames[0]!.fn).toBe('<module>');
    expect(s.frames.at(-1)!.fn).toBe('init_process_group');
  });

  it('is read in time linear in its lines, and the diagnosis is that of the log without the recursion', () => {
    // Each frame line used to read every frame above it again (refining warnings above the traceback).
    expect(at).toBeGreaterThan(0);
    const job = buildJob([extract('node2.log', deep)]);
    const plain = buildJob([extract('node2.log', text)]);
    expect(job.verdict).toBe(plain.verdict);
    expect(job.failure?.stage).toBe(plain.failure?.stage);
    expect(job.nodes.map((n) => n.failureStage)).toEqual(plain.nodes.map((n) => n.failureStage));
  });
});
