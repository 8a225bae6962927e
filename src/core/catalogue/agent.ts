import type { CatalogueEntry } from './types';

// The elastic agent (torch/distributed/elastic/agent/server/api.py, local_elastic_agent.py) and its worker
// processes (elastic/multiprocessing). Templates: shared/docs/pytorch-log-formats.md §5.2–5.3, §5.10.

const FIELD_RDZV = ['restart_count', 'master_addr', 'master_port', 'group_rank', 'group_world_size', 'local_ranks'];
const FIELD_RDZV2 = ['role_ranks', 'global_ranks', 'role_world_sizes', 'global_world_sizes'];

export const AGENT: CatalogueEntry[] = [
  {
    id: 'agent-start',
    kind: 'launch',
    anchors: ['starting workers for entrypoint'],
    pattern: '\\[(?<role>[^\\]]{0,80})\\] starting workers for entrypoint: (?<entrypoint>.*)$',
    samples: [
      'INFO:torch.distributed.elastic.agent.server.api:[default] starting workers for entrypoint: python3.11',
      'I1129 18:29:55.435000 943 torch/distributed/elastic/agent/server/api.py:698] [default] starting workers for entrypoint: python3.13',
    ],
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'rdzv-begin',
    kind: 'rendezvous-begin',
    anchors: ["Rendezvous'ing worker group"],
    pattern: "\\[(?<role>[^\\]]{0,80})\\] Rendezvous'ing worker group",
    samples: ["INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group"],
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'rdzv-complete',
    kind: 'rendezvous-complete',
    anchors: ['Rendezvous complete for workers'],
    pattern: '\\[(?<role>[^\\]]{0,80})\\] Rendezvous complete for workers\\. Result:',
    samples: [
      '2026-11-29T18:35:49.823610109Z INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous complete for workers. Result:',
    ],
    effects: {
      store: 'reached',
      identity: [{ kind: 'group-rank', field: 'group_rank' }],
      facts: { worldNodes: 'group_world_size', globalWorldSizes: 'global_world_sizes' },
    },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'rdzv-result-field',
    kind: 'field',
    anchors: [...FIELD_RDZV, ...FIELD_RDZV2].map((k) => `${k}=`),
    pattern: `^\\s*(?<key>${[...FIELD_RDZV, ...FIELD_RDZV2].join('|')})=(?<val>.*)$`,
    samples: ['2026-11-29T18:35:49.823643058Z   restart_count=0', '  global_ranks=[4, 5]'],
    blockOf: 'rdzv-complete',
    maxDistance: 30,
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'workers-start',
    kind: 'workers-started',
    anchors: ['Starting worker group'],
    pattern: '\\[(?<role>[^\\]]{0,80})\\] Starting worker group',
    samples: [
      '2026-11-29T18:35:49.823680253Z INFO:torch.distributed.elastic.agent.server.api:[default] Starting worker group',
    ],
    effects: { store: 'reached' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    // From 2.5 the agent says whether its workers reuse its rendezvous TCPStore (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1
    // turns it off): after a restart, workers that reuse it can read the previous attempt's keys.
    id: 'agent-store-shared',
    kind: 'info',
    anchors: ['use_agent_store: '],
    pattern: 'use_agent_store: (?<shared>True|False)',
    samples: [
      'I1201 11:56:25.079000 15554 torch/distributed/elastic/agent/server/local_elastic_agent.py:298] use_agent_store: True',
    ],
    effects: { facts: { agentStore: 'shared' } },
    versions: '2.5–2.6 (docs/pytorch-log-formats.md: INFO, 2.6)',
    source: 'torch/distributed/elastic/agent/server/local_elastic_agent.py',
  },
  {
    id: 'log-dir',
    kind: 'info',
    anchors: ['log directory set to'],
    pattern: 'log directory set to: (?<dir>.*)$',
    samples: [
      'INFO:torch.distributed.elastic.agent.server.local_elastic_agent:log directory set to: /tmp/torchelastic_163muxbz/torch1.13-c10d-host-late-job_gj8xbnzc',
    ],
    versions: '1.13 (local_elastic_agent.py), 2.6 (multiprocessing/api.py)',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'reply-file',
    kind: 'info',
    anchors: ['reply file to'],
    pattern:
      'Setting worker(?<local_rank>\\d+) reply file to: (?<path>\\S*?(?:/(?<run>[^/]+)_(?<rand>[^/_]+)/attempt_(?<attempt>\\d+)/\\d+/error\\.json)?)$',
    samples: [
      '2026-11-29T18:35:49.824635253Z INFO:torch.distributed.elastic.multiprocessing:Setting worker0 reply file to: /tmp/torchelastic_1mr9re3t/none_bcuudk96/attempt_0/0/error.json',
    ],
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'group-success',
    kind: 'exit',
    anchors: ['worker group successfully finished'],
    pattern: 'worker group successfully finished\\. Waiting (?<secs>[\\d.]+) seconds for other agents to finish',
    samples: [
      '2026-11-29T18:35:59.832820083Z INFO:torch.distributed.elastic.agent.server.api:[default] worker group successfully finished. Waiting 300 seconds for other agents to finish.',
    ],
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'local-finished',
    kind: 'info',
    anchors: ['Local worker group finished'],
    pattern: 'Local worker group finished \\((?<state>WorkerState\\.\\w+)\\)',
    samples: [
      '2026-11-29T18:35:59.832960442Z INFO:torch.distributed.elastic.agent.server.api:Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish',
    ],
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'exit-barrier-done',
    kind: 'exit',
    anchors: ['Done waiting for other agents'],
    pattern: 'Done waiting for other agents\\. Elapsed: (?<elapsed>[\\d.eE+-]+) seconds',
    effects: { exitBarrierPassed: true },
    samples: [
      '2026-11-29T18:35:59.846128070Z INFO:torch.distributed.elastic.agent.server.api:Done waiting for other agents. Elapsed: 0.013040781021118164 seconds',
    ],
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    // Benign when Elapsed is tiny (a peer that passed the barrier already exited); a failure near 300 s.
    id: 'exit-barrier-error',
    kind: 'error',
    anchors: ['Error waiting on exit barrier'],
    pattern: 'Error waiting on exit barrier\\. Elapsed: (?<elapsed>[\\d.eE+-]+) seconds',
    samples: [
      'E1129 18:29:52.168000 816 torch/distributed/elastic/agent/server/api.py:954] Error waiting on exit barrier. Elapsed: 0.011683940887451172 seconds',
    ],
    effects: { stage: 'exit-barrier', role: 'consequence', primaryIfAtLeast: { field: 'elapsed', value: 250 } },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'restart',
    kind: 'restart',
    anchors: ['attempts left; will restart worker group'],
    pattern:
      '\\[(?<role>[^\\]]{0,80})\\] Worker group (?<state>\\w+)\\. (?<left>\\d+)/(?<max>\\d+) attempts left; will restart worker group',
    samples: [
      // Template of api.py `_invoke_run` (1.13–2.6), shaped as 2.6 prints it (own pid, time and counts).
      'I1201 09:14:22.318000 2207 torch/distributed/elastic/agent/server/api.py:874] [default] Worker group FAILED. 2/3 attempts left; will restart worker group',
    ],
    effects: { newAttempt: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    // local_elastic_agent's error before it restarts or gives up (1.9–1.10, torchelastic 0.2).
    id: 'worker-group-failed',
    kind: 'error',
    anchors: ['] Worker group failed'],
    pattern: '\\[(?<role>[^\\]]{0,80})\\] Worker group failed$',
    samples: ['ERROR:torch.distributed.elastic.agent.server.local_elastic_agent:[default] Worker group failed'],
    effects: { stage: 'worker-error', role: 'consequence', tornDown: true },
    versions: '≤ 1.10 (local_elastic_agent), torchelastic 0.2',
    source: 'torch/distributed/elastic/agent/server/local_elastic_agent.py; shape from pytorch/pytorch#64990',
  },
  {
    id: 'membership-change',
    kind: 'restart',
    anchors: ['new nodes from group_rank'],
    pattern:
      '\\[(?<role>[^\\]]{0,80})\\] Detected (?<n>\\d+) new nodes from group_rank=(?<g>\\d+); will restart worker group',
    samples: [
      'INFO:torch.distributed.elastic.agent.server.api:[default] Detected 1 new nodes from group_rank=0; will restart worker group',
    ],
    effects: { grewWorld: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    id: 'sigterm-sent',
    kind: 'error',
    anchors: ['closing signal', 'via signal'],
    pattern: '(?:Sending process (?<pid>\\d+) closing signal|Closing process (?<pid2>\\d+) via signal) (?<sig>SIG\\w+)',
    samples: [
      'W1129 18:41:40.439000 6301 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 6423 closing signal SIGTERM',
    ],
    effects: { stage: 'other', role: 'consequence', tornDown: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'death-signal',
    kind: 'failure',
    anchors: ['death signal, shutting down workers'],
    pattern: 'Received (?<sig>\\S+) death signal, shutting down workers',
    samples: [
      // api.py `_shutdown` path (1.13–2.6); Python 3.11+ prints the signal as its number (docs §4.1).
      'W1201 09:20:03.551000 2207 torch/distributed/elastic/agent/server/api.py:704] Received 15 death signal, shutting down workers',
    ],
    effects: { stage: 'other', role: 'consequence', tornDown: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/agent/server/api.py',
  },
  {
    // The agent's own exit on that signal: its handler raises SignalException, which ends torchrun's traceback.
    // A signal from outside (SIGHUP when the terminal of a `nohup`-less or lost session closes, SIGTERM from the
    // scheduler), not a worker's error.
    id: 'agent-signal-exception',
    kind: 'failure',
    anchors: ['SignalException: Process '],
    pattern: 'SignalException: Process (?<pid>\\d{1,9}) got signal: (?<sig>\\d{1,3})',
    samples: [
      'torch.distributed.elastic.multiprocessing.api.SignalException: Process 3107402 got signal: 1',
      'SignalException: Process 88213 got signal: 15',
    ],
    effects: { stage: 'other', role: 'consequence', tornDown: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/api.py (_terminate_process_handler)',
  },
  {
    id: 'worker-failed',
    kind: 'error',
    anchors: ['failed (exitcode: '],
    pattern:
      'failed \\(exitcode: (?<exitcode>-?\\d+)\\) local_rank: (?<local_rank>\\d+) \\(pid: (?<pid>\\d+)\\) of (?:binary|fn): (?<what>\\S+)',
    samples: [
      'E1129 18:40:43.373000 6282 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 6416) of binary: /usr/bin/python3.13',
    ],
    effects: { stage: 'worker-error', role: 'consequence', tornDown: true, reportsWorkerExit: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/api.py',
  },
  {
    id: 'child-failed',
    kind: 'failure',
    anchors: ['ChildFailedError'],
    // A paste whose newlines collapsed runs the banner's `====` on after it, and the block's fields with it:
    // the first `host : ` of the block names the node (every failure it lists is one of its workers).
    pattern: '(?:^|[\\s.:])ChildFailedError:?\\s*(?:$|={8}(?:.*?\\shost {1,8}: (?<host>[\\w.-]{1,200}))?)',
    samples: [
      'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ',
      'line 268, in launch_agent raise ChildFailedError( torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ============================================================',
    ],
    effects: {
      finalReport: true,
      stage: 'worker-error',
      role: 'consequence',
      timeField: 'time',
      workerRankField: 'rank',
      identity: [{ kind: 'hostname', field: 'host', read: 'trim' }],
    },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/errors/__init__.py',
  },
  {
    id: 'child-failed-field',
    kind: 'field',
    // Also with the runs of blanks collapsed to one, as a web page shows the block (a paste site, a rendered
    // comment): `host : ip-172-31-44-19`.
    anchors: [
      'time      : ',
      'host      : ',
      'rank      : ',
      'exitcode  : ',
      'error_file: ',
      'time : ',
      'host : ',
      'rank : ',
      'exitcode : ',
    ],
    pattern: '^\\s*(?<key>time|host|rank|exitcode|error_file) {0,8}: (?<val>.*)$',
    samples: [
      '  time      : 2026-11-29_18:40:42',
      '  host      : node0',
      'exitcode  : 1 (pid: 2231)',
      'host : ip-172-31-44-19.us-west-2.compute.internal',
    ],
    blockOf: 'child-failed',
    maxDistance: 120,
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/multiprocessing/errors/__init__.py',
  },
];
