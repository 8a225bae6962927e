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
  // A log that ends on errors after its progress (a connection reset under NCCL's proxy, then nothing) shows
  // trouble and no outcome: never healthy.
  if (progressed && nodes.some(endsInTrouble)) return 'incomplete';
  if (world.formed && progressed) return 'healthy';
  // A training step is proof of its own: init_process_group returns only when every rank of the world has
  // joined, and a step's collectives ran across all of them — so the logs that are missing do not demote it.
  if (nodes.some((n) => n.events.some((e) => e.kind === 'first-step'))) return 'healthy';
  if (missingCount > 0) return 'incomplete';
  return progressed ? 'healthy' : 'incomplete';
}

/**
 * The node's last progress (a step, the workers started) is followed by errors, and not by its exit. The exit
 * barrier's errors are the end of a run (a peer's store gone as it finished), not trouble in it.
 */
function endsInTrouble(n: JobNode): boolean {
  let lastProgress = -1;
  n.events.forEach((e, i) => {
    if (PROGRESS_KINDS.has(e.kind)) lastProgress = i;
  });
  if (lastProgress < 0 || n.events[lastProgress]!.kind === 'exit') return false;
  const after = n.events.slice(lastProgress + 1);
  const trouble = (e: JobNode['events'][number]) =>
    (e.kind === 'error' || e.kind === 'failure') && e.stage !== 'exit-barrier';
  return after.some(trouble) && !after.some((e) => e.kind === 'exit');
}
