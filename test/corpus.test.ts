import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildJob } from '../src/core/index';
import type { FailureStage, JobModel, Verdict } from '../src/core/model';
import { collectInputs } from '../src/cli/files';
import { extractAll } from '../src/cli/pool';

// Every real scenario of the corpus (copied from ../shared/corpus with its truth.json): the verdict, the
// failure stage, who reported it, who was late, and the launch skew against the measured launch times.
// truth.json's `failure_stage` words are the capture's own; the product's stage for each is fixed here.

const CORPUS = path.join(__dirname, 'fixtures', 'corpus');
// Made in this repo with scripts/capture (real torch 1.13 runs, same truth.json shape).
const CAPTURED = path.join(__dirname, 'fixtures', 'captured');

interface Expect {
  verdict: Verdict;
  stage?: FailureStage;
  late?: string[];
  reportedBy?: string[];
  /** The logs carry timestamps on torchrun lines for these nodes: their launch must be placed. */
  timed?: string[];
}

const ALL = ['node0', 'node1', 'node2', 'node3'];
const EXPECTED: Record<string, Expect> = {
  'torch1.13-capture-k1': { verdict: 'healthy', timed: ALL },
  'torch1.13-capture-k2b': {
    verdict: 'failed',
    stage: 'rank-assignment',
    late: ['node2'],
    reportedBy: ['node0', 'node1'],
    timed: ['node0', 'node1', 'node2'],
  },
  'torch1.13-capture-p2': { verdict: 'healthy', timed: ['node0', 'node1', 'node2'] },
  'torch1.13-capture-s1': { verdict: 'healthy' },
  'torch1.13-s0_debian_py311_std_bug': { verdict: 'failed', stage: 'other', late: [], reportedBy: ALL },
  'torch1.13-s1_healthy_static': { verdict: 'healthy' },
  'torch1.13-s1b_healthy_c10d': { verdict: 'healthy' },
  'torch1.13-s2_static_timeout_node0_late': {
    verdict: 'failed',
    stage: 'store-connect',
    late: ['node0'],
    reportedBy: ['node1', 'node2', 'node3'],
    // Only the C++ error lines carry a time; launch is derived from them and the 30 s they waited.
    timed: ['node1', 'node2', 'node3'],
  },
  'torch1.13-s3_c10d_join_timeout': {
    verdict: 'failed',
    stage: 'rendezvous-timeout',
    late: ['node3'],
    reportedBy: ['node0'],
    // Derived from the C++ error line's time minus the 60 s connect timeout; alone, it gives no skew.
    timed: ['node3'],
  },
  'torch1.13-s5_c10d_moderate_skew_logdir_tee': { verdict: 'healthy' },
  'torch1.13-s6r_static_store_barrier_300s_rerun': {
    verdict: 'failed',
    stage: 'rank-assignment',
    late: ['node2'],
    reportedBy: ['node0', 'node1'],
    timed: ['node2'],
  },
  'torch2.6-s0_debian_nolibuv_static_crash': {
    verdict: 'failed',
    stage: 'other',
    late: [],
    reportedBy: ALL,
    timed: ALL,
  },
  'torch2.6-s12_c10d_healthy_torch_logs_distributed': { verdict: 'healthy', timed: ALL },
  'torch2.6-s1_static_healthy_info': { verdict: 'healthy', timed: ALL },
  'torch2.6-s2_static_timeout30_node3_late': {
    verdict: 'failed',
    stage: 'rendezvous-timeout',
    late: ['node3'],
    // node1 and node2 waited in rank assignment and lost the store ("failed to recv, got 0 bytes") when node0
    // gave up: they failed waiting for node3 too.
    reportedBy: ['node0', 'node1', 'node2'],
    timed: ALL,
  },
  'torch2.6-s4_c10d_join_timeout30_node3_late': {
    verdict: 'failed',
    stage: 'rendezvous-timeout',
    late: ['node3'],
    reportedBy: ['node0'],
    timed: ALL,
  },
  'torch2.6-s7_c10d_logdir_tee_filter': { verdict: 'healthy', timed: ALL },
  'torch2.6-s8_static_healthy_default_loglevel': { verdict: 'healthy', timed: ALL },
  'torch1.13-static-rank-assignment-300s': {
    verdict: 'failed',
    stage: 'rank-assignment',
    late: ['node2'],
    reportedBy: ['node0', 'node1'],
    timed: ['node0', 'node1', 'node2'],
  },
  'torch1.13-c10d-host-late': {
    verdict: 'failed',
    stage: 'rendezvous-connection',
    late: ['node0'],
    reportedBy: ['node1', 'node2'],
    // The host's log has no time at all; the others' launches come from their C++ error lines.
    timed: ['node1', 'node2'],
  },
  'torch2.6-s9_static_pg_init_timeout20': {
    verdict: 'failed',
    stage: 'pg-init',
    late: ['node2'],
    reportedBy: ['node0', 'node1', 'node3'],
    timed: ALL,
  },
};

