// The result views' data, built where the job lives. Pure TypeScript on the core: runs in the job worker and,
// for a share link's small job, in the page.
export type {
  Coverage,
  JobView,
  LateSummary,
  NodeLag,
  NodeView,
  ProblemCode,
  ProblemGroup,
  ResultView,
  TimeGaps,
} from './types';
export type { SkewBin, SkewModel, SkewPoint } from './skew';
export { nodeView, resultView, slimJob, viewHead, viewTimeline } from './build';
export { byLag, byName, lateIds, lateNodesOf, naturalKey, WORST_SHOWN } from './late';
export { folderOf, groupProblems } from './problems';
export { firedLine } from './fired';
export { timeGaps } from './gaps';
export { skewModel } from './skew';
