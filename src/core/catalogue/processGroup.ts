import type { CatalogueEntry } from './types';

// init_process_group and its store-based barrier (torch/distributed/distributed_c10d.py). Templates:
// docs/pytorch-log-formats.md §5.8.

export const PROCESS_GROUP: CatalogueEntry[] = [
  {
    id: 'pg-backend-config',
    kind: 'info',
    anchors: ['Using backend config'],
    pattern: 'Using backend config: (?<cfg>.*)$',
    samples: [
      "I1129 18:41:55.837000 6676 torch/distributed/distributed_c10d.py:436] Using backend config: {'cpu': 'gloo', 'cuda': 'gloo'}",
    ],
    versions: '2.6',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    // Each rank adds its key to the store as it enters the barrier at the end of init_process_group.
    id: 'store-barrier-added-key',
    kind: 'info',
    anchors: ['to store for rank: '],
    pattern: 'Added key: (?<key>\\S+) to store for rank: (?<rank>\\d{1,7})',
    samples: [
      'INFO:torch.distributed.distributed_c10d:Added key: store_based_barrier_key:1 to store for rank: 3',
      '[2021-12-17 16:36:22,310][torch.distributed.distributed_c10d][INFO] - Added key: store_based_barrier_key:1 to store for rank: 0',
    ],
    effects: { entersStage: 'pg-init' },
    versions: '1.13 (INFO), 2.6 (DEBUG)',
    source: 'torch/distributed/distributed_c10d.py (_store_based_barrier); docs/pytorch-log-formats.md §5.8',
  },
  {
    id: 'store-barrier-wait',
    kind: 'info',
    anchors: ['Waiting in store based barrier'],
    pattern:
      'Waiting in store based barrier to initialize process group for (?:(?<secs>[\\d.]+) seconds)?rank: (?<rank>\\d+), key: (?<key>[^ ]+) \\(world_size=(?<ws>\\d+), (?:worker_count|num_workers_joined)=(?<n>\\d+), timeout=(?<td>[^ )]+)',
    samples: [
      'INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for rank: 3, key: store_based_barrier_key:1 (world_size=8, worker_count=6, timeout=0:30:00)',
    ],
    // Shown: the wait is on the timeline, and the findings read it (a survived wait, more workers than the world).
    effects: { waitingIn: 'pg-init', entersStage: 'pg-init', shown: true },
    versions: '1.13 (INFO), 2.6 (DEBUG)',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    id: 'store-barrier-done',
    kind: 'pg-ready',
    anchors: ['Completed store-based barrier'],
    pattern: '\\bRank (?<rank>\\d+): Completed store-based barrier for key:(?<key>\\S+) with (?<n>\\d+) nodes',
    samples: [
      '[default1]:2026-11-29 18:16:16,078 INFO torch.distributed.distributed_c10d: Rank 1: Completed store-based barrier for key:store_based_barrier_key:1 with 8 nodes.',
    ],
    versions: '1.13–2.6',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    id: 'store-barrier-timeout',
    kind: 'failure',
    anchors: ['Timed out initializing process group in store based barrier'],
    pattern:
      'Timed out initializing process group in store based barrier on rank:? ?(?<rank>\\d+), for key: (?<key>\\S+) \\(world_size=(?<ws>\\d+), (?:worker_count|num_workers_joined)=(?<n>\\d+), timeout=(?<td>[^ )]+)',
    samples: [
      'RuntimeError: Timed out initializing process group in store based barrier on rank: 5, for key: store_based_barrier_key:1 (world_size=16, worker_count=12, timeout=0:30:00)',
    ],
    effects: { stage: 'pg-init', role: 'primary', limit: { field: 'td', unit: 'timedelta' } },
    versions: '1.13–2.6',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    // init_process_group's env:// rendezvous without the variables a launcher sets (a notebook, a plain
    // `python train.py`): nothing ran across nodes — a setup error in process-group init, not a late node.
    id: 'env-rendezvous-unset',
    kind: 'failure',
    anchors: ['using env:// rendezvous: environment variable '],
    pattern:
      'Error initializing torch\\.distributed using env:// rendezvous: environment variable (?<var>[A-Z_]{1,40}) expected, but not set',
    samples: [
      // A Kaggle notebook cell's IPython traceback (ChanCheeKean/DecodeAI issue 1); wording of torch/distributed/rendezvous.py _env_error.
      'ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set',
    ],
    effects: { stage: 'pg-init', role: 'primary', immediate: true },
    versions: '1.x–2.6',
    source: 'torch/distributed/rendezvous.py (_env_error)',
  },
  {
    // The script's own use of the API is wrong (init_process_group called twice, a collective before it): it
    // fails at once on every rank alike — the worker's own error, whatever frames stand above it.
    id: 'pg-api-misuse',
    kind: 'failure',
    anchors: ['initialize the default process group twice', 'Default process group has not been initialized'],
    pattern:
      '(?<what>trying to initialize the default process group twice|Default process group has not been initialized)',
    samples: [
      'RuntimeError: trying to initialize the default process group twice!',
      'ValueError: Default process group has not been initialized, please make sure to call init_process_group.',
    ],
    effects: { stage: 'worker-error', role: 'primary', immediate: true },
    versions: '1.x–2.6',
    source:
      'torch/distributed/distributed_c10d.py (init_process_group, _get_default_group); shapes: huggingface/diffusers#2221, hpcaitech/ColossalAI#2872',
  },
  {
    // DistributedDataParallel's reducer found the previous iteration's gradient reduction unfinished: parameters
    // that took no part in the loss. The worker's own error, once training iterates — not a startup stage.
    id: 'ddp-unfinished-reduction',
    kind: 'failure',
    anchors: ['Expected to have finished reduction in the prior iteration'],
    pattern: 'Expected to have finished reduction in the prior iteration before starting a new one',
    samples: [
      'RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This error indicates that your module has parameters that were not used in producing loss.',
    ],
    effects: { stage: 'worker-error', role: 'primary', immediate: true },
    versions: '1.x–2.6',
    source: 'torch/csrc/distributed/c10d/reducer.cpp (Reducer::ensure_prior_reduction_finished); shape: excerpt set 14',
  },
];
