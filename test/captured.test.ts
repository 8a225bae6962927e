import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildJob, diagnose } from '../src/core/index';
import type { FailureStage, JobModel, Verdict } from '../src/core/model';
import { collectInputs } from '../src/cli/files';
import { extractAll } from '../src/cli/pool';

// Real torchrun runs captured with scripts/capture for issue 9's matrix (store host late, a node that never
// starts, retries that succeed, elastic jobs, restarts, crashes before init_process_group, mixed runs, --log-dir
// trees), each with what a careful reader concludes from its logs and its measured truth (expect.json, written
// by hand from the logs and truth.json; see test/fixtures/captured/README.md).

const CAPTURED = path.join(__dirname, 'fixtures', 'captured');

interface Expect {
  verdict: Verdict;
  stage?: FailureStage;
  acceptableStages?: FailureStage[];
  culprit: string[];
  missing: string[];
  limitFired: { name: string; seconds: number | null; source: string } | null;
  skewSeconds: number | null;
  logFirstLineSkewSeconds?: number;
  attempts?: number;
  mixedJobs?: string[][];
  lateNodes?: string[];
  reportedBy?: string[];
  /** Finding codes the diagnosis must hold, and ones it must not. */
  findings?: string[];
  absentFindings?: string[];
  /** false: the skew was real but nothing in these logs can show it. */
  lateVisibleInLogs?: boolean;
  why: string;
}

/** The product's limit ids for the knobs expect.json names. */
const LIMIT_IDS: Record<string, string> = {
  read_timeout: 'read-timeout',
  join_timeout: 'join-timeout',
  timeout: 'rdzv-timeout',
  'store-sync': 'store-sync',
  'pg-init': 'pg-init',
};

/** c10d's rendezvous store is a TCPStore: a client that cannot reach it is the same failure as a static one. */
const CONNECT: FailureStage[] = ['store-connect', 'rendezvous-connection'];
const sameStage = (a: FailureStage | undefined, b: FailureStage) =>
  a === b || (a !== undefined && CONNECT.includes(a) && CONNECT.includes(b));

interface Truth {
  nodes: { hostname: string; log_file?: string; sim_node_index?: number }[];
}

/**
 * expect.json names nodes by the hostnames the capture gave them; the job model names them by what the logs
 * show (a hostname, a Kubeflow pod name from the file, a Slurm label). The truth's file and index say which is which.
 */
function hostOf(job: JobModel, truth: Truth): (id: string) => string {
  return (id) => {
    const n = job.nodes.find((x) => x.id === id)!;
    if (truth.nodes.some((t) => t.hostname === n.hostname)) return n.hostname!;
    const label = n.identity.find((h) => h.kind === 'label')?.value.split('#')[1];
    const byFile = truth.nodes.filter((t) => t.log_file && n.files.some((f) => path.basename(f) === t.log_file));
    const t = byFile.length === 1 ? byFile[0] : byFile.find((x) => String(x.sim_node_index) === label);
    return t?.hostname ?? id;
  };
}

async function analyse(dir: string): Promise<JobModel> {
  const inputs = await collectInputs([dir]);
  const extracts = await extractAll(inputs);
  return buildJob(extracts, { nowMs: Date.UTC(2026, 11, 1) });
}

const dirs = readdirSync(CAPTURED, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(CAPTURED, d.name, 'expect.json')))
  .map((d) => d.name)
  .sort();

