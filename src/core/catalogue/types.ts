import type { EventKind, FailureStage, IdentityHint } from '../model';

// What a catalogue entry is. An entry is the one home of a message's meaning: how to find it (anchors,
// pattern), what real lines look like (samples), and what it says (effects). Code elsewhere reads effects;
// it never compares ids.

export type EntryKind = EventKind | 'field' | 'fact' | 'frame' | 'traceback';

/** Primary: a root signal on the node that printed it. Consequence: a reaction to another node's failure. */
export type Role = 'primary' | 'consequence';

export type DurationUnit = 'ms' | 's' | 'unit-field' | 'timedelta';

/** A duration the message prints, in one of its fields. */
export interface StatedDuration {
  field: string;
  unit: DurationUnit;
}

/** Facts about the job a message prints, each read from one of its fields. */
export interface FactFields {
  backend?: string;
  endpoint?: string;
  runId?: string;
  minNodes?: string;
  maxNodes?: string;
  /** A node count like `2` or `2:4` (torchrun's --nnodes). */
  nnodes?: string;
  nprocPerNode?: string;
  /** `{'timeout': '30', 'rank': 0}` as torchrun prints rdzv_configs. */
  rdzvConfigsDict?: string;
  /** A command line whose torchrun flags state the facts. */
  launchArgs?: string;
  /** The size of the world that formed (nodes). */
  worldNodes?: string;
  /** An etcd rendezvous state (JSON) whose participants are the world that formed. */
  worldState?: string;
  /** `[8, 8]`: global world sizes of the workers. */
  globalWorldSizes?: string;
  torchVersion?: string;
  /** The directory a traceback shows torch installed in (`…/site-packages`). */
  torchPath?: string;
  /** `True`/`False`: the agent's store is shared with the workers. */
  agentStore?: string;
  /** A timeout set in the environment (`export HCCL_CONNECT_TIMEOUT=600`): the variable's name and its seconds. */
  envTimeoutName?: string;
  envTimeoutSeconds?: string;
}

/** Identity a message carries in a field. */
export interface IdentityField {
  kind: IdentityHint['kind'];
  field: string;
  /** c10d node ids are `<host>_<pid>_<n>`; `rdzv-rank` reads `'rank': N` from an rdzv_configs dict. */
  read?: 'c10d-node-id' | 'rdzv-rank' | 'node-rank-flag' | 'trim';
  /** The field names the stream's node only when the stream names no other value for it, and then at medium
   * confidence: srun reports every failed task's host, so a batch log naming several is nobody's. */
  onlyIfSole?: boolean;
}

