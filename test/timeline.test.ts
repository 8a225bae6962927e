import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import type { JobModel } from '../src/core/model';
import {
  buildTimeline,
  orderRows,
  rowMatches,
  type PlacedRow,
  type TimelineModel,
  type TimelineRow,
  type UnplacedRow,
} from '../src/core/timeline';
import { sentenceText, type Sentence } from '../src/i18n/sentence';
import { analyseTexts, CAPTURED, CORPUS, filesUnder } from './helpers';

// The startup timeline on real corpus runs, checked against what was measured outside the logs (truth.json:
// each node's launch and torchrun exit, in epoch seconds).

interface Truth {
  first_launch_epoch_s: number;
  nodes: { hostname: string; log_file: string; launch_epoch_s: number; torchrun_end_epoch_s: number | null }[];
}

function scenario(name: string, root = CORPUS): { job: JobModel; tl: TimelineModel; truth: Truth } {
  const dir = path.join(root, name);
  const files = Object.fromEntries(
    filesUnder(dir)
      .filter((f) => !f.endsWith('truth.json'))
      .map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]),
  );
  const job = analyseTexts(files);
  const tl = buildTimeline(job, diagnose(job).thresholds);
  return { job, tl, truth: JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Truth };
}

const placed = (tl: TimelineModel, node: string): PlacedRow => {
  const row = tl.rows.find((r) => r.node === node);
  if (!row?.placed) throw new Error(`${node} is not placed`);
  return row;
};
const unplaced = (tl: TimelineModel, node: string): UnplacedRow => {
  const row = tl.rows.find((r) => r.node === node);
  if (!row || row.placed) throw new Error(`${node} is placed`);
  return row;
};
/** Seconds after the timeline's origin (the earliest launch). */
/** What a sentence of the timeline says in English (`''` for none). */
const en = (s: Sentence | null | undefined) => (s ? sentenceText('en', s) : '');
const rel = (tl: TimelineModel, ms: number) => (ms - tl.originMs!) / 1000;
const seconds = (p: { startMs: number; endMs: number }) => (p.endMs - p.startMs) / 1000;
const measured = (truth: Truth, file: string) => {
  const n = truth.nodes.find((x) => x.log_file === file)!;
  return {
    launch: n.launch_epoch_s - truth.first_launch_epoch_s,
    end: (n.torchrun_end_epoch_s ?? NaN) - truth.first_launch_epoch_s,
  };
};

