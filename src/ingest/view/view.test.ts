import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildJob, diagnose } from '../../core/index';
import type { FileExtract, FileProblem, JobModel } from '../../core/model';
import { english } from '../../i18n/sentence';
import { createInputReader } from '../archive/index';
import { groupProblems, lateNodesOf, naturalKey, resultView, skewModel, timeGaps, viewHead } from './index';

const CORPUS = path.resolve(import.meta.dirname, '../../../test/fixtures/corpus');

function extractsOf(dir: string): FileExtract[] {
  const out: FileExtract[] = [];
  for (const f of readdirSync(path.join(CORPUS, dir))
    .filter((n) => n.endsWith('.log'))
    .sort()) {
    const reader = createInputReader(`${dir}/${f}`, { mtimeMs: null, onExtract: (x) => out.push(x) });
    reader.push(readFileSync(path.join(CORPUS, dir, f)));
    reader.finish();
  }
  return out;
}

const problem = (code: FileProblem['code'], message = `${code} file`): FileProblem => ({
  code,
  message,
  sentence: english(message),
});

describe('problems fold by reason and folder', () => {
  it('20,000 non-logs in one archive folder are one group, files in numeric order, one message', () => {
    const files = Array.from({ length: 20_000 }, (_, i) => ({
      file: `bundle.zip/archive/f${String(19_999 - i).padStart(6, '0')}.log`,
      problem: problem('not-a-log', 'No torchrun lines.'),
    }));
    const groups = groupProblems([...files, { file: 'node0.log', problem: null }]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      code: 'not-a-log',
      folder: 'bundle.zip/archive/',
      common: english('No torchrun lines.'),
    });
    expect(groups[0]!.files).toHaveLength(20_000);
    expect(groups[0]!.files.slice(0, 2)).toEqual(['bundle.zip/archive/f000000.log', 'bundle.zip/archive/f000001.log']);
  });

  it('keeps reasons and folders apart, worst reasons first, and each file its own message when they differ', () => {
    const groups = groupProblems([
      { file: 'a/x.bin', problem: problem('binary', 'NUL at byte 3') },
      { file: 'a/y.bin', problem: problem('binary', 'NUL at byte 9') },
      { file: 'b/z.bin', problem: problem('binary') },
      { file: 'a/e.log', problem: problem('empty') },
      { file: 'top.gz', problem: problem('bomb') },
    ]);
    expect(groups.map((g) => `${g.code}:${g.folder}:${g.files.length}`)).toEqual([
      'bomb::1',
      'binary:a/:2',
      'binary:b/:1',
      'empty:a/:1',
    ]);
    expect(groups[1]).toMatchObject({ common: null, messages: [english('NUL at byte 3'), english('NUL at byte 9')] });
  });
});

describe('late nodes', () => {
  const job = (lags: Record<string, number | null>, lateNodes: string[] | null) =>
    ({
      failure: lateNodes ? { lateNodes } : null,
      nodes: Object.entries(lags).map(([id, lagSeconds]) => ({ id, lagSeconds })),
    }) as unknown as JobModel;

  it('are counted, the worst first by lag, ties in numeric name order (node9 before node10)', () => {
    const lags = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`node${i + 1}`, i < 3 ? 300 : 60 + i]));
    const late = lateNodesOf(job(lags, Object.keys(lags)), null);
    expect(late.count).toBe(41);
    expect(late.culprits).toBe(true);
    expect(late.worst.map((n) => n.id)).toEqual([
      'node1',
      'node2',
      'node3',
      'node41',
      'node40',
      'node39',
      'node38',
      'node37',
    ]);
    const tie = lateNodesOf(job({ node10: 5, node9: 5, node100: 5 }, ['node10', 'node100', 'node9']), null);
    expect(tie.worst.map((n) => n.id)).toEqual(['node9', 'node10', 'node100']);
  });

  it('of a job that ran are those its LATE_NODE findings name, however many findings there are', () => {
    const finding = (nodes: string[]) => ({ code: 'LATE_NODE', nodes }) as never;
    const late = lateNodesOf(job({ a: 1, b: 9, c: null }, null), { findings: [finding(['a']), finding(['b', 'c'])] });
    expect(late).toMatchObject({ count: 3, culprits: false });
    expect(late.worst.map((n) => n.id)).toEqual(['b', 'a', 'c']);
  });

  it('natural keys sort like the collator, with plain comparisons', () => {
    const names = ['node10', 'node9', 'Node2', 'gpu-host-100', 'gpu-host-20', 'node09x'];
    const byKey = [...names].sort((a, b) => (naturalKey(a) < naturalKey(b) ? -1 : 1));
    expect(byKey).toEqual(['gpu-host-20', 'gpu-host-100', 'Node2', 'node9', 'node09x', 'node10']);
  });
});

