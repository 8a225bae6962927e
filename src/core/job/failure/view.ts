import type { FailureStage, JobNode, LogEvent } from '../../model';

// What the failure analysis sees of each node: the node as built so far, its raw events (with the
// catalogue's fields, stages and roles) and its clock.

export interface NodeView {
  node: JobNode;
  events: LogEvent[];
  /** Instant (ms) of an event on the job clock, when it has one. */
  timeOf: (e: LogEvent) => number | null;
  /** The instant `timeOf` gives is only a lower bound: the event has no time and took that of the line above. */
  lowerBound: (e: LogEvent) => boolean;
}

/** Startup order: when nothing else decides, the earlier stage is the likelier root. */
export const PIPELINE: FailureStage[] = [
  'store-connect',
  'rendezvous-connection',
  'rendezvous-timeout',
  'rendezvous-closed',
  'rank-assignment',
  'pg-init',
  'comm-init',
  'worker-error',
  'collective-timeout',
  'exit-barrier',
  'other',
];

/** Failing to reach the store host: the host was not there (yet), or had gone. */
export const CONNECT_STAGES: FailureStage[] = ['store-connect', 'rendezvous-connection'];
/** Waiting for other nodes that did not come: the waiter was there, someone else was late. */
export const WAIT_STAGES: FailureStage[] = ['rendezvous-timeout', 'rank-assignment', 'pg-init', 'comm-init'];

export const isFailureSignal = (e: LogEvent) => (e.kind === 'failure' || e.kind === 'error') && e.stage !== undefined;

/** A worker killed by SIGABRT (exit code -6): what the NCCL/HCCL watchdog does to a process whose collective
 * timed out, so with a watchdog in the job it is the watchdog's consequence, not a crash of its own. */
export const abortedByWatchdog = (e: LogEvent) =>
  e.fields.exitcode?.trim() === '-6' || /SIGABRT/.test(e.fields.sig ?? '');

/** A worker its own agent stopped (SIGTERM, -15) or the user interrupted (SIGINT, -2): not a failure of its own. */
export const stoppedFromOutside = (e: LogEvent) => /^-(?:15|2)$/.test(e.fields.exitcode?.trim() ?? '');