describe('torch 2.6, static, timeout=30, node3 45 s late (s2)', () => {
  const { tl, truth } = scenario('torch2.6-s2_static_timeout30_node3_late');

  it('places every node, counted from node0, with launches where they were measured', () => {
    expect(tl.rows).toHaveLength(4);
    expect(tl.rows.every((r) => r.placed)).toBe(true);
    expect(tl.originNode).toBe('node0');
    expect(tl.originWhat).toBe('launch');
    for (const node of ['node0', 'node1', 'node2', 'node3']) {
      const row = placed(tl, node);
      expect(rel(tl, row.launchMs!)).toBeCloseTo(measured(truth, `${node}.log`).launch, 0);
    }
    expect(rel(tl, placed(tl, 'node3').phases[0]!.startMs)).toBeGreaterThan(44);
  });

  it('shows the early nodes waiting in the rendezvous until the store host gave up after 31 s', () => {
    const node0 = placed(tl, 'node0');
    expect(node0.phases.map((p) => p.kind)).toEqual(['rendezvous']);
    const wait0 = node0.phases[0]!;
    expect(seconds(wait0)).toBeGreaterThan(30);
    expect(seconds(wait0)).toBeLessThan(33);
    expect(wait0.end).toBe('failure');
    expect(wait0.stage).toBe('rendezvous-timeout');
    // The DistStoreError line has no time: core places it from the 31 s the text states (launch + 31 s).
    expect(wait0.endTiming).toBe('derived');
    expect(wait0.endEvidence).toMatchObject({ file: 'node0.log', line: 70 });

    for (const node of ['node1', 'node2']) {
      const wait = placed(tl, node).phases[0]!;
      expect(wait.kind).toBe('rendezvous');
      // They lost the store when node0 stopped: 27–29 s after their own (later) launches.
      expect(seconds(wait)).toBeGreaterThan(26);
      expect(seconds(wait)).toBeLessThan(30);
      expect(wait.endMs).toBe(wait0.endMs);
      expect(en(wait.note)).toContain('store host node0 stopped');
    }
    // Every bar ends at most 3 s before that torchrun process exited (measured).
    for (const node of ['node0', 'node1', 'node2', 'node3']) {
      const end = rel(tl, placed(tl, node).endMs);
      const truthEnd = measured(truth, `${node}.log`).end;
      expect(end).toBeLessThanOrEqual(truthEnd + 0.5);
      expect(end).toBeGreaterThan(truthEnd - 3);
    }
  });

  it('shows node3 arriving after the others had gone, retrying the store connection until it failed', () => {
    const node3 = placed(tl, 'node3');
    const wait = node3.phases[0]!;
    expect(wait.kind).toBe('rendezvous');
    expect(wait.stage).toBe('store-connect');
    // Nobody was left to wait for it: the wait is its own connect retries (30 s, back-off, 30 s), not a meeting.
    expect(wait.startMs).toBeGreaterThan(placed(tl, 'node0').endMs);
    expect(seconds(wait)).toBeGreaterThan(45);
    const failures = node3.markers.filter((m) => m.kind === 'failure');
    expect(failures.map((m) => m.evidence.line)).toEqual([22, 61, 148]);
    expect(failures.filter((m) => m.timing === 'line').map((m) => m.evidence.line)).toEqual([22, 61]);
    const own = node3.markers.find((m) => m.own)!;
    expect(own).toMatchObject({ kind: 'failure', stage: 'store-connect', timing: 'estimated' });
    expect(own.evidence.text).toContain('DistNetworkError');
    expect(en(own.note)).toContain('node3.log:61');
    expect(node3.isLate).toBe(true);
  });

  it('draws the 30 s timeout from node0’s launch, and the 300/900/1800 s references', () => {
    const timeout = tl.thresholds.find((t) => t.ids.includes('rdzv-timeout'))!;
    expect(timeout).toMatchObject({ seconds: 30, kind: 'limit', from: 'logs', anchor: 'job' });
    expect(timeout.ids).toEqual(['rdzv-timeout']);
    expect(timeout.clockStarts).toBe('launch');
    expect(tl.originNode).toBe('node0');
    expect(rel(tl, timeout.atMs!)).toBe(30);
    expect(timeout.evidence?.text).toContain("'timeout': '30'");
    const jobLines = tl.thresholds.filter((t) => t.anchor === 'job').map((t) => t.seconds);
    expect(jobLines).toEqual([30, 300, 900, 1800]);
    // The 1800 s mark is the recommendation; the ≤ 2.3 rank-assignment wait does not apply to 2.6.
    expect(tl.thresholds.find((t) => t.seconds === 1800 && t.anchor === 'job')?.kind).toBe('recommended');
    expect(tl.thresholds.some((t) => t.ids.includes('store-sync'))).toBe(false);
    // Per-node limits nobody reached are kept, saying so.
    const pg = tl.thresholds.find((t) => t.ids.includes('pg-init'))!;
    expect(pg.anchor).toBe('node');
    expect(pg.perNode).toEqual([]);
    expect(pg.clockStarts).toBe('workers-started');
  });

  it('orders rows by lag (latest first), by name and by group rank, and filters them', () => {
    expect(orderRows(tl.rows, 'lag').map((r) => r.node)).toEqual(['node3', 'node2', 'node1', 'node0']);
    expect(orderRows(tl.rows, 'rank').map((r) => r.node)).toEqual(['node0', 'node1', 'node2', 'node3']);
    expect(tl.rows.filter((r) => rowMatches(r, 'late')).map((r) => r.node)).toEqual(['node3']);
    expect(tl.rows.filter((r) => rowMatches(r, 'node2')).map((r) => r.node)).toEqual(['node2']);
    expect(tl.rows.filter((r) => rowMatches(r, '')).length).toBe(4);
  });
});

describe('torch 1.13 on Kubernetes, the store host waits the 300 s rank assignment (k2b)', () => {
  const { tl, truth } = scenario('torch1.13-capture-k2b');

  it('shows both early nodes waiting ~334 s and failing in rank assignment', () => {
    for (const file of ['trainjob-master-0', 'trainjob-worker-0']) {
      const row = placed(tl, file);
      const last = row.phases.at(-1)!;
      expect(last.stage).toBe('rank-assignment');
      expect(last.endTiming).toBe('line');
      expect(rel(tl, row.endMs)).toBeCloseTo(measured(truth, `${file}.log`).end, -1);
      expect(seconds(last)).toBeGreaterThan(330);
    }
  });

  it('places the late node 345 s in, past the 300 s line, failing to connect ~29 s later', () => {
    const late = placed(tl, 'trainjob-worker-1');
    expect(rel(tl, late.launchMs!)).toBeCloseTo(measured(truth, 'trainjob-worker-1.log').launch, 0);
    expect(late.phases[0]!.stage).toBe('store-connect');
    expect(seconds(late.phases[0]!)).toBeCloseTo(29, 0);
    const sync = tl.thresholds.find((t) => t.ids.includes('store-sync'))!;
    expect(sync).toMatchObject({ seconds: 300, kind: 'limit', anchor: 'job', ids: ['store-sync'] });
    expect(late.launchMs!).toBeGreaterThan(sync.atMs!);
  });
});

