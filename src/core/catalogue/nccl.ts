import type { CatalogueEntry } from './types';

// NCCL as PyTorch reports it (ProcessGroupNCCL.cpp, NCCLUtils) and as NCCL itself prints it
// (`host:pid:tid [dev] NCCL INFO|WARN …`, with NCCL_DEBUG set). Templates: docs/pytorch-log-formats.md §5.9.

export const NCCL: CatalogueEntry[] = [
  {
    id: 'nccl-unique-id',
    kind: 'failure',
    anchors: ['ncclUniqueId from [0]'],
    pattern:
      "\\[(?<rank>\\d+)\\] is setting up NCCL communicator and retr(?:ei|ie)ving ncclUniqueId from \\[0\\] via c10d key-value store by key '(?<key>[^']*)', but store->get\\('[^']*'\\) got error: (?<err>.*)",
    samples: [
      "RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
    ],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'primary' },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp',
  },
  {
    // A watchdog timeout on the first few collectives is a startup problem; SeqNum in the thousands is a hang.
    id: 'collective-watchdog',
    kind: 'failure',
    anchors: ['Watchdog caught collective operation timeout'],
    pattern:
      'Watchdog caught collective operation timeout: Work(?<lib>NCCL|HCCL)\\(SeqNum=(?<seq>\\d+), OpType=(?<op>\\w+)[^)]{0,300}?Timeout\\(ms\\)=(?<timeout>\\d+)\\) ran for (?<ran>\\d+) milliseconds',
    samples: [
      '[rank9]:[E218 04:54:22.061694977 ProcessGroupNCCL.cpp:616] [Rank 9] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600081 milliseconds before timing out.',
    ],
    effects: {
      comm: 'nccl',
      stage: 'collective-timeout',
      role: 'primary',
      refine: 'seq',
      limit: { field: 'timeout', unit: 'ms' },
    },
    versions: '1.13–2.6 (NCCL), torch_npu (HCCL)',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp; torch_npu ProcessGroupHCCL',
  },
  {
    // c10d's wrapper of a failed NCCL call: during PG/DDP construction or the first collective it is the
    // communicator's setup (a peer not reachable), later a failure in training.
    id: 'nccl-error',
    kind: 'failure',
    anchors: ['NCCL error in: '],
    pattern:
      'NCCL error in: (?<file>[^,\\s]+):(?<line>\\d+), (?<reason>[^,]{1,200}?)(?: \\(run with NCCL_DEBUG=INFO for details\\))?, NCCL version (?<ver>[\\d.]+)',
    samples: [
      'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3',
      'RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, internal error, NCCL version 2.14.3',
    ],
    effects: {
      comm: 'nccl',
      stage: 'comm-init',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init', 'comm-init'],
    },
    versions: '1.8–2.6',
    source: 'torch/csrc/distributed/c10d/NCCLUtils.hpp (C10D_NCCL_CHECK)',
  },
  {
    // NCCL's own return-code trail through init/bootstrap: the communicator could not be set up.
    id: 'nccl-init-rc',
    kind: 'failure',
    anchors: ['init.cc:', 'bootstrap.cc:'],
    pattern: 'NCCL INFO (?<file>(?:[\\w.-]+/)?(?:init|bootstrap)\\.cc):(?<line>\\d+) -> (?<rc>[1-9]\\d*)',
    samples: [
      'gpu-b12:40411:40522 [3] NCCL INFO bootstrap.cc:84 -> 2',
      'gpu-b12:40411:40522 [3] NCCL INFO init.cc:1388 -> 2',
    ],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'primary' },
    versions: 'NCCL 2.x with NCCL_DEBUG=INFO',
    source: 'NCCL (src/include/checks.h NCCLCHECK trace)',
  },
  {
    id: 'nccl-warn',
    kind: 'error',
    anchors: ['NCCL WARN '],
    pattern: 'NCCL WARN (?<text>.+)$',
    samples: ['gpu-b12:40411:40522 [3] NCCL WARN Net : Connect to 10.0.4.11<43215> failed : Connection timed out'],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'consequence' },
    versions: 'NCCL 2.x with NCCL_DEBUG set',
    source: 'NCCL (WARN macro)',
  },
  {
    // NCCL_DEBUG=INFO chatter: shows NCCL ran; on its own it says nothing of a failure.
    id: 'nccl-info',
    kind: 'info',
    anchors: ['NCCL INFO '],
    pattern: 'NCCL INFO (?<text>.+)$',
    samples: ['gpu-b12:40411:40411 [0] NCCL INFO Bootstrap : Using eth0:10.0.4.12<0>'],
    effects: { comm: 'nccl' },
    once: true,
    versions: 'NCCL 2.x with NCCL_DEBUG=INFO',
    source: 'NCCL (INFO macro)',
  },
  {
    // A C++ backtrace of the watchdog: the collective timed out (a SeqNum nearby tells a startup collective).
    id: 'nccl-watchdog-frame',
    kind: 'failure',
    anchors: ['c10d::ProcessGroupNCCL::'],
    pattern:
      'frame #\\d+: (?:c10d::)?ProcessGroupNCCL::(?<fn>WorkNCCL::checkTimeout|watchdogHandler|ncclCommWatchdog|workCleanupLoop)',
    samples: [
      'frame #2: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 (0x7f3c2a1b4c12 in /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so)',
    ],
    effects: { comm: 'nccl', stage: 'collective-timeout', role: 'consequence' },
    versions: '2.0–2.6',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (C++ backtrace of the watchdog thread)',
  },
];
