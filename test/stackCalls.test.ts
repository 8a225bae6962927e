import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderReport } from '../src/cli/report';
import { appendAll } from '../src/core/arrays';
import { diagnose } from '../src/core/index';
import type { JobModel } from '../src/core/model';
import { filesFromDataTransfer } from '../src/ingest/collect';
import { runPool } from '../src/ingest/pool';
import type { InputFile } from '../src/ingest/types';
import { analyseTexts, corpusText } from './helpers';

// Stack-safe (issue 13, item 7) in the CLI and ingest: each of these spread an array the user's input sizes into
// a call (`push(...files)`, `Math.max(...widths)`) and threw `RangeError: Maximum call stack size exceeded` past
// ~120,000 items on Node 20. N is well past that: each case fails if its spread comes back.

const N = 300_000;

describe('calls that take arrays the input sizes', () => {
  it('N is past what a spread into a call takes here', () => {
    expect(() => [].push(...(new Array(N).fill(0) as never[]))).toThrow(RangeError);
    expect(appendAll([1], new Array(N).fill(2))).toHaveLength(N + 1);
  });

  it('the CLI report of a job of 300,000 nodes', () => {
    const s2 = 'torch2.6-s2_static_timeout30_node3_late';
    const small = analyseTexts(
      Object.fromEntries(['node0', 'node1', 'node2', 'node3'].map((n) => [`${n}.log`, corpusText(s2, `${n}.log`)])),
    );
    const dx = diagnose(small);
    const base = small.nodes[0]!;
    const job: JobModel = {
      ...small,
      nodes: Array.from({ length: N }, (_, i) => ({ ...base, id: `node${i}`, groupRank: i })),
    };
    const text = renderReport(job, dx, 'en');
    expect(text).toContain('node299999');
  });

  it('a drop whose DataTransfer has 300,000 files and no entries', async () => {
    // What the drop reads of a file is its name (a real File each would only make the test slow).
    const files = Array.from({ length: N }, (_, i) => ({ name: `f${i}.log`, webkitRelativePath: '' }));
    const data = { items: [], files } as unknown as DataTransfer;
    const got = await filesFromDataTransfer(data);
    expect(got.files).toHaveLength(N);
  });

  describe('the dashboard pool', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('takes 300,000 more files on a run under way', () => {
      // A worker that never answers: the run stays under way while the files are queued.
      class SilentWorker {
        onmessage: unknown = null;
        onerror: unknown = null;
        postMessage() {}
        terminate() {}
      }
      vi.stubGlobal('Worker', SilentWorker);
      const input = (i: number) => ({ path: `f${i}.log`, file: { size: 1, lastModified: 0 } }) as unknown as InputFile;
      const listener = { started() {}, progress() {}, finished() {}, crashed() {} };
      const run = runPool([input(0)], listener, { connect: () => {} });
      expect(run.add(Array.from({ length: N }, (_, i) => input(i + 1)))).toBe(1);
      run.cancel();
    });
  });
});