/** What a message says: read by the job builder, the failure analysis and the findings. */
export interface Effects {
  /** The failure stage it belongs to; traceback frames or extracted keys may refine it (see `refine`). */
  stage?: FailureStage;
  role?: Role;
  /** How the stage is refined: the traceback frames before it, the store keys it names, the collective's SeqNum, or the inner exception. */
  refine?: 'frames' | 'keys' | 'seq' | 'inner';
  /** With `refine: 'frames'`: the stages the frames may turn it into (default: any). */
  refineTo?: FailureStage[];
  /** A consequence becomes a primary signal when this field reaches the value (exit barrier near 300 s). */
  primaryIfAtLeast?: { field: string; value: number };
  /** Raised at once by an error (a peer closed, an address not found, a wrong call), not when a wait ran out:
   * the stage's limit did not fire. */
  immediate?: boolean;
  /** The field holding one of the node's workers as `global (local_rank: k)`: where its block of ranks starts. */
  workerRankField?: string;
  /** The agent reporting that a worker process exited: it polls its workers every monitor_interval (0.1 s in
   * 2.x), so a worker's untimed exception above it happened just before this line's time. */
  reportsWorkerExit?: boolean;
  /** The message says a peer's process went away (it exited, closed its connection): this rank failed because
   * of the peer, so its own failure time does not bound when the peer's crash happened. */
  peerGone?: boolean;
  /** The timeout that fired, as the message prints it. */
  limit?: StatedDuration;
  /** A wait that began at the node's launch and lasted this long (places an untimed failure, or the launch). */
  waitedSinceLaunch?: StatedDuration;
  /** A sign the node was torn down (its workers signalled or failed, its rendezvous shut down badly): the
   * node failed, even when no primary message is in its log. */
  tornDown?: boolean;
  /** A restart of the worker group that uses up one of --max-restarts: a new attempt (restart_count + 1).
   * A membership change restarts the group too, but starts a new rendezvous round, not an attempt. */
  newAttempt?: boolean;
  /** The stage when the line comes from a worker process (a `[k]:` local-rank or `[rankN]:` label): a TCPStore
   * client of init_process_group, not of the agent. */
  workerLineStage?: FailureStage;
  /** A consequence that is a primary failure when the frames put it in one of these phases (a peer that
   * went away while the process group was being set up). */
  primaryInPhase?: FailureStage[];
  /** With `refine: 'frames'`: the stage when the traceback runs through user code only (a worker's own error). */
  userCodeStage?: FailureStage;
  /** The client could not resolve the store host's name (field `host`): no address was tried, so nothing
   * says whether that host was up — a wrong name, DNS, or (Kubernetes) a pod that did not exist yet. */
  nameUnresolved?: boolean;
  /** The rank's process reached this startup stage here (it calls init_process_group now): a node whose ranks
   * get there only after the others gave up waiting in it was the late one. */
  entersStage?: FailureStage;
  /** One connect attempt that failed and is retried while the deadline lasts: a node whose log ends on these
   * (no store reached after them) was still trying to reach the store when its log was taken. */
  connectRetry?: boolean;
  /** A fault of the node's own hardware or driver (a CUDA call failed under NCCL): that node is the cause,
   * whoever else then waited. */
  localFault?: boolean;
  /** The field naming a node the scheduler saw go down (Slurm's node failure): it is the cause, whoever waited. */
  nodeDown?: string;
  /** The node never started torchrun (the command was not found, its arguments were refused): it could not
   * join any rendezvous, so the others' waits are for it. */
  neverLaunched?: boolean;
  /** The node's agent failed before it could join (its store client could not even be made): as with
   * `neverLaunched`, the others' waits are for it. */
  cannotJoin?: boolean;
  /** The node is waiting in this stage: a traceback cut short after it (its exception past the paste's end)
   * most likely ended that wait. */
  waitingIn?: FailureStage;
  /** The world grew: a node joined after it formed, and the agents meet again in a new round. */
  grewWorld?: boolean;
  /** The field listing the participants of the round this node found closed: others formed it without the node
   * (a bare closed state says nothing of who closed it). */
  closedRound?: string;
  /** The event's own stage is where the node was waiting (a stack dump: the phase its frames are in). */
  waitsInItsStage?: boolean;
  /** The process was killed from outside (a SIGKILL, a watchdog) while starting: its stage is the one its
   * stream last entered (`entersStage`, `waitingIn`), when one did. */
  killedInStage?: boolean;
  /** The message says whose rank it waited for (ncclUniqueId comes from global rank 0). */
  waitsForGlobalRank?: number;
  /** The launcher's report of how the run ended, printed once the agent is done (ChildFailedError): an outcome,
   * never noise after the finish. */
  finalReport?: boolean;
  /** The field listing the global ranks that never connected (HCCL's root: `Failed to connect agent[8,9,]`). */
  absentRanksField?: string;
  /** What the message shows of the store host: this node hosts it; this node reached it; lost it after reaching it. */
  store?: 'hosts' | 'reached' | 'lost';
  identity?: IdentityField[];
  facts?: FactFields;
  /** The communicator library that printed it (its timeouts and advice differ). */
  comm?: 'nccl' | 'gloo' | 'hccl';
  /** The rendezvous backend the message implies when nothing states it. */
  backend?: 'c10d' | 'etcd' | 'static';
  /** The field holding the rendezvous id the agent used. */
  runIdField?: string;
  /** The field holding a `YYYY-MM-DD_HH:MM:SS` local time (or what `date` prints): a clock for a line that has none. */
  timeField?: string;
  /** A time the job script printed (`date`): the last one above a node's untimed launch places that launch. */
  scriptClock?: boolean;
  /** Work a job script does before torchrun (downloads, unpacking, installs): shown on the pre-launch phase. */
  prelaunch?: boolean;
  /** The agent passed its exit barrier (every agent finished): the run ended cleanly. */
  exitBarrierPassed?: boolean;
  /** A wait on the store. Collectives do not wait on the store, except to create their NCCL communicator on
   * first use (the ncclUniqueId exchange): so a store wait the frames place in a collective, before any
   * training step, is communicator setup (comm-init). */
  storeWait?: boolean;
  /** An info event worth showing on the timeline. */
  shown?: boolean;
  /** Lines any program may print: they describe a run, they do not show torchrun. */
  notTorchEvidence?: boolean;
  /** Evidence of a distributed job that other programs print too (NCCL's own lines): it counts unless the
   * same stream shows another program (`foreign`). */
  weakEvidence?: boolean;
  /** The stream is another program's (nccl-tests, xla_dist…): weak evidence in it does not count. */
  foreign?: boolean;
}

export interface CatalogueEntry {
  id: string;
  kind: EntryKind;
  /** Literal strings; a line is a candidate for this entry only if it contains one of them. */
  anchors: string[];
  /** Regex source (JS flavour, named groups) searched in the message once its prefixes are peeled; not anchored at the line start. */
  pattern: string;
  /** Whole lines as real logs print them (prefixes included); the test checks each is claimed by this entry first. */
  samples: string[];
  versions: string;
  source: string;
  effects?: Effects;
  /** For `field` entries: the block they belong to, and how far below its start they may appear. */
  blockOf?: string;
  maxDistance?: number;
  /** A heuristic for user-script output, not a PyTorch message: weaker evidence. */
  heuristic?: boolean;
  /** Only the first match per stream matters (e.g. first step); later anchors may be skipped. */
  once?: boolean;
  /** Only lines before torchrun's first line matter (work done before the launch). */
  untilLaunch?: boolean;
}
