// Plain-language names for the model's codes, shared by every view.
import type { FailureStage, FileProblem, Verdict } from '../core/model';

export const VERDICT_LABEL: Record<Verdict, string> = {
  failed: 'Failed',
  healthy: 'Healthy',
  incomplete: 'Incomplete',
  'not-torchrun': 'Not torchrun',
};

export const VERDICT_SUMMARY: Record<Verdict, string> = {
  failed: 'The job failed during startup.',
  healthy: 'No startup failure found: the nodes met and started their workers.',
  incomplete:
    'The logs stop before the job either started or failed — it may still have been running, or logs are missing.',
  'not-torchrun': 'These files do not look like torchrun logs.',
};

export const STAGE_WORDS: Record<FailureStage, string> = {
  'store-connect': 'A node could not connect to the rendezvous store (TCPStore)',
  'rendezvous-connection': 'A node lost its connection to the rendezvous',
  'rendezvous-timeout': 'The rendezvous timed out waiting for all nodes to join',
  'rendezvous-closed': 'The rendezvous was closed before every node joined',
  'rank-assignment': 'Assigning ranks to the nodes failed',
  'pg-init': 'Initialising the process group failed',
  'comm-init': 'Initialising the communicator (NCCL/Gloo) failed',
  'collective-timeout': 'A collective operation timed out',
  'exit-barrier': 'The nodes timed out at the exit barrier',
  'worker-error': 'A worker process raised an error',
  other: 'The job failed for another reason',
};

export const STAGE_SHORT: Record<FailureStage, string> = {
  'store-connect': 'Store connect',
  'rendezvous-connection': 'Rendezvous connection',
  'rendezvous-timeout': 'Rendezvous timeout',
  'rendezvous-closed': 'Rendezvous closed',
  'rank-assignment': 'Rank assignment',
  'pg-init': 'Process group init',
  'comm-init': 'Communicator init',
  'collective-timeout': 'Collective timeout',
  'exit-barrier': 'Exit barrier',
  'worker-error': 'Worker error',
  other: 'Other',
};

export const PROBLEM_LABEL: Record<FileProblem['code'], string> = {
  binary: 'Binary',
  empty: 'Empty',
  'not-a-log': 'Not a log',
  unreadable: 'Unreadable',
  'archive-error': 'Archive error',
  bomb: 'Archive bomb',
};
