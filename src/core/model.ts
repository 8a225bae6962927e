// The job model: what every view (CLI, dashboard, share link) reads. Plain data only, so it crosses
// worker boundaries with structured clone and serialises to JSON unchanged.
import type { Sentence } from '../i18n/sentence';

export const SCHEMA_VERSION = 2;

/** How much of an instant a log line really told us. */
export type TimeQuality =
  | 'full' // date, time and zone (RFC 3339 with Z/offset, epoch seconds)
  | 'no-zone' // date and time, local to the node that printed it, zone unknown
  | 'no-year' // month, day and time without a year (glog, C++ 2.4+), local
  | 'none';

/** A clock reading found on a line. One line may carry two (a collector's and PyTorch's). */
export interface Clock {
  /** The recogniser that read it, e.g. `k8s`, `glog`, `bracket`, `cpp-new`, `cpp-glog-year`. */
  source: string;
  /** The original text of the timestamp, unchanged. */
  text: string;
  quality: Exclude<TimeQuality, 'none'>;
  /** Calendar fields as printed (year null when the format has none). */
  year: number | null;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  /** Offset from UTC in minutes when the text states it (Z = 0), else null. */
  offsetMinutes: number | null;
  /** Resolution of the reading in milliseconds (1000 for whole seconds). */
  resolutionMs: number;
}

export type FailureStage =
  | 'store-connect'
  | 'rendezvous-connection'
  | 'rendezvous-timeout'
  | 'rendezvous-closed'
  | 'rank-assignment'
  | 'pg-init'
  | 'comm-init'
  | 'collective-timeout'
  | 'exit-barrier'
  | 'worker-error'
  | 'other';

export type EventKind =
  | 'launch'
  | 'rendezvous-begin'
  | 'rendezvous-complete'
  | 'workers-started'
  | 'pg-ready'
  | 'first-step'
  | 'failure'
  | 'error'
  | 'restart'
  | 'exit'
  | 'info';

/** One recognised line (or block) in one file. */
export interface LogEvent {
  /** Catalogue entry id, e.g. `rdzv-complete`. */
  id: string;
  kind: EventKind;
  file: string;
  /** 1-based line number in the file. */
  line: number;
  /** The line as printed, cut to a sane length. */
  text: string;
  /** Every clock found on the line, outermost (collector) first. */
  clocks: Clock[];
  /** Values the catalogue entry extracts (and its block lines add). */
  fields: Record<string, string>;
  /** For block entries: the line each block field came from. */
  blockLines?: Record<string, { line: number; text: string }>;
  /** For failures: the stage it belongs to and whether it is a root signal or a consequence. */
  stage?: FailureStage;
  role?: 'primary' | 'consequence';
  /** Function names of the traceback frames seen just before this line (classify `Socket Timeout`). */
  frames?: string[];
  /** `[rankN]:` prefixes and `[default0]:` tee labels seen on the line. */
  ranks?: number[];
  localRank?: number;
  /** Low when the event is inferred from a cut log (a traceback whose exception line is missing). */
  confidence?: 'low';
}

export interface IdentityHint {
  kind: 'hostname' | 'node-rank' | 'group-rank' | 'name' | 'label' | 'logdir' | 'store-host';
  value: string;
  /** Where it came from, as a sentence the views word (src/i18n/en/core.ts). */
  sentence: Sentence;
  /** The sentence in English (the JSON's field), e.g. `file name trainjob-worker-1.log` or `line 12: host : node0`. */
  evidence: string;
  confidence: 'high' | 'medium' | 'low';
}

/** What one file (or one labelled stream inside it) yields; produced in a worker. */
export interface StreamExtract {
  file: string;
  /** Slurm / pdsh label inside the file, '' for the whole file. */
  stream: string;
  events: LogEvent[];
  identity: IdentityHint[];
  /** First line of the stream with its clocks (for pre-launch work and file spans). */
  firstLine: { line: number; text: string; clocks: Clock[] } | null;
  lastLine: { line: number; text: string; clocks: Clock[] } | null;
  lineCount: number;
  /** Prefix formats seen on recognised lines, with counts (version inference). */
  formats: Record<string, number>;
  /** Why this stream shows PyTorch's distributed code ran (empty: it does not), e.g. `line 12: a [c10d] tag`. */
  torchEvidence: string[];
  /** Agents this stream holds (more than one: several torchrun agents logged into one stream unlabelled). */
  agents: number;
}

