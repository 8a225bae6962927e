import type { EventKind, FailureStage } from './model';

// The message catalogue: one entry per startup milestone or failure PyTorch prints, as data. Each entry names
// literal anchors (the combined scan only looks at lines containing one), the exact pattern run on the
// message once its prefixes are peeled, the versions that print it and the source that does. Sources and
// versions follow docs/pytorch-log-formats.md (shared research notes) and the real corpus runs.

export interface CatalogueEntry {
  id: string;
  kind: EventKind | 'field' | 'fact' | 'frame' | 'traceback';
  /** Literal strings; a line is a candidate for this entry only if it contains one of them. */
  anchors: string[];
  /** Regex source (JS flavour, named groups) matched against the message. */
  pattern: string;
  /** Failure stage this message belongs to; frames/keys may refine it (see `refine`). */
  stage?: FailureStage;
  /** A root signal, or a consequence of another node's failure (connection lost, shutdown races). */
  role?: 'primary' | 'consequence';
  /** For `field` entries: the block they belong to, and how far below its start they may appear. */
  blockOf?: string;
  maxDistance?: number;
  /** How the stage is refined from the traceback frames before the line or from extracted keys. */
  refine?: 'frames' | 'keys' | 'seq' | 'inner';
  /** With `refine: 'frames'`: the stages the frames may turn it into (default: any). */
  refineTo?: FailureStage[];
  /** A consequence becomes a primary signal when this field reaches the value (exit barrier near 300 s). */
  primaryIfAtLeast?: { field: string; value: number };
  /** Field giving the timeout that fired, and its unit. */
  timeout?: { field: string; unit: 'ms' | 's' | 'unit-field' | 'timedelta' };
  /** A heuristic for user-script output, not a PyTorch message: weaker evidence. */
  heuristic?: boolean;
  /** Only the first match per stream matters (e.g. first step); later anchors may be skipped. */
  once?: boolean;
  /** Only lines before torchrun's first line matter (work done before the launch). */
  untilLaunch?: boolean;
  versions: string;
  source: string;
}

const FIELD_RDZV = ['restart_count', 'master_addr', 'master_port', 'group_rank', 'group_world_size', 'local_ranks'];
const FIELD_RDZV2 = ['role_ranks', 'global_ranks', 'role_world_sizes', 'global_world_sizes'];
const LAUNCH_KEYS = [
  'entrypoint',
  'min_nodes',
  'max_nodes',
  'nproc_per_node',
  'run_id',
  'rdzv_backend',
  'rdzv_endpoint',
  'rdzv_configs',
  'max_restarts',
  'monitor_interval',
  'log_dir',
  'metrics_cfg',
];

