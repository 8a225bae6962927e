export { useAppStore } from './store';
export type { AppState, FileRow, FileStatus, Phase } from './store';
export { summariseProgress } from './progress';
export type { ProgressSummary } from './progress';
