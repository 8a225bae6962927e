import { isoClock, num, pushClock } from './clocks';
import type { PrefixRow } from './types';

// Outer prefixes: what collectors, launchers, schedulers and the paste itself add in front of a line,
// peeled repeatedly, outermost first. Real posted logs stack them: `2025-03-27T…Z 3: [default0]:[rank3]:…`.
// Shapes: shared/docs/real-world-variants.md; samples are own values in those shapes.

// Hostnames as pdsh prints them: must carry a digit or a dot, so `RuntimeError: …` and `WARNING: …` are not hosts.
const PDSH_HOST = /^(?<host>(?=[\w.-]{0,62}\d)[A-Za-z0-9][\w.-]{0,62}): /;
const NOT_A_HOST =
  /^(?:[A-Z]{2}\d{4}|[EWIF]\d{4}|frame|line|step|epoch|rank|\d+\.\d+|\d+)$|[a-z][A-Z]|(?:Error|Exception|Warning)$/;

export const OUTER_PREFIXES: PrefixRow[] = [
  {
    // kubectl logs --timestamps (RFC 3339, ns, UTC) and CloudWatch/Loki exports (offset + TAB).
    id: 'rfc3339',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})T(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})(?:[.,](?<f>\d{1,9}))?(?<z>Z|[+-]\d{2}:?\d{2}))[ \t]/,
    apply: (g, out) => pushClock(out, isoClock('rfc3339', g, g.t!, true)),
    samples: [
      '2026-11-29T18:35:49.823610109Z INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous complete for workers. Result:',
      '2023-03-09T10:53:23.670-05:00\tINFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs:',
    ],
  },
  {
    // A log export's local time and a TAB before the line (no zone): Grafana/Loki, ELK CSV-to-text.
    id: 'export-tab',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})[ T](?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})(?:[.,](?<f>\d{1,9}))?)\t/,
    apply: (g, out) => pushClock(out, isoClock('export', g, g.t!, false)),
    samples: ['2025-02-11 07:41:09.118\tI0211 07:41:09.117000 1 torch/distributed/run.py:675] Using nproc_per_node=8.'],
  },
  {
    // A collector's local time and host: `2025-03-27 17:31:09.952  host-23 `.
    id: 'collector',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{3,6})) +(?<host>[A-Za-z][\w.-]{0,62}\d[\w.-]{0,62}) +(?=\S)/,
    apply: (g, out) => {
      pushClock(out, isoClock('collector', g, g.t!, false));
      out.host = g.host!;
      out.hostKeysStream = true;
    },
    samples: [
      '2025-03-27 17:31:09.952  host-23 I0327 09:31:09.951000 1 torch/distributed/run.py:675] Using nproc_per_node=8.',
    ],
    splitsStream: true,
    // The collector stamps indented lines too (a launch-config field); one space after the host, not the indent.
    continuation: {
      re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{3,6})) +(?<host>[A-Za-z][\w.-]{0,62}\d[\w.-]{0,62}) /,
      key: (g) => g.host!,
    },
  },
  {
    // `| ts '[%Y-%m-%d %H:%M:%S]'` style stamping of a whole stream.
    id: 'ts-bracket',
    // Not the 2.1–2.2 format (`] logger: [INFO]`) nor DeepSpeed's (`] [INFO] [file.py:N:fn]`): those are formats.
    re: /^\[(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})[ T](?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})(?:[.,](?<f>\d{1,6}))?)\] (?!\S+: \[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\]|\[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\] \[[\w.-]+\.py:\d)/,
    apply: (g, out) => pushClock(out, isoClock('ts-bracket', g, g.t!, false)),
    samples: [
      "[2026-11-30 09:12:44] INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group",
    ],
  },
  {
    // Text quoted from an e-mail or a chat; notebooks exported from Databricks.
    id: 'quote',
    re: /^(?:> ?){1,6}(?=\S)/,
    apply: () => {},
    samples: ['> torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError'],
    lineStartOnly: true,
    // A quoted launch block keeps its indentation: `>   entrypoint       : train.py`.
    continuation: { re: /^(?:> ?){1,6}/, key: () => '' },
  },
  {
    id: 'notebook',
    re: /^# MAGIC ?/,
    apply: () => {},
    samples: ["# MAGIC INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group"],
    lineStartOnly: true,
  },
  {
    // pytest's failure margin: `E       RuntimeError: …`.
    id: 'pytest',
    re: /^E {3,}/,
    apply: () => {},
    samples: [
      'E       torch.distributed.DistNetworkError: The client socket has timed out after 30000ms while trying to connect to (10.2.0.4, 29500).',
    ],
    lineStartOnly: true,
  },
  {
    // HyperPod auto-resume: `[Auto Resume] Info: JobID: 123 TaskID: 4 `.
    id: 'hyperpod',
    re: /^\[Auto Resume\] \w+: JobID: (?<job>\d+) TaskID: (?<task>\d+) /,
    apply: (g, out) => {
      out.host = `task ${g.task}`;
      out.hostKeysStream = true;
      out.hostIsLabel = true;
    },
    samples: [
      '[Auto Resume] Info: JobID: 4411 TaskID: 3 torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError',
    ],
    splitsStream: true,
  },
  {
    // grep over several files: `node3.out:` (with -n, `node3.out:120:`).
    id: 'grep',
    // Without -n the line may begin with a digit only as a date (kubectl logs --timestamps saved to files).
    re: /^(?<file>[\w./-]{1,200}\.(?:log|out|err|txt|stdout|stderr)):(?:\d{1,9}:|(?!\d)|(?=\d{4}-\d\d-\d\d))/,
    apply: (g, out) => {
      out.host = g.file!;
      out.hostKeysStream = true;
      out.hostIsLabel = true;
    },
    samples: [
      'logs/node2.log:E1201 09:00:01.116000 882 torch/distributed/elastic/agent/server/api.py:689] Error waiting on exit barrier. Elapsed: 300.1 seconds',
      'node0.log:14:2026-11-29T19:28:27.521333963Z INFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs:',
    ],
    splitsStream: true,
    lineStartOnly: true,
  },
  {
    // `kubectl logs --prefix` over several pods: `[pod/<pod>/<container>] `. A pod's name is its hostname.
    id: 'kubectl-prefix',
    re: /^\[pod\/(?<pod>[a-z0-9][a-z0-9.-]{0,252})\/(?<container>[a-z0-9][a-z0-9-]{0,62})\] /,
    apply: (g, out) => {
      out.host = g.pod!;
      out.hostKeysStream = true;
    },
    samples: [
      '[pod/ft-job-master-0/pytorch] 2025-07-29T03:10:04.118769404Z W0729 03:10:04.118000 1 site-packages/torch/distributed/run.py:793] *****************************************',
    ],
    splitsStream: true,
    lineStartOnly: true,
  },
  {
    // docker compose: `trainer-0-1  | ` (v2: service and replica, padded to the longest name) or
    // `proj_trainer_1 | ` (v1). The replica index is required, so a user's own `name | value` tables are
    // not taken for services. A service name is no host name (the container's hostname is its id): a label.
    id: 'compose',
    re: /^(?<svc>[A-Za-z0-9][\w.-]{0,62}?[-_]\d{1,4}) {1,40}\| /,
    apply: (g, out) => {
      out.host = g.svc!;
      out.hostKeysStream = true;
      out.hostIsLabel = true;
    },
    samples: [
      'trainer-0-1  | [E1203 08:22:10.330587691 socket.cpp:500] [c10d] The server socket has failed to listen on any local network address.',
      'trn_worker_2 | torch.distributed.DistNetworkError: The client socket has timed out after 900000ms while trying to connect to (10.5.0.2, 29500).',
    ],
    splitsStream: true,
    lineStartOnly: true,
  },
  {
    id: 'slurm',
    re: /^(?<label>\d{1,5}): /,
    apply: (g, out) => void (out.slurm = g.label!),
    samples: ["3: INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group"],
    splitsStream: true,
    lineStartOnly: true,
  },
  {
    // A benchmark runner's label: `gpu-a03 [stderr] ` (milabench-style `job.host [stream] `).
    id: 'runner',
    re: /^(?<host>[A-Za-z0-9][\w.-]{0,62}) \[(?:stdout|stderr|out|err)\] /,
    apply: (g, out) => {
      out.host = g.host!;
      out.hostKeysStream = true;
    },
    samples: [
      'bench.gpu-a03 [stderr] torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.',
    ],
    splitsStream: true,
    lineStartOnly: true,
  },
  {
    // torchx / NeMo-Run: `trainer/0 [0]:` (app, replica, local rank) or `app/0 ` before a prefix.
    id: 'torchx',
    re: /^(?<app>[A-Za-z_][\w-]{0,62})\/(?<idx>\d{1,6}) (?:\[(?<lr>\d{1,4})\]:)?(?=\[|\(|[VIWECF]\d{4} |(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)[: ]|\S*(?:Error|Exception)\b|Traceback \(most recent call last\):| {2}File ")/,
    apply: (g, out) => {
      out.host ??= `${g.app}/${g.idx}`;
      out.hostKeysStream = true;
      // An app and its replica index, not a host name: it tells the replicas apart only.
      out.hostIsLabel = true;
      if (g.lr !== undefined) out.tee ??= { role: g.app!, localRank: num(g.lr) };
    },
    samples: [
      'trainer/0 [0]:[rank0]:[W1201 09:40:02.118220331 socket.cpp:752] [c10d] The client socket has failed to connect to [trainer-0.ft.svc]:29500 (errno: 113 - No route to host).',
      "app/1 [default1]:[rank9]:I1201 09:40:01.003000 44 torch/distributed/elastic/agent/server/api.py:525] [default] Rendezvous'ing worker group",
      'trainer/1 Traceback (most recent call last):',
    ],
    splitsStream: true,
    // torchx prefixes every line of a replica: its traceback frames and launch-config fields too.
    continuation: {
      re: /^(?<app>[A-Za-z_][\w-]{0,62})\/(?<idx>\d{1,6}) (?:\[(?<lr>\d{1,4})\]:)?/,
      key: (g) => `${g.app}/${g.idx}`,
    },
  },
  {
    // Ray actors: `(RayTrainWorker pid=123, ip=10.0.0.2) `. Actors on the head node print no ip.
    id: 'ray',
    re: /^\((?<actor>[\w.]{1,80}) pid=(?<pid>\d{1,9})(?:, ip=(?<ip>[\d.:a-f]{3,45}))?\) /,
    apply: (g, out) => {
      if (g.ip) {
        out.host ??= g.ip;
        out.hostKeysStream = true;
      }
    },
    samples: [
      '(RayTrainWorker pid=40412, ip=10.0.4.11) [W socket.cpp:601] [c10d] The client socket has failed to connect to [10.0.4.10]:29500 (errno: 111 - Connection refused).',
    ],
    splitsStream: true,
  },
  {
    id: 'tee',
    re: /^\[(?!rank\d+\])(?<role>[A-Za-z_][\w.-]{0,40}?)(?<lr>\d{1,4})\]:/,
    apply: (g, out) => void (out.tee = { role: g.role!, localRank: num(g.lr) }),
    samples: [
      '[default0]:2026-11-29 18:16:16,076 INFO torch.distributed.distributed_c10d: Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 with 8 nodes.',
    ],
  },
  {
    id: 'rank',
    re: /^\[rank(?<rank>\d{1,7})\]: ?/,
    apply: (g, out) => void out.ranks.push(num(g.rank)),
    samples: [
      '[rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3',
    ],
  },
  {
    // NCCL's own lines: `host:pid:tid [dev] NCCL INFO …`; the host names the node, the line stays in its stream.
    id: 'nccl',
    re: /^(?<host>[A-Za-z0-9][\w.-]{0,62}):(?<pid>\d{1,9}):(?<tid>\d{1,9}) \[(?<dev>\d{1,3})\] (?=NCCL )/,
    apply: (g, out) => void (out.host ??= g.host!),
    samples: ['gpu-b12:40411:40522 [3] NCCL WARN Net : Connect to 10.0.4.11<43215> failed : Connection timed out'],
  },
  {
    id: 'pdsh',
    re: PDSH_HOST,
    apply: (g, out) => {
      out.host = g.host!;
      out.hostKeysStream = true;
    },
    accept: (g) => !NOT_A_HOST.test(g.host!),
    samples: [
      'node3: torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined.',
    ],
    splitsStream: true,
    lineStartOnly: true,
  },
];
