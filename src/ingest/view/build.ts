import type { Diagnosis } from '../../core/findings';
import type { FileExtract, JobModel } from '../../core/model';
import { buildTimeline } from '../../core/timeline';
import { limitsInForce } from '../../core/thresholds';
import { firedLine } from './fired';
import { timeGaps } from './gaps';
import { lateNodesOf } from './late';
import { groupProblems } from './problems';
import { skewModel } from './skew';
import type { Coverage, JobView, NodeView, ResultView } from './types';

/** A node without its events. */
export function nodeView(node: JobModel['nodes'][number]): NodeView {
  // Spread and delete, not destructuring: the lint rule on unused names would flag `events`.
  const out: Partial<JobModel['nodes'][number]> = { ...node };
  delete out.events;
  return out as NodeView;
}

/** The verdict, findings, late nodes and problems: what a large job shows first, before its nodes and rows. */
export function viewHead(
  gen: number,
  job: JobModel,
  diagnosis: Diagnosis,
  extracts: readonly FileExtract[] | null,
  partial: Coverage | null,
): ResultView {
  const late = lateNodesOf(job, diagnosis);
  return {
    gen,
    job: { ...job, nodes: [] },
    nodeCount: job.nodes.length,
    diagnosis,
    timeline: null,
    skew: null,
    fired: null,
    late: { count: late.count, worst: late.worst, culprits: late.culprits },
    problems: groupProblems(job.files),
    gaps: extracts ? timeGaps(extracts) : {},
    partial,
    complete: false,
  };
}

/** The timeline and the skew chart's model (rows included), and which of the timeline's lines fired. */
export function viewTimeline(job: JobModel, diagnosis: Diagnosis): Pick<ResultView, 'timeline' | 'skew' | 'fired'> {
  const timeline = buildTimeline(job, diagnosis.thresholds.length ? diagnosis.thresholds : limitsInForce(job));
  const late = lateNodesOf(job, diagnosis).all.map((n) => n.id);
  return {
    timeline,
    skew: skewModel(job, timeline.thresholds, late),
    fired: firedLine(job, timeline.thresholds),
  };
}

/** The whole view at once (a share link's job, small by construction): head, nodes and timeline. */
export function resultView(
  gen: number,
  job: JobModel,
  diagnosis: Diagnosis,
  extracts: readonly FileExtract[] | null = null,
  partial: Coverage | null = null,
): ResultView {
  const head = viewHead(gen, job, diagnosis, extracts, partial);
  return { ...head, ...viewTimeline(job, diagnosis), job: slimJob(job), complete: true };
}

export function slimJob(job: JobModel): JobView {
  return { ...job, nodes: job.nodes.map(nodeView) };
}