describe('captured real runs: culprit, stage, limit, skew, attempts', () => {
  for (const name of dirs) {
    const want = JSON.parse(readFileSync(path.join(CAPTURED, name, 'expect.json'), 'utf8')) as Expect;
    it(name, async () => {
      const job = await analyse(path.join(CAPTURED, name));
      const truth = JSON.parse(readFileSync(path.join(CAPTURED, name, 'truth.json'), 'utf8')) as Truth;
      const host = hostOf(job, truth);
      const f = job.failure;
      expect(job.verdict, want.why).toBe(want.verdict);
      if (want.verdict === 'failed') {
        const stages = want.acceptableStages ?? [want.stage!];
        expect(
          stages.some((s) => sameStage(f?.stage, s)),
          `stage ${f?.stage}, want ${stages.join('|')}`,
        ).toBe(true);
        // The culprits present in the logs are named; a culprit whose log is missing is said to be the likely one
        // (or the one, when the store host's count of who joined leaves out exactly the missing nodes).
        const present = want.culprit.filter((c) => !want.missing.includes(c));
        expect(f!.lateNodes.map(host).sort(), 'culprits').toEqual(present.sort());
        if (want.culprit.some((c) => want.missing.includes(c)))
          expect(f!.reasoning.map((r) => r.code)).toEqual(
            expect.arrayContaining([expect.stringMatching(/missing-likely|host-absent|joined-count-missing/)]),
          );
        // A run whose text shows no limit running out (a crash, restarts that could never work) names none.
        if (want.limitFired === null) expect(f!.limit, 'no limit fired').toBeNull();
        // expect.json's reportedBy: every node whose own log shows the timeout or error (README), late ones too.
        if (want.reportedBy)
          expect(
            job.nodes
              .filter((n) => n.failureStage !== null)
              .map((n) => host(n.id))
              .sort(),
            'nodes whose logs show a failure',
          ).toEqual([...want.reportedBy].sort());
        if (want.limitFired) {
          const id = LIMIT_IDS[want.limitFired.name];
          expect(f!.limit?.id, 'limit that fired').toBe(id);
          if (want.limitFired.seconds !== null) expect(f!.limit?.seconds).toBeCloseTo(want.limitFired.seconds, 0);
          if (want.limitFired.source !== 'unknown') expect(f!.limit?.from, 'limit source').toBe(want.limitFired.source);
        }
      }
      // Runs that did not fail still say who started late (a survived skew), by launch times — where the logs
      // time the launches; where they cannot show it (1.13 plain logs), nobody is made late.
      const timedAll = job.nodes.every((n) => n.lagSeconds !== null);
      if (want.verdict !== 'failed' && want.lateNodes && (timedAll || want.lateVisibleInLogs === false))
        expect(
          job.nodes
            .filter((n) => (n.lagSeconds ?? 0) >= 10)
            .map((n) => host(n.id))
            .sort(),
          'late nodes of a run that did not fail',
        ).toEqual(want.lateVisibleInLogs === false ? [] : [...want.lateNodes].sort());
      expect(job.missingCount, 'missing nodes').toBe(want.missing.length);
      // Skew within 2 s of the spread of the logs' own first lines, when the logs time every node's launch.
      if (job.skewSeconds !== null && want.logFirstLineSkewSeconds !== undefined)
        expect(Math.abs(job.skewSeconds - want.logFirstLineSkewSeconds), `skew ${job.skewSeconds}`).toBeLessThanOrEqual(
          2,
        );
      if (want.skewSeconds === null) expect(job.skewSeconds).toBeNull();
      if (want.attempts !== undefined) {
        const most = Math.max(1, ...job.nodes.map((n) => n.attempts.length));
        expect(most, 'attempts').toBe(want.attempts);
      }
      if (want.findings || want.absentFindings) {
        const codes = diagnose(job).findings.map((x) => x.code);
        for (const code of want.findings ?? []) expect(codes, 'findings').toContain(code);
        for (const code of want.absentFindings ?? []) expect(codes, 'findings').not.toContain(code);
      }
      if (want.mixedJobs) {
        const groups = job.mixedJobs?.groups.map((g) => g.files.map((x) => path.basename(x)).sort()) ?? [];
        expect(groups.sort(), 'mixed runs').toEqual(want.mixedJobs.map((g) => [...g].sort()).sort());
      } else expect(job.mixedJobs).toBeNull();
    });
  }
});