export interface FileProblem {
  code: 'binary' | 'empty' | 'not-a-log' | 'unreadable' | 'archive-error' | 'bomb';
  /** Why, as a sentence every view words in its reader's language (src/i18n/en/core.ts). */
  sentence: Sentence;
  /** The sentence in English: what the JSON has always carried, and all a digest made before sentences has. */
  message: string;
}

/** What the scanner did to read a file's text honestly: its encoding and what it removed or replaced. */
export interface FileDecoding {
  /** The encoding the bytes were read in (UTF-16 with a byte-order mark is transcoded while streaming). */
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  bom: boolean;
  /** Bytes that were not valid UTF-8 (or unpaired UTF-16 surrogates) and became U+FFFD, in the lines read. */
  invalidBytes: number;
  /** NUL bytes skipped: the leading run, and those in the lines read (padding left by copytruncate or a crash). */
  nulBytes: number;
  /** Terminal escape sequences (colours, titles) removed from the lines read. */
  ansiSequences: number;
  /** Lines longer than the limit, cut. */
  cutLines: number;
}

export interface FileExtract {
  file: string;
  bytes: number;
  lines: number;
  /** Lines cut because they exceeded the line limit. */
  longLines: number;
  /** Byte sequences that were not valid UTF-8 (replaced with U+FFFD). */
  invalidUtf8: boolean;
  /** How the bytes were read and what was cleaned up on the way (absent where no scan ran). */
  decoding?: FileDecoding;
  /** Modification time from the file system, if known (ms since epoch) — a hint for the year. */
  mtimeMs: number | null;
  streams: StreamExtract[];
  problem: FileProblem | null;
}

export interface EvidenceLine {
  file: string;
  line: number;
  text: string;
}

export interface NodeEvent {
  kind: EventKind;
  id: string;
  /** ISO 8601 instant on the job clock, or null when the line has no usable time. */
  time: string | null;
  /** How `time` was obtained: from the line itself, from a neighbour, or derived from a stated duration. */
  timeFrom: 'line' | 'derived' | null;
  file: string;
  line: number;
  text: string;
  stage?: FailureStage;
  /** `[rankN]:` prefixes (global ranks) and the `--tee` local rank, when the line carried them. */
  ranks?: number[];
  localRank?: number;
  /** Values the catalogue entry extracted (and its block lines added): what the views read, never the text. */
  fields: Record<string, string>;
  /** Low when inferred from a cut log (a traceback whose exception line is missing). */
  confidence?: 'low';
  /** The agent attempt (restart_count) the event belongs to, when the node restarted. */
  attempt?: number;
}

/** Values a code's words are made from. Node lists travel as arrays, not joined strings. */
export type Values = Record<string, string | number | string[] | null>;

/** A node a finding names with how far it launched behind the first node: seconds, null without a launch time. */
export interface NodeLagged {
  node: string;
  lagSeconds: number | null;
}

/** A statement the analysis makes (an assumption, a limit of the data); the i18n layer words it. */
export interface Note {
  code: NoteCode;
  values: Values;
}

export type NoteCode =
  /** A note as words only: what share links of format 1 carried. */
  | 'text'
  | 'year-from-line'
  | 'year-from-child-failed'
  | 'year-from-mtime'
  | 'year-assumed'
  | 'zone-learned'
  | 'zone-assumed'
  | 'set-by-hand'
  | 'tz-corrected'
  | 'clock-corrected'
  | 'launch-derived'
  | 'launch-script-clock'
  | 'launch-clock-below'
  | 'decoding-cleaned'
  | 'launch-partial'
  | 'launch-unknown'
  | 'times-derived'
  | 'no-progress'
  | 'agents-in-stream'
  | 'limit-inferred'
  | 'limit-assumed'
  /** A number a line printed that no real job has (a world of 4294967296, a wait of 10²⁰ s): kept as text, not used. */
  | 'number-refused'
  /** A stream too long to keep whole (a log appended to across thousands of runs): what was left out, counted. */
  | 'events-not-kept';

/** One sentence of why the culprit is who it is; the i18n layer words it. */
export interface Reason {
  code: ReasonCode;
  values: Values;
}

