export { useAppStore } from './store';
export type { AppState, FileRow, FileStatus, Phase } from './store';
export type { Lang } from '../ingest/index';
export { summariseProgress } from './progress';
export type { ProgressSummary } from './progress';
export { useViewStore } from './view';
export type { EvidenceTarget, ViewState } from './view';
