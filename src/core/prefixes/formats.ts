import { makeClock } from '../time';
import { clockNoYear, isoClock, num, pushClock } from './clocks';
import type { PrefixRow } from './types';

// Format prefixes: the program that printed the line, at most one per line. PyTorch's own formats are also
// searched anywhere in the line (`anywhere`), so a wrapper no row knows does not hide them. Shapes and
// versions: shared/docs/pytorch-log-formats.md §4.

const LEVELS: Record<string, string> = { V: 'DEBUG', I: 'INFO', W: 'WARNING', E: 'ERROR', C: 'CRITICAL', F: 'FATAL' };

/** What may stand just before a format prefix that a wrapper pushed right: a separator of some kind. */
const BEFORE = '(?<=^|[\\s\\]):>|#,;])';
const anywhere = (re: RegExp): RegExp => new RegExp(BEFORE + re.source.replace(/^\^/, ''));

const GLOG =
  /^(?<lvl>[VIWEC])(?<M>\d{2})(?<D>\d{2}) (?<t>(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{6})) (?<id>\d{1,20}) (?<path>[^\s\]]{1,300}?\.py):(?<line>\d{1,7})\](?: \[(?:\d{1,6}\/\d{1,6}(?:_\d{1,6})?|__\w{1,40})\]){0,4} ?/;
const CPP_NEW =
  /^\[(?<lvl>[IWEF])(?<md>\d{3,4}) (?<t>(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}))\.(?<f>\d{9}) (?<file>[^\]]{1,300}?):(?<line>\d{1,7})\] /;
const CPP_GLOG_YEAR =
  /^(?<lvl>[IWEF])(?<Y>\d{4})(?<M>\d{2})(?<D>\d{2}) (?<t>(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{6})) {1,8}(?<tid>\d{1,20}) (?<file>[^\]\s]{1,300}?):(?<line>\d{1,7})\] /;
const CPP_OLD = /^\[(?<lvl>[IWEF]) (?<file>[^\]\s]{1,300}?):(?<line>\d{1,7})\] /;
const BRACKET =
  /^\[(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3}))\] (?:\[[^\]]{1,200}\] )?(?<logger>[\w.]{1,200}): \[(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)\] ?/;
const BASIC = /^(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL):(?<logger>[\w.]{1,200}):/;
const BASIC_TORCH = /^(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL):(?<logger>torch\.[\w.]{1,200}):/;
const TORCHELASTIC =
  /^\[(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)\] (?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3})) (?<logger>[\w.]{1,200}): /;
const HCCL =
  /^\[(?<lvl>ERROR|WARNING|INFO|DEBUG|EVENT)\] (?<mod>[A-Z_]{1,20})\((?<pid>\d{1,9}),(?<proc>[^)]{0,100})\):(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})-(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{3})\.\d{3}) \[(?<file>[^\]]{1,200}):(?<line>\d{1,7})\] ?(?:\[\d{1,12}\])?/;
const CANN_CODE =
  /^(?<code>[A-Z]{2}\d{4}): (?:\[PID: (?<pid>\d{1,9})\] )?(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})-(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{3})\.\d{3}) /;