interface Truth {
  outcome: string;
  nnodes: number;
  nodes: { hostname: string; log_file?: string; launch_epoch_s: number; sim_node_index?: number }[];
}

async function analyse(dir: string): Promise<JobModel> {
  return buildJob(await extractAll(await collectInputs([dir])));
}

/** The product's node for a truth node: the one holding its log file (or, in one Slurm file, its label). */
function nodeFor(job: JobModel, truth: Truth, host: string): string | undefined {
  const t = truth.nodes.find((n) => n.hostname === host)!;
  if (t.log_file) {
    const hit = job.nodes.find((n) => n.files.some((f) => path.basename(f) === t.log_file));
    if (hit) return hit.id;
  }
  return job.nodes.find((n) => n.id.endsWith(`:${t.sim_node_index}`))?.id;
}

const dirsOf = (root: string) =>
  readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(root, d.name));
// Captured folders with their own expect.json (issue 9's matrix) are checked against it, not here, unless listed.
const ownExpect = (d: string) => existsSync(path.join(d, 'expect.json')) && !(path.basename(d) in EXPECTED);
const scenarioDirs = [...dirsOf(CORPUS), ...dirsOf(CAPTURED).filter((d) => !ownExpect(d))].sort();
const scenarios = scenarioDirs.map((d) => path.basename(d));

describe('real corpus scenarios', () => {
  it('has an expectation for every scenario', () => {
    expect(scenarios.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const dir of scenarioDirs) {
    const name = path.basename(dir);
    it(name, async () => {
      const truth = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Truth;
      const want = EXPECTED[name]!;
      const job = await analyse(dir);
      expect(want.verdict === 'healthy').toBe(truth.outcome === 'success');
      expect(job.verdict).toBe(want.verdict);
      // One node per real node, named through its files.
      expect(job.nodes).toHaveLength(truth.nodes.length);
      const idOf = (h: string) => nodeFor(job, truth, h);
      for (const t of truth.nodes) expect(idOf(t.hostname), t.hostname).toBeDefined();
      if (want.stage) {
        expect(job.failure?.stage).toBe(want.stage);
        expect([...job.failure!.lateNodes].sort()).toEqual(want.late!.map(idOf).sort());
        expect([...job.failure!.reportedBy].sort()).toEqual(want.reportedBy!.map(idOf).sort());
        expect(job.failure!.evidence.length).toBeGreaterThan(0);
      } else {
        expect(job.failure).toBeNull();
      }
      // Launch times against the measured ones: every timed node placed, lags within 2 s.
      const timed = want.timed ?? [];
      const placed = job.nodes.filter((n) => n.launchTime !== null);
      expect(placed.map((n) => n.id).sort()).toEqual(timed.map(idOf).sort());
      if (timed.length >= 2) {
        const truthOf = (h: string) => truth.nodes.find((n) => n.hostname === h)!.launch_epoch_s;
        const t0 = Math.min(...timed.map(truthOf));
        for (const h of timed) {
          const node = job.nodes.find((n) => n.id === idOf(h))!;
          expect(Math.abs(node.lagSeconds! - (truthOf(h) - t0)), `lag of ${h}`).toBeLessThanOrEqual(2);
        }
        const skew = Math.max(...timed.map(truthOf)) - t0;
        // The job's skew only when every node is placed; else the skew among those placed, said as such.
        if (timed.length === job.nodes.length) expect(Math.abs(job.skewSeconds! - skew)).toBeLessThanOrEqual(2);
        else {
          expect(job.skewSeconds).toBeNull();
          expect(Math.abs(job.skewAmongPlaced!.seconds - skew)).toBeLessThanOrEqual(2);
        }
      } else {
        expect(job.skewSeconds).toBeNull();
      }
    });
  }
});
