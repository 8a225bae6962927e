// What the result views draw, as plain data: built where the job lives (the job worker, or the page for a
// share link) and handed to the views, so the page never holds the job's events nor computes over them.
import type { Sentence } from '../../i18n/sentence';
import type { Diagnosis } from '../../core/findings';
import type { FileProblem, JobModel, JobNode } from '../../core/model';
import type { TimelineModel } from '../../core/timeline';
import type { SkewModel } from './skew';

/** A node as the views draw it: everything but its events (the bulk of a job; they stay where the job is). */
export type NodeView = Omit<JobNode, 'events'>;

/** The job without its nodes' events. A whole JobModel is one too (a restored share link is passed as it is). */
export type JobView = Omit<JobModel, 'nodes'> & { nodes: NodeView[] };

/** A node named in a summary: its id and how far it launched behind the first (null: no launch time). */
export interface NodeLag {
  id: string;
  lag: number | null;
}

/** The late nodes of a job: how many, and the worst of them by lag (latest first, names in numeric order). */
export interface LateSummary {
  count: number;
  worst: NodeLag[];
  /** Whether they are the culprits of the job's failure, or only nodes that launched late in a job that ran. */
  culprits: boolean;
}

export type ProblemCode = FileProblem['code'];

/** Files set aside for the same reason in the same folder, folded into one entry. */
export interface ProblemGroup {
  code: ProblemCode;
  /** The folder they sit in, with its trailing slash ('' for the top of the drop). */
  folder: string;
  files: string[];
  /** The core's sentence for each file, in the order of `files`. */
  messages: Sentence[];
  /** The sentence when every file of the group has the same one. */
  common: Sentence | null;
}

/** Which of a file's timestamps lack a year or a zone: only those can be corrected by hand. */
export interface TimeGaps {
  yearless: boolean;
  zoneless: boolean;
}

/** How many of the dropped files the view covers, while the rest is still being read. */
export interface Coverage {
  filesRead: number;
  filesTotal: number;
}

export interface ResultView {
  /** Which analysis this is (the job worker's count): later views replace earlier ones. */
  gen: number;
  job: JobView;
  diagnosis: Diagnosis;
  /** How many nodes the job has (`job.nodes` fills in after the verdict on a large job). */
  nodeCount: number;
  /** Null until the timeline arrives (it is built after the verdict, on a large job a moment later). */
  timeline: TimelineModel | null;
  /** The launch-skew chart, made with the timeline (its lines are the timeline's). */
  skew: SkewModel | null;
  /** The key of the limit line that fired, on the timeline's lines. */
  fired: string | null;
  late: LateSummary;
  problems: ProblemGroup[];
  gaps: Record<string, TimeGaps>;
  /** Set when the job was built from the files read so far, not from all of them. */
  partial: Coverage | null;
  /** False while the nodes and the timeline rows are still arriving. */
  complete: boolean;
}
