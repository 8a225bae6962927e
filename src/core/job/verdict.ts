import { ENTRY, isTorchEvidence } from '../catalogue';
import type { Failure, JobNode, LogEvent, Verdict } from '../model';
import type { World } from './world';

// The verdict. Failed when a failure shows; healthy when the world formed and the nodes went on (even with
// some logs missing: that is a finding, not a demotion); incomplete when the logs stop before either; and
// not-torchrun only when nothing in them shows PyTorch's distributed code at all.

const PROGRESS_KINDS = new Set(['rendezvous-complete', 'workers-started', 'pg-ready', 'first-step', 'exit']);

export function verdictOf(
  events: LogEvent[],
  torchEvidence: boolean,
  failure: Failure | null,
  nodes: JobNode[],
  world: World,
  missingCount: number,
  minNodes: number | null,
  /** A node restarted and its log ends before the new round shows an outcome. */
  endsInRestart: boolean,
): Verdict {
  // The streams say whether PyTorch's distributed code printed anything (weak evidence such as NCCL's own
  // lines already dropped where the stream shows another program).
  if (!torchEvidence) return 'not-torchrun';
  const pytorchProper = events.some((e) => {
    const entry = ENTRY.get(e.id);
    return entry ? isTorchEvidence(entry) && !entry.heuristic : false;
  });
  if (failure && (pytorchProper || failure.stage !== 'other')) return 'failed';
  if (endsInRestart) return 'incomplete';
  const progressed = nodes.some((n) => n.events.some((e) => PROGRESS_KINDS.has(e.kind)));
  // A formed world smaller than the job's minimum did not let it start.
  if (world.formed && minNodes !== null && world.formed.nodes < minNodes) return 'incomplete';
  if (world.formed && progressed) return 'healthy';
  // A training step is proof of its own: init_process_group returns only when every rank of the world has
  // joined, and a step's collectives ran across all of them — so the logs that are missing do not demote it.
  if (nodes.some((n) => n.events.some((e) => e.kind === 'first-step'))) return 'healthy';
  if (missingCount > 0) return 'incomplete';
  return progressed ? 'healthy' : 'incomplete';
}