export type ReasonCode =
  /** A reason as words only: what share links of format 1 carried. */
  | 'text'
  | 'host-up-others-late'
  | 'pg-waiters-late-arrival'
  | 'first-failure-in-time'
  | 'most-reported-stage'
  | 'host-absent'
  | 'host-silent'
  | 'duplicate-node-rank'
  | 'same-error-everywhere'
  | 'failed-before-joining'
  | 'host-late-by-launch'
  | 'host-late-consequence'
  | 'store-key-names-node'
  | 'late-by-launch'
  | 'missing-likely'
  | 'launch-times-outrank-text'
  | 'worker-crash'
  | 'restart-cause'
  | 'silent-straggler'
  | 'host-inferred'
  | 'host-gone'
  | 'mixed-run'
  | 'bad-address'
  | 'loopback-endpoint'
  | 'arrived-after-close'
  | 'failed-later'
  | 'waits-for-rank'
  | 'run-id-odd'
  | 'joined-count'
  | 'never-launched'
  | 'local-fault'
  | 'name-unresolved'
  | 'host-not-served'
  | 'still-connecting'
  | 'entered-after-give-up'
  | 'joined-count-missing'
  | 'closed-on-arrival'
  | 'node-down';

/** The limit that fired, and where its value comes from: printed in the logs, inferred from elapsed time, or assumed. */
export interface LimitFired {
  id: string;
  seconds: number;
  from: 'logs' | 'inferred' | 'default';
  evidence: EvidenceLine | null;
}

/** One run of a node's agent: the first start, then one per restart of its worker group. */
export interface Attempt {
  /** restart_count: 0 for the first run. */
  index: number;
  start: string | null;
  /** What ended it (the failure before a restart), or null for the last attempt. */
  failure: { stage: FailureStage | null; evidence: EvidenceLine } | null;
  /** "N/M attempts left" as printed when it restarted. */
  attemptsLeft: number | null;
  maxRestarts: number | null;
  /** The rendezvous of this attempt completed. */
  formedWorld: boolean;
  evidence: EvidenceLine;
}

/** Files that belong to different runs, by the key that told them apart. */
export interface MixedJobs {
  by: 'run-id' | 'endpoint' | 'time';
  groups: { key: string; nodes: string[]; files: string[] }[];
}

export interface JobNode {
  id: string;
  hostname: string | null;
  groupRank: number | null;
  /** Global ranks of this node's workers, from `Rendezvous complete` (`global_ranks=[…]`). */
  globalRanks: number[];
  files: string[];
  identity: IdentityHint[];
  launchTime: string | null;
  /** Where the launch time comes from: a line's own time, or derived from a stated wait. */
  launchFrom: 'line' | 'derived' | null;
  /** The first and last lines of the node's logs that carry a time (pre-launch work, where logs end). */
  firstLine: NodeEvent | null;
  lastLine: NodeEvent | null;
  /** Seconds behind the earliest launch in the job; null without times. */
  lagSeconds: number | null;
  isStoreHost: boolean;
  /** The rendezvous id this node's agent used (`run_id`, `--rdzv_id`), when the logs print it. */
  runId: string | null;
  events: NodeEvent[];
  /** The node's own failure stage, when it reported one. */
  failureStage: FailureStage | null;
  /** Agents found in this node's logs (more than one: several agents logged into one unlabelled stream). */
  agents: number;
  /** The node's agent runs, when it restarted (empty otherwise). */
  attempts: Attempt[];
}

export interface JobFacts {
  torchVersion: string | null;
  torchVersionEvidence: string | null;
  backend: string | null;
  nnodes: number | null;
  minNodes: number | null;
  maxNodes: number | null;
  nprocPerNode: number | null;
  rdzvEndpoint: string | null;
  rdzvId: string | null;
  rdzvConfigs: Record<string, string> | null;
  /** Keys torchrun filled in itself (LaunchConfig's `timeout` 900 prints unquoted), not typed by the user. */
  rdzvConfigsDefaulted: string[];
  /** The line that printed rdzv_configs (or the torchrun command). */
  rdzvConfigsEvidence: EvidenceLine | null;
  /** Workers in the world (ranks). */
  worldSize: number | null;
  /** Nodes in the world that formed (the rendezvous result or a round's size), when the logs show one. */
  worldNodes: number | null;
  /** How torch was installed, read from the paths its tracebacks print (advice says how to upgrade it). */
  torchInstall: TorchInstall | null;
  /** The agent shares its rendezvous TCPStore with the workers (`use_agent_store: True`, 2.5+), when printed. */
  agentStoreShared: boolean | null;
  /** Timeouts the job set in its environment (`HCCL_CONNECT_TIMEOUT`), by variable, with the line that set each. */
  envTimeouts: Record<string, { seconds: number; evidence: EvidenceLine }>;
}

