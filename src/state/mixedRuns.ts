// Files added to the job on screen that another run printed: the core's own grouping of the files into runs
// (job.mixedJobs — rendezvous ids, endpoints), read against which files the drop brought. The page then asks
// whether to add them to this job or to start a new one with them. Built where the job is (the job worker).
import type { JobModel, MixedJobs } from '../core/model';

/** Node and file names kept per run: a run of 4,096 nodes is told by its count past these. */
export const SHOWN_NAMES = 8;

export interface MixedRun {
  /** The run as torchrun's own flags name it (`rdzv_id=…, rdzv_endpoint=…`), as the core wrote it. */
  key: string;
  /** Whose files it holds: the job on screen's, the drop's, or some of each. */
  source: 'shown' | 'added' | 'both';
  /** The first SHOWN_NAMES of them, in the job's order. */
  nodes: string[];
  nodeCount: number;
  files: string[];
  fileCount: number;
  /** Its earliest and latest timed lines (job clock, ms since the epoch); null when its lines carry no time. */
  startMs: number | null;
  endMs: number | null;
}

export interface MixedQuestion {
  /** What told the runs apart, as the core says. */
  by: MixedJobs['by'];
  /** The job on screen's runs first, then the drop's. */
  runs: MixedRun[];
  /** How many of the job's files the drop brought. */
  addedFiles: number;
}

const ORDER: Record<MixedRun['source'], number> = { shown: 0, both: 1, added: 2 };

const msOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/**
 * The question to ask when `added` (the files a drop brought, by the names the job knows them by) put a run
 * into the job that none of its other files belong to; null when they joined a run it had (or when the job
 * holds one run: the core then finds no mix at all).
 */
export function mixedQuestion(
  job: Pick<JobModel, 'mixedJobs' | 'nodes' | 'files'>,
  added: ReadonlySet<string>,
): MixedQuestion | null {
  const mixed = job.mixedJobs;
  if (!mixed || added.size === 0) return null;
  const byId = new Map(job.nodes.map((n) => [n.id, n]));
  const runs = mixed.groups.map((g): MixedRun => {
    const brought = g.files.filter((f) => added.has(f)).length;
    let startMs: number | null = null;
    let endMs: number | null = null;
    for (const id of g.nodes) {
      const n = byId.get(id);
      if (!n) continue;
      const first = msOf(n.firstLine?.time) ?? msOf(n.launchTime);
      const last = msOf(n.lastLine?.time) ?? first;
      if (first !== null) startMs = startMs === null ? first : Math.min(startMs, first);
      if (last !== null) endMs = endMs === null ? last : Math.max(endMs, last);
    }
    return {
      key: g.key,
      source: brought === 0 ? 'shown' : brought === g.files.length ? 'added' : 'both',
      nodes: g.nodes.slice(0, SHOWN_NAMES),
      nodeCount: g.nodes.length,
      files: g.files.slice(0, SHOWN_NAMES),
      fileCount: g.files.length,
      startMs,
      endMs,
    };
  });
  // Only a run of the drop's own, beside one the job already had, is a question: files that joined one of the
  // job's runs are more logs of it.
  if (!runs.some((r) => r.source === 'added') || !runs.some((r) => r.source !== 'added')) return null;
  runs.sort((a, b) => ORDER[a.source] - ORDER[b.source]);
  return { by: mixed.by, runs, addedFiles: job.files.filter((f) => added.has(f.file)).length };
}