describe('the skew chart model', () => {
  const nodes = (lags: (number | null)[]) => lags.map((lagSeconds, i) => ({ id: `node${i}`, lagSeconds }));
  const line = (seconds: number) => ({ key: `l${seconds}`, seconds, anchor: 'job', kind: 'limit' }) as never;

  it('bins every node, keeps the tail of late nodes, and names the highest line each crossed', () => {
    const lags = [
      0,
      ...Array.from({ length: 4054 }, (_, i) => (i % 50) / 10),
      ...Array.from({ length: 41 }, (_, i) => 60 + i * 6),
    ];
    const late = lags.map((lag, i) => (lag >= 60 ? `node${i}` : null)).filter((x): x is string => x !== null);
    const m = skewModel({ nodes: nodes([...lags, null]) as never }, [line(300), line(30)], late);
    expect(m.points).toHaveLength(lags.length);
    expect(m.bins.reduce((n, b) => n + b.count, 0)).toBe(lags.length);
    expect(m.unplaced).toEqual({ count: 1, first: [`node${lags.length}`] });
    expect(m.lines.map((l) => l.seconds)).toEqual([30, 300]);
    expect(m.tailCount).toBe(41);
    expect(m.tail[0]).toMatchObject({ lag: 300, crossed: 1 });
    expect(m.points[0]!.lag).toBe(300);
    expect(m.first).toBe('node0');
    expect(m.domainMax).toBeGreaterThanOrEqual(300);
  });
});

describe('the result view of a real job', () => {
  const extracts = extractsOf('torch2.6-s2_static_timeout30_node3_late');
  const job = buildJob(extracts);
  const diagnosis = diagnose(job, 'en');

  it('drops the nodes’ events and nothing else the views draw', () => {
    const view = resultView(1, job, diagnosis, extracts);
    expect(view.complete).toBe(true);
    expect(view.job.nodes.map((n) => n.id)).toEqual(job.nodes.map((n) => n.id));
    expect(view.job.nodes.every((n) => !('events' in n))).toBe(true);
    expect(view.job.nodes[3]!.lagSeconds).toBe(job.nodes[3]!.lagSeconds);
    expect(view.timeline!.rows).toHaveLength(4);
    expect(view.late).toMatchObject({ count: 1, culprits: true, worst: [{ id: 'node3' }] });
    expect(view.fired).not.toBeNull();
    expect(view.skew!.points[0]!.node).toBe('node3');
  });

  it('sends the verdict first without the nodes, with their count', () => {
    const head = viewHead(2, job, diagnosis, extracts, { filesRead: 4, filesTotal: 8 });
    expect(head).toMatchObject({ nodeCount: 4, timeline: null, complete: false, partial: { filesRead: 4 } });
    expect(head.job.nodes).toEqual([]);
    expect(head.job.verdict).toBe(job.verdict);
  });

  it('says which files lack a year or a zone', () => {
    const gaps = timeGaps(extracts);
    // glog prefixes: no year, no zone.
    expect(Object.values(gaps).every((g) => g.yearless && g.zoneless)).toBe(true);
  });
});