/** pip (site-packages, a venv, a conda env), the distribution's package (/usr/lib/python3/dist-packages). */
export interface TorchInstall {
  kind: 'pip' | 'distro';
  /** The directory holding `torch/`, as a traceback printed it. */
  path: string;
}

export interface Failure {
  stage: FailureStage;
  reportedBy: string[];
  /** The culprits present in the logs: nodes that were late or whose workers crashed first. */
  lateNodes: string[];
  /** Culprits whose logs were not given, by the name the logs use for them (the store host of an endpoint). */
  absent: string[];
  timeoutSeconds: number | null;
  /** The limit that fired with where its value comes from; null when no limit was involved or none is known. */
  limit: LimitFired | null;
  /** Why these nodes were named. */
  reasoning: Reason[];
  evidence: EvidenceLine[];
  /** Low when the failure is read from a cut log (the exception itself is not in the text). */
  confidence: 'high' | 'low';
}

/**
 * A node's clock against the others, estimated from the instant every agent leaves the rendezvous (they leave
 * together, so a spread there is clock, not work).
 */
export interface ClockOffset {
  node: string;
  /** Seconds this node's clock reads ahead (+) or behind (−) the job's median. */
  offsetSeconds: number;
  /** ± bound from the timestamps' resolution and the spread agents show on one clock. */
  boundSeconds: number;
  /** A whole number of hours is a time-zone difference, not a clock error. */
  kind: 'time-zone' | 'clock';
  /** Whether the job's times were corrected by it (time zones always; clock offsets on request). */
  applied: boolean;
  evidence: EvidenceLine;
}

/**
 * Corrections the user makes where the logs are silent or wrong; every view recomputes from them.
 * Keys are file paths as in `FileExtract.file` (and node ids as the job model gave them).
 */
export interface Overrides {
  /** Put a file into the named node (merge files into one node, or split one off). */
  fileNode?: Record<string, string>;
  /** Show a node under another name. */
  nodeName?: Record<string, string>;
  /** The year of a file's year-less timestamps (glog, C++ 2.4+). */
  fileYear?: Record<string, number>;
  /** The UTC offset, in minutes, of a file's zone-less timestamps. */
  fileOffsetMinutes?: Record<string, number>;
  /** Subtract the clock offsets measured at the rendezvous (time zones are corrected regardless). */
  correctClocks?: boolean;
}

export type Verdict = 'failed' | 'healthy' | 'incomplete' | 'not-torchrun';

export interface JobModel {
  schemaVersion: number;
  verdict: Verdict;
  failure: Failure | null;
  /** Latest minus earliest launch, when every node's launch is placed (a node without a time may be the late one). */
  skewSeconds: number | null;
  /** The same over the nodes that could be placed, when only some could: a lower bound, not the job's skew. */
  skewAmongPlaced: { seconds: number; placed: number; total: number } | null;
  nodes: JobNode[];
  job: JobFacts;
  /** Nodes implied by the world size but absent from the logs (the first few, by name). */
  missingNodes: string[];
  /** How many nodes are missing in all (more than `missingNodes` lists when the world is large). */
  missingCount: number;
  /** Proof that the world formed: its size in nodes and the line that shows it; null when none. */
  worldFormed: { nodes: number; evidence: EvidenceLine } | null;
  /** Files of more than one run, when they were dropped together; null for one run. */
  mixedJobs: MixedJobs | null;
  /** Clock offsets beyond their bound (empty when the clocks agree or cannot be compared). */
  clockOffsets: ClockOffset[];
  /** Assumptions and limits the analysis made (year guessed, zone assumed, time derived…). */
  notes: Note[];
  files: { file: string; bytes: number; lines: number; problem: FileProblem | null; decoding?: FileDecoding }[];
}
