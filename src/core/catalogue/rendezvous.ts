import type { CatalogueEntry } from './types';

// The rendezvous: dynamic (c10d, etcd-v2: dynamic_rendezvous.py, c10d_rendezvous_backend.py), static
// (static_tcp_rendezvous.py) and legacy etcd (etcd_rendezvous.py). Templates: docs/pytorch-log-formats.md
// §5.4–5.6. The dynamic INFO lines only show with TORCH_LOGS=distributed (2.x) or a logging config (1.x).

export const RENDEZVOUS: CatalogueEntry[] = [
  {
    id: 'dyn-attempt',
    kind: 'info',
    anchors: ['attempts to join the next round'],
    pattern: "The node '(?<node>[^']+)' attempts to join the next round of the rendezvous '(?<run_id>[^']+)'",
    samples: [
      "I1129 18:41:43.428000 6626 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:1146] The node 'node0_6626_0' attempts to join the next round of the rendezvous 's12-job'.",
    ],
    effects: {
      identity: [{ kind: 'hostname', field: 'node', read: 'c10d-node-id' }],
      runIdField: 'run_id',
      backend: 'c10d',
    },
    versions: '1.13–2.6 (INFO, needs TORCH_LOGS=distributed in 2.x)',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'dyn-joined',
    kind: 'info',
    anchors: ['has joined round'],
    pattern:
      "The node '(?<node>[^']+)' has joined round (?<round>\\d+) of the rendezvous '(?<run_id>[^']+)' as rank (?<rank>\\d+) in a world of size (?<world>\\d+)",
    samples: [
      "I1129 18:41:51.616000 6626 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:1182] The node 'node0_6626_0' has joined round 0 of the rendezvous 's12-job' as rank 0 in a world of size 4.",
    ],
    effects: {
      store: 'reached',
      identity: [
        { kind: 'hostname', field: 'node', read: 'c10d-node-id' },
        { kind: 'group-rank', field: 'rank' },
      ],
      facts: { worldNodes: 'world' },
      runIdField: 'run_id',
      backend: 'c10d',
    },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'dyn-closed',
    kind: 'info',
    anchors: ['has closed the rendezvous'],
    pattern: "The node '(?<node>[^']+)' has closed the rendezvous '(?<run_id>[^']+)'",
    samples: [
      "I1129 18:42:00.255000 6626 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:1303] The node 'node0_6626_0' has closed the rendezvous 's12-job'.",
    ],
    effects: { identity: [{ kind: 'hostname', field: 'node', read: 'c10d-node-id' }], runIdField: 'run_id' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'dyn-shutdown-failed',
    kind: 'error',
    anchors: ['has failed to shutdown the rendezvous', 'has failed to send a keep-alive heartbeat'],
    pattern:
      "The node '(?<node>[^']+)' has failed to (?<what>shutdown the rendezvous|send a keep-alive heartbeat to the rendezvous) '(?<run_id>[^']+)' due to an error of type (?<exc>\\w+)",
    samples: [
      "WARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'node1_16917_0' has failed to shutdown the rendezvous 's3-job' due to an error of type RendezvousConnectionError.",
    ],
    effects: {
      stage: 'rendezvous-connection',
      role: 'consequence',
      tornDown: true,
      store: 'lost',
      identity: [{ kind: 'hostname', field: 'node', read: 'c10d-node-id' }],
      runIdField: 'run_id',
    },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    // DEBUG in dynamic_rendezvous.py's sync: peers whose keep-alive stopped are dropped from the round.
    id: 'dyn-peers-removed',
    kind: 'info',
    anchors: ['since they had no heartbeat'],
    pattern:
      "the node\\(s\\) (?<nodes>.+?) have been removed from the rendezvous '(?<run_id>[^']+)' since they had no heartbeat",
    samples: [
      "D1201 09:31:07.004000 3121 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:511] As part of the sync operation the node(s) node2_4410_0 have been removed from the rendezvous 'ft-job' since they had no heartbeat.",
    ],
    // The peers it names stopped their keep-alive: in a failed job they are the nodes that went away.
    effects: { shown: true, runIdField: 'run_id', backend: 'c10d', nodeDown: 'nodes' },
    versions: '1.13–2.6 (DEBUG)',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'c10d-store-host',
    kind: 'info',
    anchors: ['hosts the TCP store for the C10d rendezvous backend'],
    pattern: 'Process (?<pid>\\d+) hosts the TCP store for the C10d rendezvous backend',
    samples: [
      'I1129 18:41:43.422000 6626 torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py:172] Process 6626 hosts the TCP store for the C10d rendezvous backend.',
    ],
    effects: { store: 'hosts', shown: true, backend: 'c10d' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py',
  },
  {
    id: 'static-store',
    kind: 'info',
    anchors: ['Creating TCPStore as the c10d::Store implementation'],
    pattern: 'Creating TCPStore as the c10d::Store implementation',
    samples: [
      'I1201 09:02:11.100000 812 torch/distributed/elastic/rendezvous/static_tcp_rendezvous.py:64] Creating TCPStore as the c10d::Store implementation',
    ],
    effects: { backend: 'static' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/static_tcp_rendezvous.py',
  },
  {
    id: 'etcd-joined',
    kind: 'info',
    anchors: ['Joined rendezvous version'],
    pattern: 'Joined rendezvous version (?<ver>\\d+) as rank (?<rank>\\d+)\\. Full state: (?<state>.*)$',
    samples: [
      "INFO 2021-06-29 12:04:57,008 Joined rendezvous version 3 as rank 1. Full state: {'status': 'joinable', 'version': '3', 'participants': [0, 1]}",
    ],
    effects: { backend: 'etcd', identity: [{ kind: 'group-rank', field: 'rank' }] },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py',
  },
  {
    id: 'etcd-complete',
    kind: 'rendezvous-complete',
    anchors: ['is complete. Final state'],
    pattern: 'Rendezvous version (?<ver>\\d+) is complete\\. Final state: (?<state>.*)$',
    samples: [
      "INFO 2021-06-29 12:05:31,442 Rendezvous version 3 is complete. Final state: {'status': 'final', 'version': '3', 'participants': [0, 1], 'keep_alives': ['/torchelastic/p2p/run_demo/rdzv/v_3/rank_0', '/torchelastic/p2p/run_demo/rdzv/v_3/rank_1'], 'num_workers_waiting': 0}",
    ],
    effects: { backend: 'etcd', store: 'reached', facts: { worldState: 'state' } },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py',
  },
  {
    // A participant of the last round stopped renewing its lease: that round is destroyed and retried.
    id: 'etcd-keepalive-lost',
    kind: 'info',
    anchors: ['is not renewed'],
    pattern: 'Keep-alive key (?<key>\\S+) is not renewed',
    samples: ['INFO 2021-06-29 12:09:02,117 Keep-alive key /torchelastic/p2p/run_demo/rdzv/v_3/rank_1 is not renewed.'],
    effects: { backend: 'etcd', shown: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py (wait_for_rendezvous_to_free)',
  },
  {
    // A node that came to an etcd rendezvous after its round was closed (the last call had passed).
    id: 'etcd-closed',
    kind: 'failure',
    anchors: ['was observed to be closed', "'status': 'closed'"],
    pattern:
      "(?:Rendezvous for run_id=(?<run_id>\\S{1,200}) was observed to be closed|Observed existing rendezvous state: \\{'status': 'closed'(?:, 'version': '\\d{1,9}', 'participants': \\[(?<participants>[\\d, ]{1,4000})\\])?)",
    samples: [
      'INFO 2020-09-02 11:49:58,912 Rendezvous for run_id=ex20-take6 was observed to be closed',
      "INFO 2020-09-02 11:49:58,903 Observed existing rendezvous state: {'status': 'closed', 'version': '1', 'participants': [0, 1], 'num_workers_waiting': 0}",
    ],
    effects: {
      stage: 'rendezvous-closed',
      role: 'primary',
      backend: 'etcd',
      closedRound: 'participants',
      immediate: true,
    },
    versions: '1.13–2.6 (etcd backend)',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py',
  },
  {
    id: 'etcd-timeout',
    kind: 'failure',
    anchors: ['Rendezvous timeout occurred in EtcdRendezvousHandler'],
    pattern: 'Rendezvous timeout occurred in EtcdRendezvousHandler',
    samples: ['INFO 2021-06-29 12:20:01,917 Rendezvous timeout occurred in EtcdRendezvousHandler'],
    effects: { stage: 'rendezvous-timeout', role: 'primary', backend: 'etcd' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/etcd_rendezvous.py',
  },
  {
    id: 'rdzv-timeout-error',
    kind: 'failure',
    anchors: ['RendezvousTimeoutError'],
    pattern: '(?:^|(?<!\\braise)\\s|[.:])RendezvousTimeoutError(?![\\w(])(?::\\s*(?<detail>.*))?$',
    samples: ['torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError'],
    effects: { stage: 'rendezvous-timeout', role: 'primary', backend: 'c10d' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'rdzv-closed-error',
    kind: 'failure',
    anchors: ['RendezvousClosedError'],
    pattern: '(?:^|(?<!\\braise)\\s|[.:])RendezvousClosedError(?![\\w(])(?::\\s*(?<detail>.*))?$',
    samples: ['torch.distributed.elastic.rendezvous.api.RendezvousClosedError'],
    effects: { stage: 'rendezvous-closed', role: 'consequence' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    id: 'rdzv-graceful-exit',
    kind: 'info',
    anchors: ['terminating pending rendezvous'],
    pattern: "The rendezvous '(?<run_id>[^']+)' is closed, terminating pending rendezvous",
    samples: [
      "torch.distributed.elastic.rendezvous.api.RendezvousGracefulExitError: The rendezvous 's4-job' is closed, terminating pending rendezvous.",
    ],
    effects: { runIdField: 'run_id' },
    versions: '2.6',
    source: 'torch/distributed/elastic/rendezvous/dynamic_rendezvous.py',
  },
  {
    // Its cause decides: an inner connect timeout means the store host was not (yet) there; a lost connection
    // means the host went away (a consequence of the host's own failure).
    id: 'rdzv-connection-error',
    kind: 'failure',
    anchors: ['RendezvousConnectionError'],
    pattern: 'RendezvousConnectionError: The connection to the C10d store has failed',
    samples: [
      'torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.',
    ],
    effects: { stage: 'rendezvous-connection', role: 'primary', refine: 'inner', backend: 'c10d' },
    versions: '1.13–2.6',
    source: 'torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py',
  },
];
