import type { CatalogueEntry } from './types';

// What the frameworks around torch.distributed print as they call init_process_group for a rank: Lightning
// (Trainer and Fabric), Ray Train, DeepSpeed, fairseq. A paste that holds only these lines and then stops is a
// torch.distributed job hanging in its process-group setup, not "another program": the lines are torch
// evidence and stand where pg-init-begin stands in a script's own output. The DeepSpeed launcher
// (deepspeed.launcher.launch, started once per node by the deepspeed runner over pdsh/ssh) is that node's
// launch, as torchrun's banner is: its timed lines place the node when torch's own lines carry no time.

export const FRAMEWORKS: CatalogueEntry[] = [
  {
    id: 'lightning-init-distributed',
    kind: 'info',
    anchors: [
      'Initializing distributed: GLOBAL_RANK',
      'initializing ddp: GLOBAL_RANK',
      'initializing distributed: GLOBAL_RANK',
    ],
    pattern:
      '[Ii]nitializing (?:distributed|ddp): GLOBAL_RANK: (?<rank>\\d{1,7}), MEMBER: (?<member>\\d{1,7})/(?<world>\\d{1,7})',
    samples: [
      'Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/5',
      'initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/8',
      'I0302 07:14:52.118027 139912233076544 distributed.py:244] Initializing distributed: GLOBAL_RANK: 5, MEMBER: 6/16',
    ],
    effects: { entersStage: 'pg-init' },
    versions: 'PyTorch Lightning 1.x ("initializing ddp"), Lightning ≥ 1.6 and Fabric ("Initializing distributed")',
    source:
      'lightning/fabric/utilities/distributed.py _init_dist_connection; shapes: Lightning-AI/pytorch-lightning#19606 (2.2), #10098 (1.4)',
  },
  {
    // Rank 0 prints it once init_process_group has returned: every member of the world registered.
    id: 'lightning-all-registered',
    kind: 'pg-ready',
    anchors: ['All distributed processes registered'],
    pattern: 'All distributed processes registered\\. Starting with (?<world>\\d{1,7}) processes',
    samples: ['0: All distributed processes registered. Starting with 8 processes'],
    once: true,
    versions: 'Lightning ≥ 1.6 and Fabric',
    source:
      'lightning/fabric/utilities/distributed.py _init_dist_connection; shape: Lightning-AI/litgpt#1832 (behind srun -l labels)',
  },
  {
    // sglang's model runner on each tensor-parallel rank: it calls torch.distributed's initialisation now.
    id: 'sglang-dist-begin',
    kind: 'info',
    anchors: ['Init torch distributed begin'],
    pattern: 'Init torch distributed begin\\.',
    samples: ['[2024-08-07 10:21:12 TP0] Init torch distributed begin.'],
    effects: { entersStage: 'pg-init' },
    versions: 'sglang ≥ 0.2 (srt/model_executor/model_runner.py)',
    source: 'sglang srt/model_executor/model_runner.py init_torch_distributed; shape: sgl-project/sglang#958',
  },
  {
    // sglang's launcher reporting that a rank's scheduler process died while the server started (older releases
    // print it without "during initialization"): -9 is a SIGKILL (the OOM killer, or sglang's own watchdog).
    id: 'sglang-scheduler-died',
    kind: 'failure',
    anchors: ['scheduler died'],
    pattern: 'Rank (?<rank>\\d{1,7}) scheduler died(?: during initialization)? \\(exit code:? (?<code>-?\\d{1,4})\\)',
    samples: [
      'RuntimeError: Rank 0 scheduler died during initialization (exit code: -9). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer.',
      '[2026-08-20 14:07:22] Rank 0 scheduler died (exit code: -9)',
    ],
    effects: { stage: 'other', role: 'primary', tornDown: true, killedInStage: true },
    versions: 'sglang (srt/entrypoints/engine.py _wait_for_scheduler_ready)',
    source: 'sglang srt/entrypoints/engine.py _scheduler_died_error',
  },
  {
    // The same runner creating its NCCL communicator (older sglang; newer ones go on to "Init torch distributed ends").
    id: 'sglang-nccl-begin',
    kind: 'info',
    anchors: ['Init nccl begin'],
    pattern: 'Init nccl begin\\.',
    samples: ['[2024-08-07 10:21:14 TP1] Init nccl begin.'],
    effects: { entersStage: 'comm-init', comm: 'nccl' },
    versions: 'sglang 0.1–0.3 (srt/managers/controller/model_runner.py)',
    source: 'sglang model_runner.py init_torch_distributed; shapes: sgl-project/sglang#958, #3099',
  },
  {
    id: 'ray-train-pg-setup',
    kind: 'info',
    anchors: ['Setting up process group for'],
    pattern:
      'Setting up process group for:\\s{0,2}(?<method>\\S{1,200}) \\[rank=(?<rank>\\d{1,7}), world_size=(?<world>\\d{1,7})\\]',
    samples: ['(RayTrainWorker pid=20417, ip=10.4.0.12) Setting up process group for: env:// [rank=0, world_size=2]'],
    effects: { entersStage: 'pg-init' },
    versions: 'Ray Train (TorchTrainer, ray/train/torch/config.py)',
    source: 'ray/train/torch/config.py _setup_torch_process_group; shape: ray-project/ray#45825',
  },
  {
    id: 'deepspeed-init-distributed',
    kind: 'info',
    anchors: ['Initializing TorchBackend in DeepSpeed'],
    pattern: 'Initializing TorchBackend in DeepSpeed with backend (?<backend>\\w{1,16})',
    samples: [
      '[2024-05-14 09:12:40,518] [INFO] [comm.py:637:init_distributed] Initializing TorchBackend in DeepSpeed with backend nccl',
    ],
    effects: { entersStage: 'pg-init' },
    versions: 'DeepSpeed ≥ 0.8 (deepspeed.comm.init_distributed)',
    source: 'deepspeed/comm/comm.py init_distributed; shape: deepspeedai/DeepSpeed#3318, OptimalScale/LMFlow#406',
  },
  {
    // vLLM's parallel layout of a rank (vllm/distributed/parallel_state.py): it runs in a torch.distributed world
    // of that size — other programs print nothing like it, but it is vLLM's, so it is weak evidence only.
    id: 'vllm-rank-layout',
    kind: 'info',
    anchors: [' is assigned as DP rank '],
    pattern:
      'rank (?<rank>\\d{1,7}) in world size (?<world>\\d{1,7}) is assigned as DP rank (?<dp>\\d{1,7}), PP rank (?<pp>\\d{1,7}), TP rank (?<tp>\\d{1,7})',
    samples: [
      '(Worker_DP1_TP0_EP8 pid=2301) INFO 06-03 06:00:36 [parallel_state.py:1208] rank 8 in world size 16 is assigned as DP rank 1, PP rank 0, TP rank 0, EP rank 8',
    ],
    effects: { weakEvidence: true },
    versions: 'vLLM ≥ 0.10 (V1 engine)',
    source: 'vllm/distributed/parallel_state.py (initialize_model_parallel); shape: vllm-project/vllm-ascend#9872',
  },
  {
    // fairseq's distributed_init, just before it calls init_process_group for the rank.
    id: 'fairseq-distributed-init',
    kind: 'info',
    anchors: ['distributed init (rank '],
    pattern: 'distributed init \\(rank (?<rank>\\d{1,7})\\): (?<method>\\S{1,200})',
    samples: [
      '[2021-12-17 17:15:04,011][fairseq.distributed.utils][INFO] - distributed init (rank 8): env://',
      '2022-05-04 10:31:05 | INFO | fairseq.distributed.utils | distributed init (rank 5): tcp://10.40.1.11:29511',
    ],
    effects: { entersStage: 'pg-init' },
    versions: 'fairseq ≥ 0.10 (fairseq/distributed/utils.py distributed_init)',
    source: 'fairseq/distributed/utils.py distributed_init; shape: facebookresearch/fairseq#4082',
  },
  {
    // fairseq's distributed_init once init_process_group returned: the rank's process group is up, on that host.
    id: 'fairseq-distributed-initialized',
    kind: 'info',
    anchors: ['initialized host '],
    pattern: 'initialized host (?<host>[\\w.-]{1,200}) as rank (?<rank>\\d{1,7})$',
    samples: ['2021-08-09 23:23:52 | INFO | fairseq.distributed.utils | initialized host nlp-a100-3 as rank 6'],
    effects: { identity: [{ kind: 'hostname', field: 'host', onlyIfSole: true }] },
    versions: 'fairseq ≥ 0.10 (fairseq/distributed/utils.py distributed_init)',
    source: 'fairseq/distributed/utils.py distributed_init; shape: excerpt set 11 (fairseq spawn launcher, torch 1.9)',
  },
  {
    id: 'deepspeed-launch',
    kind: 'launch',
    anchors: ['WORLD INFO DICT:', 'num_local_procs='],
    pattern:
      '(?:WORLD INFO DICT: |nnodes=(?<nnodes>\\d{1,7}), num_local_procs=(?<nproc>\\d{1,4}), node_rank=(?<node_rank>\\d{1,7}))',
    samples: [
      "gpu-d07: [2024-05-14 09:12:38,002] [INFO] [launch.py:146:main] WORLD INFO DICT: {'gpu-d06': [0, 1], 'gpu-d07': [0, 1]}",
      '[2024-05-14 09:12:38,002] [INFO] [launch.py:152:main] nnodes=2, num_local_procs=2, node_rank=1',
    ],
    effects: { identity: [{ kind: 'node-rank', field: 'node_rank', read: 'trim' }] },
    versions: 'DeepSpeed launcher (deepspeed.launcher.launch)',
    source:
      'deepspeed/launcher/launch.py main; shapes: huggingface/transformers#22363 (pdsh-labelled), deepspeedai/DeepSpeed#3318',
  },
  {
    // DeepSpeed's per-node launcher (deepspeed.launcher.launch) reporting that one of its worker processes exited
    // non-zero, after killing the others: what torchrun's `failed (exitcode: N) local_rank: …` says.
    id: 'deepspeed-worker-exit',
    kind: 'error',
    anchors: ['exits with return code = '],
    pattern: "(?<cmd>\\['.{1,4000}\\]) exits with return code = (?<exitcode>-?\\d{1,4})",
    samples: [
      "10.31.6.41: [2023-07-28 10:15:12,900] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=1', '--deepspeed', 'ds_config.json'] exits with return code = 1",
    ],
    effects: { stage: 'worker-error', role: 'consequence', tornDown: true, reportsWorkerExit: true },
    versions: 'DeepSpeed launcher (deepspeed.launcher.launch)',
    source: 'deepspeed/launcher/launch.py sigkill_handler; shapes: excerpt sets 6–11 (pdsh-labelled DeepSpeed runs)',
  },
  {
    // `accelerate test` ends its distributed self-test (RNG sync, dataloaders, training across the processes)
    // with this line: the processes met and ran collectives, so the start-up went through.
    id: 'accelerate-test-passed',
    kind: 'first-step',
    anchors: ['Test is a success! You are ready for your distributed training!'],
    pattern: 'Test is a success! You are ready for your distributed training!',
    samples: ['Test is a success! You are ready for your distributed training!'],
    effects: { notTorchEvidence: true },
    once: true,
    versions: 'accelerate ≥ 0.5 (accelerate test)',
    source: 'accelerate/commands/test.py; shape: huggingface/accelerate#806',
  },
];
