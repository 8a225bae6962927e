import type { Omission } from '../../share/index';

export const OMISSION_WORDS: Record<Omission, string> = {
  ranks: 'the per-rank detail',
  evidence: 'the evidence lines',
  events: 'the per-node events other than the launch and the failure',
  timeline: "the per-node events and each log's first and last time",
  notes: 'the analysis notes',
  advice: 'advice it could not rebuild',
};
