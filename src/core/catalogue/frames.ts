import type { FailureStage } from '../model';

// Which code was waiting, read from the traceback: the stage of a store timeout (or any exception) is that
// of the outermost phase-specific frame. Shared helpers (synchronize, get_all, barrier, store.get) are
// listed as helpers: they tell a store wait, never which phase it was in.

export interface FrameStage {
  /** Function names; empty with `path`: any function in a file that `path` matches. */
  fns: string[];
  stage: FailureStage;
  /** The frame's file must match too (the same name means different things in different modules). */
  path?: RegExp;
  /** A collective the script calls (all_reduce, barrier…): the communicator may be created inside it. */
  collective?: true;
}

/** Phase-specific frames, most specific phase first when two appear at the same depth. */
export const PHASE_FRAMES: FrameStage[] = [
  { fns: ['_exit_barrier'], stage: 'exit-barrier' },
  {
    // _get_master_addr_port: after rank assignment the agents read MASTER_ADDR, which rank 0 writes only once
    // its own synchronize finished — the same wait, seen from a node that came late.
    fns: ['_assign_worker_ranks', '_share_and_gather', '_get_ranks', '_get_master_addr_port'],
    stage: 'rank-assignment',
  },
  {
    // 2.4+: a c10d agent reads the bootstrap store's address (MASTER_ADDR_KEY) that rank 0 publishes for the
    // round, in RendezvousStoreInfo.build — the same wait as _get_master_addr_port (a real 2.6 run:
    // test/fixtures/captured/torch2.6-c10d-elastic-late-join, node3).
    fns: ['build'],
    path: /[\\/]torch[\\/]distributed[\\/]elastic[\\/]rendezvous[\\/]api\.py$/,
    stage: 'rank-assignment',
  },
  {
    // The agent creating its rendezvous store (static: next_rendezvous makes the TCPStore; c10d: the backend's
    // _create_tcp_store): an error there is the store connection failing, whatever its words (Windows'
    // "Unknown error", 2.1's "Stop_waiting response is expected"). Not the host's wait for its clients: that
    // message has a stage of its own.
    fns: ['next_rendezvous', '_create_tcp_store'],
    path: /[\\/]torch[\\/]distributed[\\/]elastic[\\/]rendezvous[\\/](?:static_tcp_rendezvous|c10d_rendezvous_backend)\.py$/,
    stage: 'store-connect',
  },
  {
    fns: [
      'init_process_group',
      '_store_based_barrier',
      '_new_process_group_helper',
      '_create_c10d_store',
      '_env_rendezvous_handler',
      '_tcp_rendezvous_handler',
    ],
    stage: 'pg-init',
  },
  {
    // Lightning's strategies create the process group in setup_environment → setup_distributed →
    // init_dist_connection (a cut traceback often stops there, before init_process_group's own frame).
    fns: ['setup_environment', 'setup_distributed', 'init_dist_connection'],
    path: /lightning/,
    stage: 'pg-init',
  },
  {
    // The first collectives a job runs: DDP's construction broadcasts, communicators are created lazily there.
    fns: ['_verify_param_shape_across_processes', '_sync_module_states', '_sync_params_and_buffers'],
    stage: 'comm-init',
  },
  {
    // A collective the training script calls once the process group exists: a wait inside the job.
    fns: ['barrier', 'all_reduce', 'broadcast', 'all_gather', 'reduce_scatter', 'all_to_all', 'monitored_barrier'],
    path: /distributed_c10d\.py$/,
    stage: 'collective-timeout',
    collective: true,
  },
  {
    // The DataLoader's workers and their shared state: the job runs.
    fns: [],
    path: /[\\/]torch[\\/]utils[\\/]data[\\/]/,
    stage: 'collective-timeout',
  },
];

/** The frame belongs to this phase. */
export function frameIn(f: { fn: string; path: string }, p: FrameStage): boolean {
  return (p.fns.length === 0 || p.fns.includes(f.fn)) && (!p.path || p.path.test(f.path));
}

/** Store helpers: a wait inside them is a rank-assignment wait only when no phase frame says otherwise. Only
 * torchelastic's own (elastic/utils/store.py, torchelastic 0.2's too): `torch.npu.synchronize`, `torch.cuda.synchronize` and Horovod's are no
 * store wait. */
export const HELPER_FRAMES: FrameStage[] = [
  {
    fns: ['synchronize', 'get_all'],
    path: /(?:^|[\\/])(?:torch[\\/]distributed[\\/]elastic|torchelastic)[\\/]utils[\\/]store\.py$/,
    stage: 'rank-assignment',
  },
];

/** Store keys in `wait timeout … keys:` that say who was waiting for what. */
export const KEY_STAGES: { re: string; stage: FailureStage }[] = [
  { re: 'torchelastic/(?:role_info|assigned_ranks)', stage: 'rank-assignment' },
  { re: 'torchelastic/agent/terminal_state|exit_barrier', stage: 'exit-barrier' },
  { re: 'default_pg|store_based_barrier|/\\d+//(?:cpu|cuda)//', stage: 'pg-init' },
];

/** A traceback frame in PyTorch's distributed code (torch_xla, torch_npu and other look-alikes excluded). */
export const TORCH_DISTRIBUTED_PATH = /(?:^|[\\/])(?:torch[\\/]distributed|torchelastic)[\\/]/;
