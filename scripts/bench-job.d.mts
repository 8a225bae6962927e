// Types of bench-job.mjs, for the e2e specs that generate a job with it.
export interface GeneratedJob {
  dir: string;
  nodes: number;
  ranks: number;
  bytes: number;
  /** The late nodes by name, latest first. */
  lateNodes: string[];
  /** Their lags in seconds, in the same order. */
  lags: number[];
}

export function generateJob(
  dir: string,
  options?: { nodes?: number; ranks?: number; late?: number; seed?: number },
): GeneratedJob;