export const FORMAT_PREFIXES: PrefixRow[] = [
  {
    // 2.3+ Python logging through torch._logging: no year, local time, µs field = ms × 1000.
    id: 'glog',
    pytorch: true,
    re: GLOG,
    anywhere: anywhere(GLOG),
    implies: '2.3+',
    apply: (g, out) => {
      pushClock(out, clockNoYear('glog', g, `${g.M}${g.D} ${g.t}`, 1));
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.path!;
      out.glogId = num(g.id);
    },
    samples: ['I1129 18:29:55.433000 943 torch/distributed/run.py:675] Using nproc_per_node=2.'],
  },
  {
    // 2.4+ C++: month-day unpadded; the 9-digit fraction is CLOCK_MONOTONIC, so only whole seconds are wall-clock.
    id: 'cpp-new',
    pytorch: true,
    re: CPP_NEW,
    anywhere: anywhere(CPP_NEW),
    implies: '2.4+',
    apply: (g, out) => {
      const md = num(g.md);
      pushClock(
        out,
        makeClock('cpp-new', `${g.md} ${g.t}`, {
          year: null,
          month: Math.floor(md / 100),
          day: md % 100,
          hour: num(g.h),
          minute: num(g.m),
          second: num(g.s),
          resolutionMs: 1000,
        }),
      );
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.file!;
    },
    samples: [
      '[W1129 18:31:02.042019295 TCPStore.cpp:330] [c10d] TCP client failed to connect/validate to host node0:29520',
    ],
  },
  {
    // 1.13 C++ through glog proper: `E20261129 18:11:37.385901 16422 socket.cpp:860] ` — has the year.
    id: 'cpp-glog-year',
    pytorch: true,
    re: CPP_GLOG_YEAR,
    anywhere: anywhere(CPP_GLOG_YEAR),
    apply: (g, out) => {
      pushClock(out, isoClock('cpp-glog-year', g, `${g.Y}${g.M}${g.D} ${g.t}`, false));
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.file!;
    },
    samples: [
      'E20261129 19:17:51.761351 31449 socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to (node0, 29811).',
    ],
  },
  {
    id: 'cpp-old',
    pytorch: true,
    re: CPP_OLD,
    anywhere: anywhere(CPP_OLD),
    apply: (g, out) => {
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.file!;
    },
    samples: [
      '[W socket.cpp:601] [c10d] The client socket has failed to connect to [node0]:29500 (errno: 99 - Cannot assign requested address).',
      '[W ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:601] [c10d] The client socket has failed to connect to [ws-07]:29500 (system error: 10049 - The requested address is not valid in its context.).',
    ],
  },
  {
    // 2.1–2.2: `[2024-03-12 08:22:45,549] torch.distributed.launcher.api: [INFO] `.
    id: 'bracket',
    pytorch: true,
    re: BRACKET,
    anywhere: anywhere(BRACKET),
    implies: '2.1–2.2',
    apply: (g, out) => {
      pushClock(out, isoClock('bracket', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
    samples: [
      '[2024-03-12 08:22:45,549] torch.distributed.launcher.api: [INFO] Starting elastic_operator with launch configs:',
    ],
  },
  {
    // 1.13–2.0 root basicConfig: no time at all. Anywhere only with a torch logger: `INFO:root:` is anyone's.
    id: 'basic',
    pytorch: true,
    re: BASIC,
    anywhere: anywhere(BASIC_TORCH),
    implies: '≤2.0',
    apply: (g, out) => {
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
    samples: ["INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group"],
  },
  {
    // etcd rendezvous handler's own format.
    id: 'etcd',
    pytorch: true,
    re: /^(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3})) /,
    apply: (g, out) => {
      pushClock(out, isoClock('etcd', g, g.t!, false));
      out.level = g.lvl!;
    },
    samples: ['INFO 2021-06-29 12:04:57,008 Attempting to join next rendezvous'],
  },
  {
    // torchelastic 0.2 and torch 1.9–1.10's elastic: `[INFO] 2021-06-29 12:04:55,391 api: `.
    id: 'torchelastic',
    pytorch: true,
    re: TORCHELASTIC,
    anywhere: anywhere(TORCHELASTIC),
    implies: '≤1.10',
    apply: (g, out) => {
      pushClock(out, isoClock('torchelastic', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
    samples: ["[INFO] 2021-09-14 14:02:56,862 api: [default] Rendezvous'ing worker group"],
  },
  {
    // CANN plog: `[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049]`.
    id: 'hccl',
    re: HCCL,
    anywhere: anywhere(HCCL),
    apply: (g, out) => {
      pushClock(out, isoClock('hccl', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.file!;
    },
    samples: [
      '[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]',
    ],
  },
  {
    // torch_npu: `[ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 …`.
    id: 'npu',
    re: /^\[(?<lvl>ERROR|WARNING|INFO|DEBUG)\] (?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})-(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})) \(PID:(?<pid>\d{1,9}), Device:(?<dev>\d{1,4}), RankID:(?<rank>-?\d{1,7})\) /,
    apply: (g, out) => {
      pushClock(out, isoClock('npu', g, g.t!, false));
      out.level = g.lvl!;
      if (Number(g.rank) >= 0) out.ranks.push(num(g.rank));
    },
    samples: ['[ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 OPS call acl api failed'],
  },
  {
    // CANN error code line, with or without the pid: `EI0006: [PID: 1234] 2025-04-08-18:07:20.444.436 …`.
    // The code stays in the message: the catalogue reads it.
    id: 'cann-code',
    re: CANN_CODE,
    anywhere: anywhere(CANN_CODE),
    apply: (g, out) => {
      pushClock(out, isoClock('cann', g, g.t!, false));
      out.level = 'ERROR';
      out.origin = g.code!;
    },
    msgPrefix: (g) => `${g.code}: `,
    samples: [
      'EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.',
    ],
  },
  {
    // torch_npu and other C++ extensions through glog without a time: `W NPUStream.cpp:409] `.
    id: 'cpp-bare',
    re: /^(?<lvl>[IWEF]) (?<file>[\w.-]{1,200}\.(?:cpp|cc|cxx|h|hpp|ts)):(?<line>\d{1,7})\] /,
    apply: (g, out) => {
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.file!;
    },
    samples: ['W NPUStream.cpp:409] Warning: NPU warning, error code is 507046[Error]: '],
  },
  {
    // DeepSpeed and dlrover: `[2023-09-08 14:25:23,207] [INFO] [training.py:480:launch_agent] msg`.
    id: 'deepspeed',
    re: /^\[(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3}))\] \[(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)\] \[(?<file>[\w.-]{1,200}\.py):(?<line>\d{1,7}):(?<fn>\w{1,120})\] /,
    apply: (g, out) => {
      pushClock(out, isoClock('deepspeed', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.file!;
    },
    samples: [
      '[2023-09-08 14:25:23,210] [INFO] [training.py:480:launch_agent] Starting elastic_operator with launch configs:',
    ],
  },
  {
    // vLLM: `ERROR 02-17 07:44:33 engine.py:366] msg` (no year).
    id: 'vllm',
    re: /^(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<M>\d{2})-(?<D>\d{2}) (?<t>(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})) (?<file>[\w.-]{1,200}\.py):(?<line>\d{1,7})\] /,
    apply: (g, out) => {
      pushClock(out, clockNoYear('vllm', g, `${g.M}-${g.D} ${g.t}`, 1000));
      out.level = g.lvl!;
      out.origin = g.file!;
    },
    samples: [
      'ERROR 02-17 07:44:33 engine.py:366] RuntimeError: NCCL error: internal error - please report this issue to the NCCL developers',
    ],
  },
  {
    // Hugging Face: `03/12/2024 08:22:45 - INFO - logger - msg`.
    id: 'hf',
    re: /^(?<M>\d{2})\/(?<D>\d{2})\/(?<Y>\d{4}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}) - (?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) - (?<logger>[\w.]{1,200}) - /,
    apply: (g, out, matched) => {
      pushClock(out, isoClock('hf', g, matched.slice(0, 19), false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
    samples: ['03/12/2024 08:22:45 - INFO - __main__ - Process rank: 3, device: cuda:3, n_gpu: 1'],
  },
  {
    // Python logging as scripts set it up: `%(asctime)s %(levelname)s %(name)s: %(message)s`. A logger name has
    // a dot or is one of Python's own (`root`, `__main__`): `INFO step: 5` is a message, not a logger.
    id: 'py-asctime',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3}))(?: - (?<logger2>[\w.]{1,200}) -)? (?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)(?: -)? (?:(?<logger>[\w]{1,60}\.[\w.]{1,200}|root|__main__): |- )?/,
    apply: (g, out) => {
      pushClock(out, isoClock('py-asctime', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger ?? g.logger2 ?? null;
    },
    samples: [
      '2026-11-29 18:16:16,076 INFO torch.distributed.distributed_c10d: Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 with 8 nodes.',
    ],
  },
  {
    // Hydra's job logging (fairseq-hydra-train, NeMo and other Hydra apps): `[ts][logger][LEVEL] - msg`.
    id: 'hydra',
    re: /^\[(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3}))\]\[(?<logger>[\w.-]{1,200})\]\[(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)\] - /,
    apply: (g, out) => {
      pushClock(out, isoClock('hydra', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
    samples: [
      '[2021-12-17 16:36:32,821][torch.distributed.distributed_c10d][INFO] - Waiting in store based barrier to initialize process group for rank: 0, key: store_based_barrier_key:1 (world_size=16, worker_count=8, timeout=0:30:00)',
    ],
  },
  {
    // fairseq and metaseq: `2022-05-04 10:31:07 | INFO | torch.distributed.distributed_c10d | msg`.
    id: 'fairseq',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})) \| (?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) \| (?<logger>[\w.-]{1,200}) \| /,
    apply: (g, out) => {
      pushClock(out, isoClock('fairseq', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
    samples: [
      '2022-05-04 10:31:07 | INFO | torch.distributed.distributed_c10d | Added key: store_based_barrier_key:1 to store for rank: 5',
    ],
  },
  {
    // Any other line that starts with an ISO date-time (training scripts, DeepSpeed, fairseq, sglang…).
    id: 'iso',
    re: /^\[?(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})[T ](?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})(?:[.,](?<f>\d{1,9}))?(?<z>Z|[+-]\d{2}:?\d{2})?)\]?(?:[ \t|]|$)/,
    apply: (g, out) => pushClock(out, isoClock('iso', g, g.t!, Boolean(g.z))),
    samples: ['2024-06-23 15:37:01 | INFO | rank 4/8 | step 120 | loss 2.31'],
  },
];