export const CATALOGUE: CatalogueEntry[] = [
  // ── launcher ────────────────────────────────────────────────────────────────────────────────────────
  {
    id: 'omp-banner',
    kind: 'launch',
    anchors: ['Setting OMP_NUM_THREADS environment variable'],
    pattern: 'Setting OMP_NUM_THREADS environment variable for each process to be (?<omp>\\d+) in default',
    versions: '1.13–2.6',
    source: 'torch/distributed/run.py',
  },
  {
    id: 'nproc-info',
    kind: 'launch',
    anchors: ['Using nproc_per_node='],
    pattern: '^Using nproc_per_node=(?<nproc_per_node>\\d+)\\.',
    versions: '1.13–2.6',
    source: 'torch/distributed/run.py',
  },
  {
    id: 'launch-config',
    kind: 'launch',
    anchors: ['Starting elastic_operator with launch configs'],
    pattern: '^Starting elastic_operator with launch configs:',
    versions: '1.13–2.6',
    source: 'torch/distributed/launcher/api.py',
  },
  {
    id: 'launch-config-field',
    kind: 'field',
    anchors: LAUNCH_KEYS.map((k) => `${k} `),
    pattern: `^\\s+(?<key>${LAUNCH_KEYS.join('|')})\\s*: (?<val>.*)$`,
    blockOf: 'launch-config',
    // Generous: posted logs may have a blank line between every line.
    maxDistance: 40,
    versions: '1.13–2.6',
    source: 'torch/distributed/launcher/api.py',
  },
  {
    id: 'torchrun-command',
    kind: 'launch',
    anchors: ['torchrun ', 'torch.distributed.run ', 'torch.distributed.launch '],
    pattern:
      '^(?:\\+ )?(?:\\S*/)?(?:torchrun|python\\d?(?:\\.\\d+)? -m torch\\.distributed\\.(?:run|launch)) (?<args>.*--(?:nnodes|nproc[_-]per[_-]node|rdzv[_-]backend|master[_-]addr).*)$',
    versions: 'any (shell xtrace / echo of the command)',
    source: 'the job script',
  },
  {
    id: 'random-run-id',
    kind: 'info',
    anchors: ['generated a random run_id'],
    pattern: 'config has no run_id, generated a random run_id: (?<run_id>\\S+)',
    versions: '1.13–2.6',
    source: 'torch/distributed/run.py',
  },
  {
    id: 'standalone-info',
    kind: 'info',
    anchors: ['--rdzv_backend=', '--rdzv-backend='],
    pattern: '^--rdzv[_-]backend=(?<backend>\\S+) --rdzv[_-]endpoint=(?<endpoint>\\S+) --rdzv[_-]id=(?<run_id>\\S+)',
    versions: '1.13–2.6 (--standalone)',
    source: 'torch/distributed/run.py',
  },
  {
    // Work a job script does before it starts torchrun: the seed problem's delay shows up here.
    id: 'prelaunch-activity',
    kind: 'info',
    anchors: [
      'download',
      'Download',
      'unpack',
      'Unpack',
      'extract',
      'Extract',
      'tar -x',
      'pip install',
      'Collecting ',
      'Pulling',
      'rsync',
      'aws s3',
      'gsutil',
      'wget',
      'curl ',
      'sha256sum',
      'Copying',
      "' -> '",
    ],
    pattern:
      "(?<what>[Dd]ownload\\w*|[Uu]npack\\w*|[Ee]xtract\\w*|tar -x\\w*|pip install|Collecting \\S+|Pulling\\b.*|rsync|aws s3 (?:cp|sync)|gsutil|wget|curl |sha256sum|Copying|' -> ')",
    heuristic: true,
    untilLaunch: true,
    versions: 'any (job script before torchrun)',
    source: 'the job script',
  },
  // ── agent ───────────────────────────────────────────────────────────────────────────────────────────
  {
    id: 'agent-start',
    kind: 'launch',
    anchors: ['starting workers for entrypoint'],
    pattern: '^\\[(?<role>[^\\]]*)\\] starting workers for entrypoint: (?<entrypoint>.*)$',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'rdzv-begin',
    kind: 'rendezvous-begin',
    anchors: ["Rendezvous'ing worker group"],
    pattern: "^\\[(?<role>[^\\]]*)\\] Rendezvous'ing worker group",
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'rdzv-complete',
    kind: 'rendezvous-complete',
    anchors: ['Rendezvous complete for workers'],
    pattern: '^\\[(?<role>[^\\]]*)\\] Rendezvous complete for workers\\. Result:',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'rdzv-result-field',
    kind: 'field',
    anchors: [...FIELD_RDZV, ...FIELD_RDZV2].map((k) => `${k}=`),
    pattern: `^\\s*(?<key>${[...FIELD_RDZV, ...FIELD_RDZV2].join('|')})=(?<val>.*)$`,
    blockOf: 'rdzv-complete',
    maxDistance: 30,
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'workers-start',
    kind: 'workers-started',
    anchors: ['Starting worker group'],
    pattern: '^\\[(?<role>[^\\]]*)\\] Starting worker group',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'log-dir',
    kind: 'info',
    anchors: ['log directory set to'],
    pattern: '^log directory set to: (?<dir>.*)$',
    versions: '1.13 (local_elastic_agent.py), 2.6 (multiprocessing/api.py)',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'reply-file',
    kind: 'info',
    anchors: ['reply file to'],
    pattern:
      '^Setting worker(?<local_rank>\\d+) reply file to: (?<path>.*?(?:/(?<run>[^/]+)_(?<rand>[^/_]+)/attempt_(?<attempt>\\d+)/\\d+/error\\.json)?)$',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'group-success',
    kind: 'exit',
    anchors: ['worker group successfully finished'],
    pattern: 'worker group successfully finished\\. Waiting (?<secs>[\\d.]+) seconds for other agents to finish',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'local-finished',
    kind: 'info',
    anchors: ['Local worker group finished'],
    pattern: '^Local worker group finished \\((?<state>WorkerState\\.\\w+)\\)',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'exit-barrier-done',
    kind: 'exit',
    anchors: ['Done waiting for other agents'],
    pattern: '^Done waiting for other agents\\. Elapsed: (?<elapsed>[\\d.eE+-]+) seconds',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    // Benign when Elapsed is tiny (a peer that passed the barrier already exited); a failure near 300 s.
    id: 'exit-barrier-error',
    kind: 'error',
    anchors: ['Error waiting on exit barrier'],
    pattern: '^Error waiting on exit barrier\\. Elapsed: (?<elapsed>[\\d.eE+-]+) seconds',
    stage: 'exit-barrier',
    role: 'consequence',
    primaryIfAtLeast: { field: 'elapsed', value: 250 },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'restart',
    kind: 'restart',
    anchors: ['attempts left; will restart worker group'],
    pattern:
      '^\\[(?<role>[^\\]]*)\\] Worker group (?<state>\\w+)\\. (?<left>\\d+)/(?<max>\\d+) attempts left; will restart worker group',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'membership-change',
    kind: 'restart',
    anchors: ['new nodes from group_rank'],
    pattern:
      '^\\[(?<role>[^\\]]*)\\] Detected (?<n>\\d+) new nodes from group_rank=(?<g>\\d+); will restart worker group',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'sigterm-sent',
    kind: 'info',
    anchors: ['closing signal', 'via signal'],
    pattern:
      '^(?:Sending process (?<pid>\\d+) closing signal|Closing process (?<pid2>\\d+) via signal) (?<sig>SIG\\w+)',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'death-signal',
    kind: 'failure',
    anchors: ['death signal, shutting down workers'],
    pattern: '^Received (?<sig>\\S+) death signal, shutting down workers',
    stage: 'other',
    role: 'consequence',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'worker-failed',
    kind: 'error',
    anchors: ['failed (exitcode: '],
    pattern:
      'failed \\(exitcode: (?<exitcode>-?\\d+)\\) local_rank: (?<local_rank>\\d+) \\(pid: (?<pid>\\d+)\\) of (?:binary|fn): (?<what>.*?)(?: \\(start_method: \\w+\\))?$',
    stage: 'worker-error',
    role: 'consequence',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'child-failed',
    kind: 'failure',
    anchors: ['ChildFailedError'],
    pattern: '^(?:torch\\.distributed\\.elastic\\.multiprocessing\\.errors\\.)?ChildFailedError:?\\s*$',
    stage: 'worker-error',
    role: 'consequence',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/errors/__init__.py',
  },
  {
    id: 'child-failed-field',
    kind: 'field',
    anchors: ['time      : ', 'host      : ', 'rank      : ', 'exitcode  : ', 'error_file: '],
    pattern: '^\\s+(?<key>time|host|rank|exitcode|error_file)\\s*: (?<val>.*)$',
    blockOf: 'child-failed',
    maxDistance: 120,
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/errors/__init__.py',
  },
  // ── rendezvous ──────────────────────────────────────────────────────────────────────────────────────
  {
    id: 'dyn-attempt',
    kind: 'info',
    anchors: ['attempts to join the next round'],
    pattern: "The node '(?<node>[^']+)' attempts to join the next round of the rendezvous '(?<run_id>[^']+)'",
    versions: '1.13–2.6 (INFO, needs TORCH_LOGS=distributed in 2.x)',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'dyn-joined',
    kind: 'info',
    anchors: ['has joined round'],
    pattern:
      "The node '(?<node>[^']+)' has joined round (?<round>\\d+) of the rendezvous '(?<run_id>[^']+)' as rank (?<rank>\\d+) in a world of size (?<world>\\d+)",
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'dyn-closed',
    kind: 'info',
    anchors: ['has closed the rendezvous'],
    pattern: "The node '(?<node>[^']+)' has closed the rendezvous '(?<run_id>[^']+)'",
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'dyn-shutdown-failed',
    kind: 'error',
    anchors: ['has failed to shutdown the rendezvous', 'has failed to send a keep-alive heartbeat'],
    pattern:
      "The node '(?<node>[^']+)' has failed to (?:shutdown the rendezvous|send a keep-alive heartbeat to the rendezvous) '(?<run_id>[^']+)' due to an error of type (?<exc>\\w+)",
    stage: 'rendezvous-connection',
    role: 'consequence',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'c10d-store-host',
    kind: 'info',
    anchors: ['hosts the TCP store for the C10d rendezvous backend'],
    pattern: 'Process (?<pid>\\d+) hosts the TCP store for the C10d rendezvous backend',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py',
  },
  {
    id: 'static-store',
    kind: 'info',
    anchors: ['Creating TCPStore as the c10d::Store implementation'],
    pattern: 'Creating TCPStore as the c10d::Store implementation',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/static_tcp_rendezvous.py',
  },
  {
    id: 'etcd-joined',
    kind: 'info',
    anchors: ['Joined rendezvous version'],
    pattern: 'Joined rendezvous version (?<ver>\\d+) as rank (?<rank>\\d+)\\. Full state: (?<state>.*)$',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py',
  },
  {
    id: 'etcd-complete',
    kind: 'rendezvous-complete',
    anchors: ['is complete. Final state'],
    pattern: 'Rendezvous version (?<ver>\\d+) is complete\\. Final state: (?<state>.*)$',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py',
  },
  {
    id: 'etcd-timeout',
    kind: 'failure',
    anchors: ['Rendezvous timeout occurred in EtcdRendezvousHandler'],
    pattern: 'Rendezvous timeout occurred in EtcdRendezvousHandler',
    stage: 'rendezvous-timeout',
    role: 'primary',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py',
  },
  {
    id: 'rdzv-timeout-error',
    kind: 'failure',
    anchors: ['RendezvousTimeoutError'],
    pattern: '^(?:[\\w.]+\\.)?RendezvousTimeoutError\\b(?::\\s*(?<detail>.*))?$',
    stage: 'rendezvous-timeout',
    role: 'primary',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'rdzv-closed-error',
    kind: 'failure',
    anchors: ['RendezvousClosedError'],
    pattern: '^(?:[\\w.]+\\.)?RendezvousClosedError\\b(?::\\s*(?<detail>.*))?$',
    stage: 'rendezvous-closed',
    role: 'consequence',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'rdzv-graceful-exit',
    kind: 'info',
    anchors: ['terminating pending rendezvous'],
    pattern: "The rendezvous '(?<run_id>[^']+)' is closed, terminating pending rendezvous",
    versions: '2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    // Its cause decides: an inner connect timeout means the store host was not (yet) there; a lost connection
    // means the host went away (a consequence of the host's own failure).
    id: 'rdzv-connection-error',
    kind: 'failure',
    anchors: ['RendezvousConnectionError'],
    pattern: '^(?:[\\w.]+\\.)?RendezvousConnectionError: The connection to the C10d store has failed',
    stage: 'rendezvous-connection',
    role: 'primary',
    refine: 'inner',
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py',
  },
  // ── TCPStore and sockets ────────────────────────────────────────────────────────────────────────────
  {
    id: 'tcp-client-retry',
    kind: 'error',
    anchors: ['TCP client failed to connect/validate'],
    pattern:
      'TCP client failed to connect/validate to host (?<host>\\S+):(?<port>\\d+) - (?<what>retrying|timed out) \\(try=(?<try>\\d+), timeout=(?<ms>\\d+)ms',
    stage: 'store-connect',
    role: 'consequence',
    versions: '2.6 (introduction unverified)',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  {
    id: 'client-connect-timeout',
    kind: 'failure',
    anchors: ['The client socket has timed out after'],
    pattern:
      'The client socket has timed out after (?<t>\\d+)(?<unit>ms|s) while trying to connect to \\((?<host>[^,]+), (?<port>\\d+)\\)',
    stage: 'store-connect',
    role: 'primary',
    refine: 'frames',
    refineTo: ['pg-init'],
    timeout: { field: 't', unit: 'unit-field' },
    versions: '1.13–2.6 (900s in 1.13, 900000ms in 2.x)',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    id: 'not-listening',
    kind: 'info',
    anchors: ['is listening yet'],
    pattern: 'No socket on \\((?<host>[^,]+), (?<port>\\d+)\\) is listening yet, will retry',
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    id: 'connect-error',
    kind: 'error',
    anchors: ['The client socket has failed to connect to'],
    pattern:
      'The client socket has failed to connect to (?<any>any network address of )?(?<addr>\\S+)(?: (?<err>\\(.*\\)))?\\.?$',
    stage: 'store-connect',
    role: 'consequence',
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    id: 'dns-error',
    kind: 'failure',
    anchors: ['cannot be retrieved (gai error'],
    pattern:
      'network addresses of \\((?<host>[^,]+), (?<port>\\d+)\\) cannot be retrieved \\(gai error: (?<code>-?\\d+) - (?<text>[^)]*)\\)',
    stage: 'store-connect',
    role: 'primary',
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    id: 'server-bind-failed',
    kind: 'failure',
    anchors: ['The server socket has failed to'],
    pattern:
      'The server socket has failed to (?:bind to (?<addr>\\S+) (?<err>\\(.*\\))|listen on any local network address)',
    stage: 'other',
    role: 'primary',
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    id: 'master-wait-clients',
    kind: 'failure',
    anchors: ['seconds waiting for clients'],
    pattern:
      'Timed out after (?<secs>\\d+) seconds waiting for clients\\. (?<joined>\\d+)/(?<expected>\\d+) clients joined',
    stage: 'rendezvous-timeout',
    role: 'primary',
    timeout: { field: 'secs', unit: 's' },
    versions: '2.2–2.6 (≤2.1 continues silently)',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  {
    id: 'nccl-unique-id',
    kind: 'failure',
    anchors: ['ncclUniqueId from [0]'],
    pattern:
      "\\[(?<rank>\\d+)\\] is setting up NCCL communicator and retr(?:ei|ie)ving ncclUniqueId from \\[0\\] via c10d key-value store by key '(?<key>[^']*)', but store->get\\('[^']*'\\) got error: (?<err>.*)",
    stage: 'comm-init',
    role: 'primary',
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp',
  },
  {
    // One text, three meanings: only the frames above it tell rank assignment from the exit barrier.
    id: 'socket-timeout',
    kind: 'failure',
    anchors: ['Socket Timeout'],
    pattern:
      '(?:^|: )(?:(?<exc>RuntimeError|(?:torch\\.distributed\\.)?Dist(?:Store|Network|Backend)Error): )?Socket Timeout\\s*$',
    stage: 'other',
    role: 'primary',
    refine: 'frames',
    versions: '1.13–2.3 (RuntimeError / DistStoreError)',
    source: 'torch/csrc/distributed/c10d/Utils.hpp (SYSCHECK on SO_RCVTIMEO)',
  },
  {
    id: 'wait-timeout-keys',
    kind: 'failure',
    anchors: ['wait timeout after'],
    pattern: 'wait timeout after (?<ms>\\d+)ms, keys: (?<keys>.*)$',
    stage: 'other',
    role: 'primary',
    refine: 'keys',
    timeout: { field: 'ms', unit: 'ms' },
    versions: '2.6 (introduction unverified)',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  {
    id: 'wait-for-input',
    kind: 'error',
    anchors: ['waitForInput:'],
    pattern:
      'waitForInput: (?:poll for socket .+ returned 0, likely a timeout|socket .+ timed out after (?<ms>\\d+)ms)',
    stage: 'other',
    role: 'consequence',
    refine: 'frames',
    versions: '2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    id: 'connection-lost',
    kind: 'error',
    anchors: ['Broken pipe', 'failed to recv, got 0 bytes', 'Connection reset by peer'],
    pattern: '(?<what>Broken pipe|failed to recv, got 0 bytes|Connection reset by peer)',
    stage: 'other',
    role: 'consequence',
    refine: 'frames',
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp, Utils.hpp',
  },
  {
    id: 'libuv-missing',
    kind: 'failure',
    anchors: ['use_libuv was requested but PyTorch was build without libuv support'],
    pattern: 'use_libuv was requested but PyTorch was build without libuv support',
    stage: 'other',
    role: 'primary',
    versions: '2.4–2.6 builds without libuv',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  // ── process group ───────────────────────────────────────────────────────────────────────────────────
  {
    id: 'pg-backend-config',
    kind: 'info',
    anchors: ['Using backend config'],
    pattern: '^Using backend config: (?<cfg>.*)$',
    versions: '2.6',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    id: 'store-barrier-wait',
    kind: 'info',
    anchors: ['Waiting in store based barrier'],
    pattern:
      'Waiting in store based barrier to initialize process group for (?:(?<secs>[\\d.]+) seconds)?rank: (?<rank>\\d+), key: (?<key>[^ ]+) \\(world_size=(?<ws>\\d+), (?:worker_count|num_workers_joined)=(?<n>\\d+), timeout=(?<td>[^ )]+)',
    versions: '1.13 (INFO), 2.6 (DEBUG)',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    id: 'store-barrier-done',
    kind: 'pg-ready',
    anchors: ['Completed store-based barrier'],
    pattern: '\\bRank (?<rank>\\d+): Completed store-based barrier for key:(?<key>\\S+) with (?<n>\\d+) nodes',
    versions: '1.13–2.6',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    id: 'store-barrier-timeout',
    kind: 'failure',
    anchors: ['Timed out initializing process group in store based barrier'],
    pattern:
      'Timed out initializing process group in store based barrier on rank:? ?(?<rank>\\d+), for key: (?<key>\\S+) \\(world_size=(?<ws>\\d+), (?:worker_count|num_workers_joined)=(?<n>\\d+), timeout=(?<td>[^ )]+)',
    stage: 'pg-init',
    role: 'primary',
    timeout: { field: 'td', unit: 'timedelta' },
    versions: '1.13–2.6',
    source: 'torch/distributed/distributed_c10d.py',
  },
  {
    // The training script's own words; many scripts print something like it.
    id: 'pg-init-begin',
    kind: 'info',
    anchors: ['calling init_process_group', 'Initializing process group', 'initializing process group'],
    pattern: '(?:calling init_process_group|[Ii]nitializing process group)',
    heuristic: true,
    once: true,
    versions: 'any (training script output)',
    source: 'the training script',
  },
  {
    id: 'pg-init-done',
    kind: 'pg-ready',
    anchors: ['init_process_group done', 'init_process_group finished', 'process group initialized'],
    pattern: '(?:init_process_group (?:done|finished)|process group initialized)',
    heuristic: true,
    once: true,
    versions: 'any (training script output)',
    source: 'the training script',
  },
  {
    // The first training-step line of the run (a resumed job starts at step N, so any number counts).
    id: 'first-step',
    kind: 'first-step',
    anchors: ['step', 'Step', 'iter', 'Iter'],
    pattern: '\\b(?:[Ss]tep|[Ii]ter(?:ation)?)\\b\\s*[:=#]?\\s*\\[?(?<step>\\d+)(?:\\s*/\\s*\\d+)?\\]?(?![\\d.])',
    heuristic: true,
    once: true,
    versions: 'any (training script output)',
    source: 'the training script',
  },
  // ── communicators (NCCL / HCCL) ─────────────────────────────────────────────────────────────────────
  {
    // A watchdog timeout on the first few collectives is a startup problem; SeqNum in the thousands is a hang.
    id: 'collective-watchdog',
    kind: 'failure',
    anchors: ['Watchdog caught collective operation timeout'],
    pattern:
      'Watchdog caught collective operation timeout: Work(?<lib>NCCL|HCCL)\\(SeqNum=(?<seq>\\d+), OpType=(?<op>\\w+)[^)]*?Timeout\\(ms\\)=(?<timeout>\\d+)\\) ran for (?<ran>\\d+) milliseconds',
    stage: 'collective-timeout',
    role: 'primary',
    refine: 'seq',
    timeout: { field: 'timeout', unit: 'ms' },
    versions: '1.13–2.6 (NCCL), torch_npu (HCCL)',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp; torch_npu ProcessGroupHCCL',
  },
  {
    id: 'hccl-link-timeout',
    kind: 'failure',
    anchors: ['wait socket establish timeout'],
    pattern:
      'wait socket establish timeout, role\\[(?<role>\\d+)\\] rank\\[(?<rank>\\d+)\\] timeout\\[(?<secs>\\d+)(?: s)?\\]',
    stage: 'comm-init',
    role: 'primary',
    timeout: { field: 'secs', unit: 's' },
    versions: 'CANN 5.x–9.x (HCCL_CONNECT_TIMEOUT)',
    source: 'HCCL hccl_socket_manager.cc',
  },
  {
    id: 'hccl-ei0006',
    kind: 'failure',
    anchors: ['EI0006'],
    pattern: '^(?:.*?EI0006:?\\s*)?(?<detail>.+)$',
    stage: 'comm-init',
    role: 'primary',
    versions: 'CANN (HCCL_CONNECT_TIMEOUT)',
    source: 'HCCL error report EI0006',
  },
  // ── facts and traceback structure ───────────────────────────────────────────────────────────────────
  {
    id: 'torch-version-entry-point',
    kind: 'fact',
    anchors: ["load_entry_point('torch=="],
    pattern: "load_entry_point\\('torch==(?<version>[^']+)'",
    versions: '1.13–2.6 (console-script wrapper in tracebacks)',
    source: 'the torchrun console script',
  },
  {
    id: 'torch-version-stated',
    kind: 'fact',
    anchors: ['PyTorch version:', 'torch version:', 'torch.__version__', 'Torch version:'],
    pattern:
      '(?:PyTorch|[Tt]orch) version:?\\s*=?\\s*(?<version>\\d+\\.\\d+(?:\\.\\d+)?[\\w.+-]*)|torch\\.__version__\\s*[=:]\\s*[\'"]?(?<version2>\\d+\\.\\d+(?:\\.\\d+)?[\\w.+-]*)',
    versions: 'any (collect_env, scripts)',
    source: 'collect_env / the training script',
  },
  {
    id: 'traceback-start',
    kind: 'traceback',
    anchors: ['Traceback (most recent call last)'],
    pattern: 'Traceback \\(most recent call last\\)',
    versions: 'Python',
    source: 'Python',
  },
  {
    id: 'traceback-frame',
    kind: 'frame',
    anchors: ['File "'],
    pattern: 'File "(?<path>[^"]+)", line (?<lineno>\\d+), in (?<fn>[\\w<>]+)',
    versions: 'Python',
    source: 'Python',
  },
  {
    // Any other exception line at the end of a traceback (e.g. the Debian 1.13 `AttributeError` crash).
    id: 'python-exception',
    kind: 'failure',
    anchors: ['Error: ', 'Exception: '],
    pattern: '^(?<exc>(?:[A-Za-z_][\\w]*\\.)*[A-Za-z_]\\w*(?:Error|Exception)): (?<detail>.+)$',
    stage: 'other',
    role: 'primary',
    refine: 'frames',
    versions: 'Python',
    source: 'Python',
  },
];

/** Traceback frames that classify a store timeout (or any exception) by the code that was waiting. */
export const FRAME_STAGES: { fns: string[]; stage: FailureStage }[] = [
  { fns: ['_exit_barrier'], stage: 'exit-barrier' },
  {
    // _get_master_addr_port: after rank assignment the agents read MASTER_ADDR, which rank 0 writes only once
    // its own synchronize finished — the same wait, seen from a node that came late.
    fns: ['_share_and_gather', 'synchronize', 'get_all', '_assign_worker_ranks', '_get_master_addr_port'],
    stage: 'rank-assignment',
  },
  {
    fns: ['init_process_group', '_store_based_barrier', '_new_process_group_helper', '_create_c10d_store'],
    stage: 'pg-init',
  },
];

/** Store keys in `wait timeout … keys:` that say who was waiting for what. */
export const KEY_STAGES: { re: string; stage: FailureStage }[] = [
  { re: 'torchelastic/(?:role_info|assigned_ranks)', stage: 'rank-assignment' },
  { re: 'torchelastic/agent/terminal_state|exit_barrier', stage: 'exit-barrier' },
  { re: 'default_pg|store_based_barrier|/\\d+//(?:cpu|cuda)//', stage: 'pg-init' },
];

/** Entries that show a PyTorch distributed job at all (as opposed to generic Python noise). */
export function isTorchEvidence(e: CatalogueEntry): boolean {
  return e.kind !== 'frame' && e.kind !== 'traceback' && !NOT_TORCH_EVIDENCE.has(e.id);
}
/** Lines any program or job script may print: they describe a run, they do not show torchrun. */
const NOT_TORCH_EVIDENCE = new Set(['python-exception', 'first-step', 'prelaunch-activity']);

export const ALL_ANCHORS: string[] = [...new Set(CATALOGUE.flatMap((e) => e.anchors))];
