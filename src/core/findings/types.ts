import type { AdviceId, AdviceSpec, CommandPlace, WhatIf } from '../advice';
import type { FindingCode, P } from '../diagnosisText';
import type { EvidenceLine, NodeLagged } from '../model';
import type { LimitInForce } from '../thresholds';

export type Severity = 'error' | 'warning' | 'info';

export interface Advice {
  id: AdviceId;
  title: string;
  reason: string;
  command: string | null;
  /** Where the command goes (a shell before torchrun, the training script, the torchrun command line). */
  goesIn: CommandPlace | null;
  caveat: string | null;
  /** The values the words and the command were made from (a share link carries these, not the words). */
  values: Record<string, string | number>;
}

/**
 * The numbers that hold a list of names (nodes, stages, run ids) joined with ", " (the form the JSON and share
 * links carry); the words join them as the reader's language does (、 in Chinese).
 */
export const LIST_NUMBERS: ReadonlySet<string> = new Set([
  'nodes',
  'stages',
  'victims',
  'late',
  'cause',
  'joined',
  'missing',
  'waiters',
  'reporters',
  'ids',
]);

export interface Finding {
  code: FindingCode;
  severity: Severity;
  title: string;
  detail: string;
  numbers: P;
  /**
   * LATE_NODE: the latest late nodes (at most 8), latest first, each with its lag — the list its words name, as
   * data (`numbers.worst` is the same list as English text, kept for readers of the JSON made before it).
   */
  late?: NodeLagged[];
  nodes: string[];
  evidence: EvidenceLine[];
  advice: Advice[];
}

export interface Diagnosis {
  findings: Finding[];
  thresholds: LimitInForce[];
  /** The rendezvous limit we recommend for this job, and what it would have done. */
  recommendedTimeout: number;
  whatIf: WhatIf | null;
}

/** A finding before it is worded: code, severity, the numbers its words are made from, evidence, advice. */
export interface Draft {
  code: FindingCode;
  severity: Severity;
  numbers: P;
  late?: NodeLagged[];
  nodes: string[];
  evidence: EvidenceLine[];
  advice: AdviceSpec[];
}
