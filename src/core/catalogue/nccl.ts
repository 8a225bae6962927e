import type { CatalogueEntry } from './types';

// NCCL as PyTorch reports it (ProcessGroupNCCL.cpp, NCCLUtils) and as NCCL itself prints it
// (`host:pid:tid [dev] NCCL INFO|WARN …`, with NCCL_DEBUG set). Templates: docs/pytorch-log-formats.md §5.9.

export const NCCL: CatalogueEntry[] = [
  {
    // NCCL starting a communicator (NCCL_DEBUG=INFO, 2.2x: "ncclCommInitRank … - Init START"): the rank is in
    // communicator set-up from here until "Init COMPLETE".
    id: 'nccl-init-start',
    kind: 'info',
    anchors: [' - Init START'],
    pattern: 'ncclCommInitRank(?:Config)?\\b.{0,300} - Init START',
    samples: [
      'gpu-a1:2211:2211 [0] NCCL INFO ncclCommInitRank comm 0xaaab04c2f7d0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId f01000 commId 0x5e21b0c4a7d913f2 - Init START',
    ],
    effects: { entersStage: 'comm-init', comm: 'nccl', notTorchEvidence: true },
    versions: 'NCCL ≥ 2.18 with NCCL_DEBUG=INFO',
    source: 'NCCL src/init.cc (ncclCommInitRankFunc INFO trace)',
  },
  {
    id: 'nccl-unique-id',
    kind: 'failure',
    anchors: ['ncclUniqueId from [0]'],
    pattern:
      "\\[(?<rank>\\d+)\\] is setting up NCCL communicator and retr(?:ei|ie)ving ncclUniqueId from \\[0\\] via c10d key-value store by key '(?<key>[^']*)', but store->get\\('[^']*'\\) got error: (?<err>(?:wait timeout after (?<ms>\\d{1,12})ms)?.*)",
    samples: [
      "RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
      // 2.4+: the store's own timeout in the text (NVIDIA-NeMo/Speech issue 14399, behind a `name/0 [default1]:` label).
      "torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: wait timeout after 600000ms, keys: /default_pg/0//cuda//0",
    ],
    // The wait is init_process_group's timeout, printed by the store: the limit that fired, in the logs.
    effects: {
      comm: 'nccl',
      stage: 'comm-init',
      role: 'primary',
      waitsForGlobalRank: 0,
      limit: { field: 'ms', unit: 'ms' },
    },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp',
  },
  {
    // A watchdog timeout on the first few collectives is a startup problem; SeqNum in the thousands is a hang.
    // torch ≤ 1.9 prints no SeqNum: the collective is then not known to be an early one.
    id: 'collective-watchdog',
    kind: 'failure',
    anchors: ['Watchdog caught collective operation timeout'],
    pattern:
      'Watchdog caught collective operation timeout: Work(?<lib>NCCL|HCCL)\\((?=(?:(?:[^()]|\\(ms\\)){0,400}?SeqNum=(?<seq>\\d{1,12}))?)(?=(?:[^()]|\\(ms\\)){0,400}?OpType=(?<op>\\w{1,40}))(?=(?:(?:[^()]|\\(ms\\)){0,400}?Timeout\\(ms\\)=(?<timeout>\\d{1,12}))?)(?:[^()]|\\(ms\\)){0,400}\\) ran for (?<ran>\\d{1,15}) (?:milliseconds|ms)',
    samples: [
      '[rank9]:[E218 04:54:22.061694977 ProcessGroupNCCL.cpp:616] [Rank 9] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600081 milliseconds before timing out.',
      '[E ProcessGroupNCCL.cpp:566] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800219 milliseconds before timing out.',
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
    // 2.5+: the watchdog found a collective failed (an error or a timeout it reports elsewhere, or not at all)
    // and names the work by its sequence number; the last completed one says whether the job had been running.
    id: 'collective-watchdog-failure',
    kind: 'failure',
    anchors: ['failure detected by watchdog at work sequence id'],
    pattern: 'failure detected by watchdog at work sequence id: (?<seq>\\d{1,12})',
    samples: [
      // Shape of sgl-project/sglang issue 10216 (own values).
      '[rank1]:[E911 02:14:08.126335825 ProcessGroupNCCL.cpp:2252] [PG ID 2 PG GUID 3 Rank 1]  failure detected by watchdog at work sequence id: 40231 PG status: last enqueued work: 40267, last completed work: 40230',
    ],
    effects: { comm: 'nccl', stage: 'collective-timeout', role: 'primary', refine: 'seq' },
    versions: '2.5–2.6',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (watchdogHandler)',
  },
  {
    // The same report hard-wrapped after its first sentence (older builds, narrow terminals): the Work line
    // alone carries the collective, its SeqNum and how long it ran.
    id: 'collective-watchdog-work',
    kind: 'failure',
    anchors: ['WorkNCCL(', 'WorkHCCL('],
    pattern:
      '^Work(?<lib>NCCL|HCCL)\\((?=(?:(?:[^()]|\\(ms\\)){0,400}?SeqNum=(?<seq>\\d{1,12}))?)(?=(?:[^()]|\\(ms\\)){0,400}?OpType=(?<op>\\w{1,40}))(?=(?:(?:[^()]|\\(ms\\)){0,400}?Timeout\\(ms\\)=(?<timeout>\\d{1,12}))?)(?:[^()]|\\(ms\\)){0,400}\\) ran for (?<ran>\\d{1,15}) (?:milliseconds|ms) before timing out',
    samples: [
      // pytorch/pytorch issue threads (1.x watchdog report wrapped after "operation timeout:").
      'WorkNCCL(OpType=ALLREDUCE, SeqNum=1903) ran for 1800781 ms before timing out.',
    ],
    effects: {
      comm: 'nccl',
      stage: 'collective-timeout',
      role: 'primary',
      refine: 'seq',
      limit: { field: 'timeout', unit: 'ms' },
    },
    versions: '1.x (NCCL), torch_npu (HCCL)',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp',
  },
  {
    // NCCL's CUDA call failed on this rank ('initialization error', a lost device): the node's own GPU or
    // driver, not a wait for a peer.
    id: 'nccl-cuda-error',
    kind: 'failure',
    anchors: ['unhandled cuda error'],
    pattern:
      'NCCL error(?: in: (?<file>[^,\\s]+):(?<line>\\d+),|:) unhandled cuda error(?: \\(run with NCCL_DEBUG=INFO for details\\))?(?:, NCCL version (?<ver>[\\d.]+))?',
    samples: [
      // deepspeed/LLaMA-Factory threads, behind pdsh's host prefix.
      'gpu-worker-3: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1197, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.3',
    ],
    effects: {
      comm: 'nccl',
      stage: 'comm-init',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init', 'comm-init'],
      localFault: true,
    },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/NCCLUtils.hpp (C10D_NCCL_CHECK)',
  },
  {
    // The watchdog thread checks each collective's CUDA events; a kernel that faulted on this rank's GPU (an
    // illegal memory access, an ECC error) surfaces there first. Not a timeout: this rank's own GPU failed,
    // and the others then waited for it.
    id: 'nccl-watchdog-cuda-error',
    kind: 'failure',
    anchors: ['watchdog thread terminated with exception: CUDA error'],
    pattern: 'watchdog thread terminated with exception: (?<err>CUDA error: [^.\\n]{1,200})',
    samples: [
      '[rank3]:[E1014 05:12:48.406119275 ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank 3] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered',
      '[rank5]:[E ProcessGroupNCCL.cpp:1182] [Rank 5] NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered',
    ],
    effects: { comm: 'nccl', stage: 'worker-error', role: 'primary', localFault: true },
    versions: '2.0–2.6',
    source:
      'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (ncclCommWatchdog); shapes: excerpt set 14 (axolotl, a two-node GEMM test)',
  },
  {
    // NCCL's remote error (ncclRemoteError): a peer's process exited or its connection dropped. The rank did
    // not run out of a wait of its own; it failed because the peer went away, so a peer that crashed is the
    // cause, wherever this rank's untimed lines seem to place it.
    id: 'nccl-remote-exit',
    kind: 'failure',
    anchors: ['remote process exited or there was a network error'],
    pattern:
      'NCCL error(?: in: (?<file>[^,\\s]+):(?<line>\\d+),|:) (?<reason>remote process exited or there was a network error)(?:, NCCL version (?<ver>[\\d.]+))?',
    samples: [
      // Shape of NVIDIA/nccl issue 875 (own values).
      '[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3384, remote process exited or there was a network error, NCCL version 2.21.5',
      '[rank0]:[E520 09:41:42.151847156 ProcessGroupNCCL.cpp:1886] [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5',
    ],
    effects: {
      comm: 'nccl',
      stage: 'comm-init',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init', 'comm-init'],
      immediate: true,
      peerGone: true,
    },
    versions: '2.1–2.6 (NCCL 2.13+)',
    source: 'torch/csrc/distributed/c10d/NCCLUtils.hpp (getNcclErrorDetailStr: ncclRemoteError)',
  },
  {
    // c10d's wrapper of a failed NCCL call: during PG/DDP construction or the first collective it is the
    // communicator's setup (a peer not reachable), later a failure in training.
    id: 'nccl-error',
    kind: 'failure',
    anchors: ['NCCL error in: ', 'NCCL error: '],
    pattern:
      'NCCL error(?: in: (?<file>[^,\\s]+):(?<line>\\d+),|:) (?<reason>[^,(]{1,200})(?:\\(run with NCCL_DEBUG=INFO for details\\))?(?:, NCCL version (?<ver>[\\d.]+))?',
    samples: [
      // vLLM's own NCCL wrapper (vllm-project/vllm issue threads), the same failure of communicator setup.
      'ERROR 02-17 07:44:33 engine.py:366] RuntimeError: NCCL error: internal error - please report this issue to the NCCL developers',
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
    effects: { comm: 'nccl', stage: 'comm-init', role: 'primary', weakEvidence: true },
    versions: 'NCCL 2.x with NCCL_DEBUG=INFO',
    source: 'NCCL (src/include/checks.h NCCLCHECK trace)',
  },
  {
    // nccl-tests' header: NCCL lines in this file come from NCCL's own test programs, not from PyTorch.
    id: 'nccl-tests',
    kind: 'info',
    anchors: ['# nThread ', 'Test NCCL failure '],
    // A paste's indentation may stand before the header, which comes before any line the indent is learned from.
    pattern: '^[ \\t]{0,16}(?:# nThread \\d{1,6} nGpus \\d{1,6}|Test NCCL failure \\w{1,40}\\.cu:\\d{1,6})',
    samples: [
      '# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
      // The test's own failure report, which a paste often keeps without the header (NVIDIA/nccl-tests issue 231).
      "gpu-hx3: Test NCCL failure common.cu:997 'internal error'",
      '    # nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
    ],
    effects: { foreign: true, notTorchEvidence: true },
    versions: 'nccl-tests',
    source: 'NVIDIA nccl-tests (all_reduce_perf and the other perf programs)',
  },
  {
    // One rank could not open its bootstrap or transport connection to a peer: the communicator cannot form.
    id: 'nccl-connect-warn',
    kind: 'failure',
    anchors: ['NCCL WARN '],
    pattern:
      'NCCL WARN (?:(?:Net|NET/\\w+|\\w+) : )?(?:socketStartConnect: )?Connect to (?<addr>\\S{1,200}) failed : (?<err>.{1,200})$',
    samples: [
      'gz2-v100-09:771302:773118 [0] include/socket.h:390 NCCL WARN Connect to 10.52.6.140<31877> failed : Connection refused',
      'b48-gpu-112:30515:30666 [5] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to fe80::a82c:3fff:fe11:9e40%ib1<23155> failed : Software caused connection abort',
    ],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'primary', weakEvidence: true },
    versions: 'NCCL 2.x with NCCL_DEBUG set',
    source: 'NCCL (socket.h / socket.cc connect); shapes from NCCL and DeepSpeed issue threads',
  },
  {
    // Two processes claimed the same rank: the bootstrap root refuses the second.
    id: 'nccl-duplicate-rank',
    kind: 'failure',
    anchors: ['has already checked in'],
    pattern: 'Bootstrap Root : rank (?<rank>\\d{1,7}) of (?<n>\\d{1,7}) ranks has already checked in',
    samples: [
      'hpc-31-07:44101:44312 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 1 of 8 ranks has already checked in',
    ],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'primary', weakEvidence: true },
    versions: 'NCCL 2.x',
    source: 'NCCL bootstrap.cc (root)',
  },
  {
    // The error class c10d prints under "NCCL error in …" (2.x), and NCCL's own bootstrap failing to find an interface.
    id: 'nccl-result',
    kind: 'error',
    anchors: ['ncclSystemError', 'ncclInternalError', 'ncclUnhandledCudaError', 'ncclRemoteError', 'ncclInvalidUsage'],
    pattern:
      '(?<code>nccl(?:SystemError|InternalError|UnhandledCudaError|RemoteError|InvalidUsage)): (?<text>.{1,300})',
    samples: [
      'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. It can be also caused by unexpected exit of a remote peer, you can check NCCL warnings for failure reason and see if there is connection closure by a peer.',
    ],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'consequence', weakEvidence: true },
    versions: '2.0–2.6',
    source: 'torch/csrc/distributed/c10d/NCCLUtils.hpp (getNcclErrorDetailStr)',
  },
  {
    id: 'nccl-no-interface',
    kind: 'failure',
    anchors: ['no socket interface found'],
    pattern: 'Bootstrap : no socket interface found',
    samples: ['Bootstrap : no socket interface found'],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'primary', weakEvidence: true },
    versions: 'NCCL 2.x',
    source: 'NCCL bootstrap (NCCL_SOCKET_IFNAME matches nothing)',
  },
  {
    // The node's own InfiniBand port went down under NCCL (an async event of its HCA): its collectives then stall
    // on every node; the node whose port failed is the cause, not a late peer.
    id: 'nccl-ib-port-error',
    kind: 'error',
    anchors: ['Got async event : port error'],
    pattern: 'NET/IB : Got async event : port error',
    samples: ['gpu048:34050:34121 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error'],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'consequence', weakEvidence: true, localFault: true },
    versions: 'NCCL 2.x with NCCL_DEBUG set (net_ib.cc)',
    source: 'NCCL transport/net_ib.cc (async event handler); shape: excerpt set 7 (IB port error)',
  },
  {
    // NCCL's socket to a peer was closed from the other end: that peer's process went away (it crashed or was
    // killed). A consequence on this rank; the peer (`host<port>`) is kept in the evidence for the reader.
    id: 'nccl-peer-closed',
    kind: 'error',
    anchors: ['Connection closed by remote peer'],
    pattern: 'NCCL WARN (?:\\w+: )?Connection closed by remote peer (?<peer>[\\w.:%-]{1,200})<(?<port>\\d{1,5})>',
    samples: [
      // Shape of NVIDIA/nccl-tests issue 166 (own host names and ports).
      'a100-p03:71231:71402 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer a100-p04<57557>',
      'gpu-r2:3311:3407 [1] include/socket.h:409 NCCL WARN Connection closed by remote peer 10.4.0.12<41327>',
    ],
    effects: {
      comm: 'nccl',
      stage: 'comm-init',
      role: 'consequence',
      weakEvidence: true,
      immediate: true,
      peerGone: true,
    },
    versions: 'NCCL 2.x with NCCL_DEBUG set',
    source: 'NCCL misc/socket.cc (socketProgress)',
  },
  {
    id: 'nccl-warn',
    kind: 'error',
    anchors: ['NCCL WARN '],
    pattern: 'NCCL WARN (?<text>.+)$',
    samples: ['ptwop-176:1755:1755 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]'],
    effects: { comm: 'nccl', stage: 'comm-init', role: 'consequence', weakEvidence: true },
    versions: 'NCCL 2.x with NCCL_DEBUG set',
    source: 'NCCL (WARN macro)',
  },
  {
    // ProcessGroupNCCL::barrier() before the rank's device is known (2.4+): the process group exists and the
    // rank reached its first barrier; the communicator is created now.
    id: 'nccl-barrier-device-unknown',
    kind: 'info',
    anchors: ['to perform barrier as devices used by this process are currently unknown'],
    pattern: 'using GPU (?<gpu>\\d{1,4}) to perform barrier as devices used by this process are currently unknown',
    samples: [
      '[rank0]:[W1111 15:13:40.101223118 ProcessGroupNCCL.cpp:4115] [PG ID 0 PG GUID 0 Rank 0]  using GPU 0 to perform barrier as devices used by this process are currently unknown. This can potentially cause a hang if this rank to GPU mapping is incorrect.',
    ],
    effects: { comm: 'nccl' },
    versions: '2.4–2.6',
    source: 'torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (barrier)',
  },
  {
    // NCCL_DEBUG=INFO chatter: shows NCCL ran; on its own it says nothing of a failure.
    id: 'nccl-info',
    kind: 'info',
    anchors: ['NCCL INFO '],
    pattern: 'NCCL INFO (?<text>.+)$',
    samples: ['gpu-b12:40411:40411 [0] NCCL INFO Bootstrap : Using eth0:10.0.4.12<0>'],
    // A job that uses NCCL, most likely through PyTorch; weak: nccl-tests and other NCCL programs print the same.
    effects: { comm: 'nccl', weakEvidence: true },
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
