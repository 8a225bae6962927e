import type { LogEvent, StreamExtract } from '../model';
import { newKeep, type Keep } from './keep';

// What the extractor keeps per stream (one file, or one labelled node inside a file) while it reads.

export interface Frame {
  fn: string;
  path: string;
}

export interface StreamState {
  x: StreamExtract;
  /** Frames of the traceback being read, outermost first (Python prints the most recent call last). */
  frames: Frame[];
  /** Line of the last `Traceback (most recent call last)` (or of the first frame of one without it). */
  tracebackLine: number;
  /** The traceback is still open: frames came, no exception line yet. */
  tracebackOpen: boolean;
  /** The frames are a stack dump's (faulthandler, `most recent call first`): where a thread was waiting when
   * the dump was taken, not the path of an exception — the process had not failed. */
  dump: boolean;
  /** Line of the last frame read (a dump's event stands there, after what its frames' lines produced). */
  frameLine: number;
  /** The stream's torch install directory was noted (from its first frame through torch.distributed). */
  torchHomeSeen: boolean;
  /** A Rich box frame's path, waiting for the `│ in fn │` line below it. */
  richPath: string | null;
  /** The last line a Rich box marked as running that called torch.distributed (evidence of a distributed job). */
  richCall: number;
  lastEventByID: Map<string, LogEvent>;
  /** The stream is keyed by a host prefix (pdsh, collector, torchx…), not a Slurm task label. */
  hostKey: boolean;
  /** Entries this stream no longer needs: once-only entries already matched, pre-launch ones after launch. */
  retired: Set<string>;
  /** Hosts named by prefixes that do not split streams (NCCL's `host:pid:tid`). */
  prefixHosts: Map<string, number>;
  /** Signs of more than one agent in this stream: run folders, node ids, group ranks, launch blocks. */
  agentKeys: Map<string, Set<string>>;
  /** Evidence other programs print too (NCCL's lines): counted at the end unless the stream is another program's. */
  weakEvidence: string[];
  /** A training step was seen: collectives after it are the job's, not its startup's. */
  stepped: boolean;
  /** The stream shows another program (nccl-tests, xla_dist): its weak evidence does not count. */
  foreign: boolean;
  /** Which of its events the stream keeps (keep.ts): `x.events` is what it holds. */
  keep: Keep;
}

export function newStream(file: string, key: string): StreamState {
  return {
    x: {
      file,
      stream: key,
      events: [],
      identity: [],
      firstLine: null,
      lastLine: null,
      lineCount: 0,
      formats: {},
      torchEvidence: [],
      agents: 1,
    },
    frames: [],
    tracebackLine: -1,
    tracebackOpen: false,
    dump: false,
    frameLine: -1,
    torchHomeSeen: false,
    richPath: null,
    richCall: -1,
    lastEventByID: new Map(),
    hostKey: false,
    retired: new Set(),
    prefixHosts: new Map(),
    agentKeys: new Map(),
    weakEvidence: [],
    stepped: false,
    foreign: false,
    keep: newKeep(),
  };
}

/**
 * Signs of agents kept per stream: kinds (one per rendezvous round: a log of a million rounds would hold a
 * million sets) and values of a kind. The count of agents is the largest set, so a cap only bounds it.
 */
const MAX_AGENT_KINDS = 256;
const MAX_AGENT_VALUES = 4096;
/** Hosts a prefix names are read only while there is one (identity.ts): a few say there are several. */
const MAX_PREFIX_HOSTS = 64;

/** Note one more sign of an agent (a run folder, a node id…) under its kind. */
export function noteAgent(s: StreamState, kind: string, value: string): void {
  let set = s.agentKeys.get(kind);
  if (!set) {
    if (s.agentKeys.size >= MAX_AGENT_KINDS) return;
    set = new Set<string>();
    s.agentKeys.set(kind, set);
  }
  if (set.size < MAX_AGENT_VALUES) set.add(value);
}

/** Count a line whose prefix names a host without splitting the stream (NCCL's `host:pid:tid`). */
export function notePrefixHost(s: StreamState, host: string): void {
  const n = s.prefixHosts.get(host);
  if (n !== undefined) s.prefixHosts.set(host, n + 1);
  else if (s.prefixHosts.size < MAX_PREFIX_HOSTS) s.prefixHosts.set(host, 1);
}