describe('torch 2.6, init_process_group timeout 20 s, node2 late into it (s9)', () => {
  const { tl, truth } = scenario('torch2.6-s9_static_pg_init_timeout20');

  it('shows every node through the rendezvous into process-group init, where it failed', () => {
    for (const node of ['node0', 'node1', 'node2', 'node3']) {
      const row = placed(tl, node);
      expect(row.phases.map((p) => p.kind)).toEqual(['rendezvous', 'rank-assignment', 'workers-starting']);
      expect(row.phases.at(-1)!.stage).toBe('pg-init');
      expect(rel(tl, row.endMs)).toBeLessThanOrEqual(measured(truth, `${node}.log`).end + 0.5);
      expect(rel(tl, row.endMs)).toBeGreaterThan(measured(truth, `${node}.log`).end - 3);
    }
    // The waiters gave up ~26 s into init (20 s wait after their workers reached it); node2 tried ~83 s.
    expect(seconds(placed(tl, 'node0').phases.at(-1)!)).toBeGreaterThan(24);
    expect(seconds(placed(tl, 'node0').phases.at(-1)!)).toBeLessThan(28);
    expect(seconds(placed(tl, 'node2').phases.at(-1)!)).toBeGreaterThan(80);
  });

  it('draws the 20 s init_process_group limit from each node’s workers-started line', () => {
    const pg = tl.thresholds.find((t) => t.ids.includes('pg-init'))!;
    expect(pg).toMatchObject({ seconds: 20, from: 'logs', anchor: 'node', atMs: null });
    expect(pg.clockStarts).toBe('workers-started');
    expect(pg.perNode).toHaveLength(4);
    for (const p of pg.perNode) {
      const row = placed(tl, p.node);
      const started = row.phases.find((ph) => ph.kind === 'workers-starting')!;
      expect(p.anchorMs).toBe(started.startMs);
      expect(p.atMs - p.anchorMs).toBe(20_000);
      expect(row.ticks.some((t) => t.line === pg.key && t.atMs === p.atMs)).toBe(true);
    }
  });

  it('folds repeated lines into one marker and names the rank a worker line belongs to', () => {
    const node0 = placed(tl, 'node0');
    const waits = node0.markers.find((m) => m.id === 'wait-for-input')!;
    expect(waits.count).toBe(4);
    const workerFailed = node0.markers.find((m) => m.id === 'worker-failed')!;
    expect(workerFailed.rank).toBe(0);
    expect(tl.hasLanes).toBe(true);
    expect(placed(tl, 'node2').lanes.map((l) => l.label)).toEqual(['rank 4']);
  });
});

describe('logs without times', () => {
  it('torch 1.13 at default settings: every node is listed with the reason and what its text says', () => {
    const { tl } = scenario('torch1.13-s1_healthy_static');
    expect(tl.rows.every((r) => !r.placed)).toBe(true);
    expect(tl.originMs).toBeNull();
    const node0 = unplaced(tl, 'node0');
    expect(en(node0.reason)).toContain('torch ≤ 2.0');
    expect(sentenceText('zh', node0.reason)).toBe(
      '它的 torchrun 日志行没有时间戳：torch ≤ 2.0 在默认设置下不打印时间戳。',
    );
    expect(node0.says[0]).toMatchObject({ seconds: 0.27, evidence: { file: 'node0.log', line: 7 } });
    expect(node0.says[0]!.context).toContain('init_process_group done after 0.27s');
    expect(en(tl.notes[0]!.sentence)).toContain('No node can be placed');
    expect(tl.notes[0]!.unplaced).toBe(true);
    // How to get times next time.
    expect(tl.captureHint).toContain('LOGLEVEL=INFO');
    // Lines are still there for per-node limits, but nothing to count from.
    expect(tl.thresholds.find((t) => t.seconds === 300 && t.anchor === 'job')?.atMs).toBeNull();
  });

  it('a Slurm srun -l file: the reason names the Slurm labels', () => {
    const { tl } = scenario('torch1.13-capture-s1');
    expect(tl.rows).toHaveLength(4);
    for (const r of tl.rows) expect(en((r as UnplacedRow).reason)).toContain('Slurm');
  });

  it('torch 1.13, node0 (the store host) late: node0 cannot be placed, the others from their connect timeouts', () => {
    const { tl } = scenario('torch1.13-s2_static_timeout_node0_late');
    const node0 = unplaced(tl, 'node0');
    expect(node0.failure).toMatchObject({ file: 'node0.log', line: 73, text: 'RuntimeError: Socket Timeout' });
    expect(node0.limit).toEqual({ id: 'store-sync', seconds: 300 });
    expect(en(tl.notes[0]!.sentence)).toBe(
      '1 of 4 nodes cannot be placed on the time axis: their lines carry no usable time.',
    );
    const node1 = placed(tl, 'node1');
    expect(node1.markers[0]).toMatchObject({ kind: 'launch', id: 'derived-launch', timing: 'derived' });
    expect(node1.phases[0]).toMatchObject({ kind: 'rendezvous', startTiming: 'derived', stage: 'store-connect' });
    expect(seconds(node1.phases[0]!)).toBe(30);
  });

  it('only worker lines carry times (--log-dir): rows show the timed events, not phases, and say why', () => {
    const { tl } = scenario('torch1.13-s5_c10d_moderate_skew_logdir_tee');
    expect(tl.originWhat).toBe('first-time');
    for (const r of tl.rows) {
      const row = r as PlacedRow;
      expect(row.placed).toBe(true);
      expect(row.phases).toEqual([]);
      expect(en(row.gaps[0])).toContain('no time');
      expect(row.lanes.length).toBe(2);
    }
  });
});

