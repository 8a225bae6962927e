import type { CatalogueEntry } from './types';

// Ascend: CANN error codes and torch_npu's errors, as Ascend jobs print them (a code line `EI0006: [PID: n] ts
// text`, with or without the pid, then an indented Solution block). Connect codes (EI0006, EJ0001) are
// communicator setup; execution codes (EI0002, EE1002, EH9999, 507046) are collectives that never finished.
// Meanings and knobs: CANN docs (HCCL_CONNECT_TIMEOUT, HCCL_EXEC_TIMEOUT); shapes: Ascend issue threads
// (vllm-ascend, MindSpeed, LLaMA-Factory), own values.

export const CANN: CatalogueEntry[] = [
  {
    id: 'cann-ei0006',
    kind: 'failure',
    anchors: ['EI0006'],
    pattern:
      'EI0006\\)?:?\\s{0,8}(?:\\[PID: \\d{1,9}\\]\\s{0,4})?(?:(?<time>\\d{4}-\\d\\d-\\d\\d-\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\.\\d{3})\\s{0,4})?(?<detail>.*)$',
    samples: [
      'EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck',
      '[PID: 812] 2025-12-02-07:46:19.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. The remote does not initiate a connect request.',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', timeField: 'time' },
    versions: 'CANN (HCCL_CONNECT_TIMEOUT)',
    source: 'CANN error code EI0006',
  },
  {
    // A leftover process still holds the device: HCCP (the NPU's communication process) cannot start.
    id: 'cann-ej0001',
    kind: 'failure',
    anchors: ['EJ0001'],
    pattern: 'EJ0001:?\\s{0,8}(?:\\[PID: \\d{1,9}\\]\\s{0,4})?(?:[\\d:.-]{20,30}\\s{0,4})?(?<detail>.*)$',
    samples: [
      'EJ0001: 2024-06-17-15:42:08.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.',
    ],
    // Raised when HCCP fails to start, not after a wait for peers: no connect timeout ran out.
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', immediate: true },
    versions: 'CANN',
    source: 'CANN error code EJ0001',
  },
  {
    // An AllReduce (or another HCCL task) waited HCCL_EXEC_TIMEOUT for a notify from a remote rank.
    id: 'cann-ei0002',
    kind: 'failure',
    anchors: ['EI0002'],
    pattern:
      // The text up to "remote rank" is read one way only (no lazy run before an optional group), so a line
      // that does not end where `$` wants cannot make the search quadratic.
      'EI0002:?\\s{0,8}(?:\\[PID: \\d{1,9}\\]\\s{0,4})?(?:[\\d:.-]{20,30}\\s{0,4})?(?<detail>(?:[^r\\n]|r(?!emote rank))*(?:remote rank:? ?\\[?(?<remote>\\d{1,10})\\]?)?.*)',
    samples: [
      'EI0002: [PID: 27713] 2025-10-11-15:09:34.713.335 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank: [24].',
    ],
    effects: { comm: 'hccl', stage: 'collective-timeout', role: 'primary' },
    versions: 'CANN (HCCL_EXEC_TIMEOUT)',
    source: 'CANN error code EI0002',
  },
  {
    // The reason is looked for in the next 400 characters only: on a line that repeats the code, an unbounded
    // look at every occurrence made the search quadratic.
    id: 'cann-stream-sync-timeout',
    kind: 'failure',
    anchors: ['EE1002', 'EH9999'],
    pattern:
      '(?<code>EE1002|EH9999):?\\s{0,8}(?:\\[PID: \\d{1,9}\\]\\s{0,4})?(?:[\\d:.-]{20,30}\\s{0,4})?(?=.{0,400}?(?:[Ss]tream synchronize timeout|wait for compute device to finish failed|task timeout|Inner Error))(?<detail>.*)',
    samples: [
      'EE1002: 2024-10-08-22:31:00.041.231 Stream synchronize timeout. rtDeviceSynchronize execute failed, reason=[stream sync timeout]',
      'EH9999: 2024-08-21-02:16:40.450.757  wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]',
    ],
    effects: { comm: 'hccl', stage: 'collective-timeout', role: 'primary' },
    versions: 'CANN',
    source: 'CANN error codes EE1002, EH9999',
  },
  {
    // The NPU driver refused a call about the device itself (CANN's inner error under EK9999, often under an
    // HCCL communicator error): that node's driver or card is at fault, not a peer that was late.
    id: 'cann-driver-fault',
    kind: 'failure',
    anchors: ['Failed to drv', 'Failed to hal'],
    pattern: 'Failed to (?<call>(?:drv|hal)[A-Z]\\w{1,60})(?:, ret=(?<ret>-?\\d{1,9}))?',
    samples: [
      'EK9999: [PID: 20417] 2025-04-14-19:47:39.308.705 Failed to drvGetPlatformInfo, ret=4[FUNC:DrvGetPlatformInfo][FILE:ai_drv_dev_api.cpp][LINE:79]',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', localFault: true },
    versions: 'CANN (EK9999 inner errors)',
    source: 'CANN driver API (ai_drv_dev_api.cpp); shape: vllm-project/vllm-ascend#516',
  },
  {
    // An Ascend MoE operator that communicates across ranks itself (dispatch/combine over HCCL) refused its
    // call: a distributed job's worker failed in it. Its code and the CANN lines below say why (a shape check,
    // HCCL resources); on its own it is the worker's error, raised at once.
    id: 'npu-moe-distribute-op',
    kind: 'failure',
    anchors: ['call aclnnMoeDistribute'],
    pattern: 'call aclnn(?<op>MoeDistribute\\w{1,40}) failed, error code is (?<code>\\d{1,9})',
    samples: [
      '(V1lmWorker TP1 pid=974) ERROR 09-10 09:46:59 [multiproc_executor.py:596] RuntimeError: npu_moe_distribute_dispatch_v2:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:128 NPU function error: call aclnnMoeDistributeDispatchV2 failed, error code is 561002',
    ],
    effects: { comm: 'hccl', stage: 'worker-error', role: 'primary', weakEvidence: true, immediate: true },
    versions: 'torch_npu with CANN 8 aclnn MoE operators (vLLM-Ascend)',
    source: 'torch_npu npu_moe_distribute_dispatch*; shapes: vllm-project/vllm-ascend#2754, #9872',
  },
  {
    // An Ascend operator that communicates itself (MoE dispatch/combine) could not get its HCCL resources: the
    // communicator behind it was never set up (CANN's inner error under EZ9999).
    id: 'cann-hccl-resource',
    kind: 'failure',
    anchors: ['fails to invoke the Hccl'],
    pattern:
      '(?:(?<time>\\d{4}-\\d\\d-\\d\\d-\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\.\\d{3}) [^\\n]{0,80}?)?fails to invoke the (?<fn>Hccl\\w{1,60}) function',
    samples: [
      'EZ9999[PID: 2304] 2026-06-03-06:08:38.902.117 AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl library.',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', weakEvidence: true, timeField: 'time' },
    versions: 'CANN 8 (aclnn operators with built-in communication)',
    source: 'CANN nnopbase (aclnn MoeDistributeDispatch/Combine); shape: vllm-project/vllm-ascend#9872',
  },
  {
    // torch_npu's device synchronize failing with a timeout code (507046 / 107020): device work never finished.
    id: 'npu-sync-error',
    kind: 'failure',
    anchors: ['NPU function error: aclrtSynchronize', 'NPU warning, error code is'],
    pattern:
      '(?:NPU function error: (?<fn>aclrtSynchronize\\w{0,40}), error code is (?<code>\\d{1,9})|NPU warning, error code is (?<code2>507046|107020))',
    samples: [
      'RuntimeError: npuSynchronizeDevice:torch_npu/csrc/core/npu/NPUStream.cpp:435 NPU function error: aclrtSynchronizeDevice, error code is 507046',
      'W NPUStream.cpp:409] Warning: NPU warning, error code is 507046[Error]: ',
    ],
    effects: { comm: 'hccl', stage: 'collective-timeout', role: 'primary', refine: 'frames', refineTo: ['comm-init'] },
    versions: 'torch_npu',
    source: 'torch_npu/csrc/core/npu/NPUStream.cpp',
  },
  {
    // torch_npu calling HCCL failed (communicator creation or an HCCL op): the code says why.
    id: 'npu-hccl-error',
    kind: 'failure',
    anchors: ['HCCL function error', 'HCCL error in:', 'OPS function error: Hccl'],
    pattern:
      '(?:HCCL function error: (?<fn>\\w{1,80})\\(.{0,300}?\\), error code is (?<code>\\d{1,9})|HCCL error in: (?<file>\\S{1,200})|OPS function error: (?<op>Hccl\\w{1,60}), error code is (?<code2>\\d{1,9}))',
    samples: [
      'RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7',
      'RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64',
      'RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS function error: HcclAllreduce, error code is 6',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary' },
    versions: 'torch_npu',
    source: 'torch_npu/csrc/distributed/ProcessGroupHCCL.cpp, OpParamMaker.cpp',
  },
  {
    // torch_npu's code for an HCCL call that failed (ERR02200): the distributed side.
    id: 'npu-err-code',
    kind: 'error',
    anchors: [' ERR0'],
    pattern: '(?<code>ERR0\\d{4}) (?<text>DIST call hccl api failed)',
    samples: ['[ERROR] 2025-05-19-10:33:49 (PID:3301874, Device:5, RankID:5) ERR02200 DIST call hccl api failed.'],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'consequence' },
    versions: 'torch_npu',
    source: 'torch_npu error codes (ERR02200)',
  },
  {
    // torch_npu's code for an operator or runtime call that failed (ERR01100 OPS, ERR00100 PTA): every NPU
    // program prints it, one card or many (`RankID:-1` outside a process group), after a collective's HCCL error
    // as after a tensor op's shape error. On its own it shows no distributed job.
    id: 'npu-ops-err-code',
    kind: 'error',
    anchors: [' ERR0'],
    pattern: '(?<code>ERR0\\d{4}) (?<text>(?:OPS|PTA) call acl api failed)',
    samples: [
      '[ERROR] 2025-05-19-10:33:48 (PID:3301874, Device:5, RankID:5) ERR01100 OPS call acl api failed.',
      '[ERROR] 2024-11-27-14:05:33 (PID:410832, Device:0, RankID:-1) ERR01100 OPS call acl api failed',
    ],
    effects: { stage: 'other', role: 'consequence', notTorchEvidence: true },
    versions: 'torch_npu',
    source: 'torch_npu error codes (ERR01100, ERR00100); shape: modelscope/ms-swift#2517',
  },
];
