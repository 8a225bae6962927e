import { describe, expect, it } from 'vitest';
import { noteText } from '../src/core/notesText';
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
    const o: Overrides = { fileNode: { 'node3.log': 'node2' } };
    const job = buildJob(x, { overrides: o });
    expect(job.nodes.map((n) => n.id).sort()).toEqual(['node0', 'node1', 'node2']);
    expect(job.nodes.find((n) => n.id === 'node2')!.files.sort()).toEqual(['node2.log', 'node3.log']);
  });

  it('a file moved into a renamed node joins it by its shown name; one of two same-named nodes can be renamed', () => {
    const x = s2();
    const job = buildJob(x, { overrides: { nodeName: { node2: 'gpu-17' }, fileNode: { 'node3.log': 'gpu-17' } } });
    expect(job.nodes.find((n) => n.id === 'gpu-17')!.files.sort()).toEqual(['node2.log', 'node3.log']);
    // Two folders that say nothing (`logs`, `output`) holding files that say nothing: both nodes fall back to
    // the file name.
    const plain = 'torch1.13-s1_healthy_static';
    const twins = extracts({
      'logs/stdout.log': corpusText(plain, 'node1.log'),
      'output/stdout.log': corpusText(plain, 'node2.log'),
    });
    const ids = buildJob(twins).nodes.map((n) => n.id);
    expect(ids.sort()).toEqual(['stdout', 'stdout#2']);
    const renamed = buildJob(twins, { overrides: { nodeName: { 'stdout#2': 'node2' } } }).nodes.map((n) => n.id);
    expect(renamed.sort()).toEqual(['node2', 'stdout']);
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
    expect(job.notes.map((n) => noteText('en', n)).join(' ')).toMatch(/set by hand for node3\.log/);
  });

  it('a year set for a file places its year-less timestamps in it', () => {
    const job = buildJob(s2(), {
      overrides: { fileYear: { 'node0.log': 2024, 'node1.log': 2024, 'node2.log': 2024, 'node3.log': 2024 } },
    });
    expect(job.nodes[0]!.launchTime!.startsWith('2024-11-29')).toBe(true);
  });

  it('clock offsets measured at the rendezvous are corrected when the user asks', () => {
    const shift = (t: string, sec: number) =>
      t.replace(/^([IWE])(\d{4}) (\d\d):(\d\d):(\d\d)/gm, (_, l, md, h, m, s) => {
        const total = Number(h) * 3600 + Number(m) * 60 + Number(s) + sec;
        const p2 = (n: number) => String(n).padStart(2, '0');
        return `${l}${md} ${p2(Math.floor(total / 3600))}:${p2(Math.floor(total / 60) % 60)}:${p2(total % 60)}`;
      });
    const healthy = 'torch2.6-s1_static_healthy_info';
    const files = Object.fromEntries([0, 1, 2, 3].map((i) => [`node${i}.log`, corpusText(healthy, `node${i}.log`)]));
    files['node2.log'] = shift(files['node2.log']!, 7);
    const x = extracts(files);
    const lag = (j: ReturnType<typeof buildJob>) => j.nodes.find((n) => n.id === 'node2')!.lagSeconds!;
    const raw = buildJob(x);
    const fixed = buildJob(x, { overrides: { correctClocks: true } });
    expect(raw.clockOffsets[0]).toMatchObject({ node: 'node2', kind: 'clock', applied: false });
    expect(fixed.clockOffsets[0]).toMatchObject({ node: 'node2', applied: true });
    expect(lag(raw) - lag(fixed)).toBeCloseTo(raw.clockOffsets[0]!.offsetSeconds, 0);
  });
});