describe('pre-launch work and healthy runs', () => {
  it('shows the download before torchrun as its own phase (p2)', () => {
    const { tl, truth } = scenario('torch1.13-capture-p2');
    const node1 = placed(tl, 'node1');
    expect(node1.phases.map((p) => p.kind)).toEqual([
      'pre-launch',
      'rendezvous',
      'rank-assignment',
      'workers-starting',
      'running',
      'finishing',
    ]);
    const pre = node1.phases[0]!;
    expect(seconds(pre)).toBeCloseTo(12.9, 0);
    expect(en(pre.note)).toContain('downloading dataset shard');
    expect(rel(tl, node1.launchMs!)).toBeCloseTo(measured(truth, 'node1.log').launch, 0);
    // The late node spends ~0 s in the rendezvous: everyone else was already there.
    expect(seconds(node1.phases[1]!)).toBeLessThan(0.1);
    expect(seconds(placed(tl, 'node0').phases[1]!)).toBeCloseTo(6.95, 1);
    expect(node1.lanes[0]!.phases.map((p) => p.kind)).toEqual(['workers-starting', 'running']);
  });

  it('a healthy 2.6 run without timed worker lines: one workers bar, then the exit barrier (s1)', () => {
    const { tl } = scenario('torch2.6-s1_static_healthy_info');
    const node0 = placed(tl, 'node0');
    expect(node0.phases.map((p) => p.kind)).toEqual(['rendezvous', 'rank-assignment', 'workers', 'finishing']);
    expect(en(node0.gaps[0])).toContain('init_process_group');
    expect(node0.markers.filter((m) => m.kind === 'exit').map((m) => m.id)).toEqual([
      'group-success',
      'exit-barrier-done',
    ]);
    const exitBarrier = tl.thresholds.find((t) => t.ids.includes('exit-barrier'))!;
    expect(exitBarrier.perNode).toHaveLength(4);
    expect(exitBarrier.clockStarts).toBe('workers-finished');
  });
});

describe('every corpus scenario', () => {
  const dirs = [
    ...readdirSync(CORPUS)
      .filter((d) => statSync(path.join(CORPUS, d)).isDirectory())
      .map((d) => [d, CORPUS] as const),
    ...readdirSync(CAPTURED)
      .filter((d) => statSync(path.join(CAPTURED, d)).isDirectory())
      .map((d) => [d, CAPTURED] as const),
  ];
  it.each(dirs)('%s: one row per node, phases in order, markers carry their evidence', (name, root) => {
    const { job, tl } = scenario(name, root);
    expect(tl.rows.map((r: TimelineRow) => r.node)).toEqual(job.nodes.map((n) => n.id));
    for (const row of tl.rows) {
      const node = job.nodes.find((n) => n.id === row.node)!;
      if (!row.placed) {
        expect(en(row.reason).length).toBeGreaterThan(10);
        continue;
      }
      expect(row.startMs).toBeLessThanOrEqual(row.endMs);
      row.phases.forEach((p, i) => {
        expect(p.startMs).toBeLessThanOrEqual(p.endMs);
        expect(p.startMs).toBeGreaterThanOrEqual(row.startMs);
        expect(p.endMs).toBeLessThanOrEqual(row.endMs);
        if (i > 0) expect(p.startMs).toBe(row.phases[i - 1]!.endMs);
        expect(node.files).toContain(p.startEvidence.file);
      });
      for (const m of row.markers) {
        expect(Number.isFinite(m.atMs)).toBe(true);
        expect(node.files).toContain(m.evidence.file);
        expect(m.evidence.line).toBeGreaterThan(0);
        if (m.timing === 'estimated') expect(en(m.note)).toMatch(/^No time on this line/);
      }
    }
  });
});
