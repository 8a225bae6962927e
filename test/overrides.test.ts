import { describe, expect, it } from 'vitest';
import { buildJob, createExtractor } from '../src/core/index';
import type { FileExtract, Overrides } from '../src/core/model';
import { corpusText } from './helpers';

// The user's corrections where the logs are silent or wrong: which node a file belongs to, a node's name,
// the year or the zone of a file's timestamps. The job is recomputed from them.

const S2 = 'torch2.6-s2_static_timeout30_node3_late';

function extracts(files: Record<string, string>): FileExtract[] {
  return Object.entries(files).map(([name, text]) => {
    const ex = createExtractor(name);
    ex.push(new TextEncoder().encode(text));
    return ex.finish();
  });
}

const s2 = () =>
  extracts(Object.fromEntries([0, 1, 2, 3].map((i) => [`node${i}.log`, corpusText(S2, `node${i}.log`)])));

describe('overrides', () => {
  it('a file moved into another node merges with it', () => {
    const x = s2();
    const base = buildJob(x);
    expect(base.nodes).toHaveLength(4);
    const o: Overrides = { fileNode: { 'node3.log': 'node2', 'node2.log': 'node2' } };
    const job = buildJob(x, { overrides: o });
    expect(job.nodes.map((n) => n.id).sort()).toEqual(['node0', 'node1', 'node2']);
    expect(job.nodes.find((n) => n.id === 'node2')!.files.sort()).toEqual(['node2.log', 'node3.log']);
  });

  it('a node can be renamed, and the diagnosis uses the new name', () => {
    const job = buildJob(s2(), { overrides: { nodeName: { node3: 'gpu-host-17' } } });
    expect(job.failure?.lateNodes).toEqual(['gpu-host-17']);
  });

  it('a zone set for one file shifts that node alone', () => {
    const base = buildJob(s2());
    const job = buildJob(s2(), { overrides: { fileOffsetMinutes: { 'node3.log': 60 } } });
    const lag = (j: typeof job) => j.nodes.find((n) => n.id === 'node3')!.lagSeconds!;
    // node3's local times read as UTC+1: it launched an hour earlier than read as UTC, so node3 is now the first.
    expect(lag(base)).toBeCloseTo(45, 0);
    expect(lag(job)).toBe(0);
    expect(job.notes.join(' ')).toMatch(/set by hand for node3\.log/);
  });

  it('a year set for a file places its year-less timestamps in it', () => {
    const job = buildJob(s2(), {
      overrides: { fileYear: { 'node0.log': 2024, 'node1.log': 2024, 'node2.log': 2024, 'node3.log': 2024 } },
    });
    expect(job.nodes[0]!.launchTime!.startsWith('2024-11-29')).toBe(true);
  });
});
