import type { CatalogueEntry } from './types';

// torchrun itself (torch/distributed/run.py, launcher/api.py) and the job script around it. Templates:
// shared/docs/pytorch-log-formats.md §5.1; samples from the corpus runs unless a line says otherwise.

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

/** A shell prompt as PS1 sets it (`(env) user@host:dir$ `, `[user@host dir]# `), naming the machine as `machine`. */
const PROMPT =
  '(?:\\([\\w.-]{1,60}\\) )?\\[?[\\w.-]{1,32}@(?<machine>[A-Za-z0-9][\\w.-]{0,62})[: ][^\\s$#\\]]{0,200}\\]?[$#] ';
/**
 * Commands whose prompt line is worth reading for the machine: launchers, the scripts that start them, and the
 * set-up a user types first on that machine (`export NCCL_…`, `cd`, an environment variable before the command).
 */
const PROMPT_COMMANDS = [
  'export',
  'cd',
  'source',
  'conda',
  'CUDA_VISIBLE_DEVICES',
  'ASCEND_RT_VISIBLE_DEVICES',
  'torchrun',
  'python',
  'python3',
  'deepspeed',
  'accelerate',
  'bash',
  'sh',
  'srun',
  'llamafactory-cli',
  'colossalai',
  'swift',
];

export const LAUNCHER: CatalogueEntry[] = [
  {
    id: 'omp-banner',
    kind: 'launch',
    anchors: ['Setting OMP_NUM_THREADS environment variable'],
    pattern: 'Setting OMP_NUM_THREADS environment variable for each process to be (?<omp>\\d+) in default',
    samples: [
      '2026-11-29T18:35:04.735310853Z Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ',
    ],
    // torchrun prints it, and so do launchers that import torch.distributed.run (dlrover): weak on its own.
    effects: { weakEvidence: true },
    versions: '1.13–2.6',
    source: 'torch/distributed/run.py',
  },
  {
    id: 'nproc-info',
    kind: 'launch',
    anchors: ['Using nproc_per_node='],
    pattern: 'Using nproc_per_node=(?<nproc_per_node>\\d+)\\.',
    samples: ['I1129 18:24:49.876000 32111 torch/distributed/run.py:675] Using nproc_per_node=2.'],
    effects: { facts: { nprocPerNode: 'nproc_per_node' } },
    versions: '1.13–2.6',
    source: 'torch/distributed/run.py',
  },
  {
    id: 'launch-config',
    kind: 'launch',
    anchors: ['Starting elastic_operator with launch configs'],
    pattern: 'Starting elastic_operator with launch configs:',
    samples: ['INFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs:'],
    effects: {
      facts: {
        backend: 'rdzv_backend',
        endpoint: 'rdzv_endpoint',
        runId: 'run_id',
        minNodes: 'min_nodes',
        maxNodes: 'max_nodes',
        nprocPerNode: 'nproc_per_node',
        rdzvConfigsDict: 'rdzv_configs',
      },
      identity: [{ kind: 'node-rank', field: 'rdzv_configs', read: 'rdzv-rank' }],
      runIdField: 'run_id',
    },
    versions: '1.13–2.6',
    source: 'torch/distributed/launcher/api.py',
  },
  {
    id: 'launch-config-field',
    kind: 'field',
    anchors: LAUNCH_KEYS.map((k) => `${k} `),
    // `\s*`: a paste may lose the indentation (real-world-variants.md: "traceback indentation stripped"); only
    // lines within maxDistance of a launch block are read as its fields.
    pattern: `^\\s*(?<key>${LAUNCH_KEYS.join('|')}) {0,20}: (?<val>.*)$`,
    samples: [
      '  entrypoint       : train.py',
      "rdzv_configs     : {'rank': 2, 'timeout': 900}",
      "I1129 18:29:55.434000 943 torch/distributed/launcher/api.py:194]   rdzv_configs     : {'timeout': '30', 'rank': 0}",
    ],
    blockOf: 'launch-config',
    // Generous: posted logs may have a blank line between every line.
    maxDistance: 40,
    versions: '1.13–2.6',
    source: 'torch/distributed/launcher/api.py',
  },
  {
    // Another framework's launcher takes torchrun's flags (--nnodes, --node_rank, --master_addr): OneFlow's and
    // Paddle's `python -m <framework>.distributed.launch`. Its job's lines are not PyTorch's.
    id: 'foreign-launch-command',
    kind: 'info',
    anchors: ['oneflow.distributed.launch', 'paddle.distributed.launch', 'mindspore.distributed.launch'],
    pattern: '-m (?:oneflow|paddle|mindspore)\\.distributed\\.launch\\b',
    samples: [
      '+ python3 -m oneflow.distributed.launch --nproc_per_node 2 --nnodes 2 --node_rank 1 --master_addr 10.9.1.4 --master_port 12345 tools/train_net.py',
      'python -m paddle.distributed.launch --gpus 0,1,2,3 --ips 10.9.1.4,10.9.1.5 train.py',
    ],
    effects: { foreign: true, notTorchEvidence: true },
    versions: 'other frameworks (OneFlow, PaddlePaddle, MindSpore)',
    source: "each framework's distributed launcher (oneflow/distributed/launch.py, paddle/distributed/launch)",
  },
  {
    // PyTorch's own distributed test suite (a package build's or CI's test report): its harness starts the
    // ranks itself and kills them after its own timeout. A unit test of the library, not a job's start-up.
    id: 'torch-test-harness',
    kind: 'info',
    anchors: ['common_distributed.py'],
    pattern: 'torch[\\\\/]testing[\\\\/]_internal[\\\\/]common_distributed\\.py',
    samples: [
      '  File "/opt/build/lib/python3.10/site-packages/torch/testing/_internal/common_distributed.py", line 506, in wrapper',
    ],
    effects: { foreign: true, notTorchEvidence: true },
    versions: 'PyTorch test suite (test/distributed)',
    source: 'torch/testing/_internal/common_distributed.py (MultiProcessTestCase)',
  },
  {
    // `colossalai run` starts torchrun on each host of its hostfile over SSH and reports each start that failed,
    // naming the host and whether it is the machine it runs on. A remote host it could not start torchrun on
    // (no SSH login, no route) is who the started agents then wait for.
    id: 'colossalai-remote-launch-failed',
    kind: 'failure',
    anchors: ['Error: failed to run torchrun '],
    pattern:
      'Error: failed to run (?<cmd>torchrun .{1,4000}?) on (?<host>[\\w.:-]{1,200}), is localhost: False, exception: (?<err>.{0,300})$',
    samples: [
      'Error: failed to run torchrun --nproc_per_node=4 --nnodes=2 --node_rank=1 --rdzv_backend=c10d --rdzv_endpoint=10.8.3.21:29501 --rdzv_id=colossalai-default-job train.py on gpu-2217, is localhost: False, exception: No authentication methods available',
    ],
    // Evidence of a torchrun job, as the command is; its flags are the job's (its --node_rank is the remote
    // host's, so it names no node here).
    effects: {
      stage: 'other',
      role: 'primary',
      nodeDown: 'host',
      facts: { launchArgs: 'cmd' },
    },
    versions: 'ColossalAI ≥ 0.1.10 (colossalai run)',
    source:
      'colossalai/cli/launcher/multinode_runner.py and run.py; shape: excerpt set 11 (ColossalAI/Open-Sora threads)',
  },
  {
    // The same report for the machine `colossalai run` runs on: the command it built exited non-zero there —
    // torchrun's own failure when torchrun ran, else its shell or environment (a setup problem, not a node the
    // others waited for).
    id: 'colossalai-local-launch-failed',
    kind: 'failure',
    anchors: ['Error: failed to run torchrun '],
    pattern:
      'Error: failed to run (?<cmd>torchrun .{1,4000}?) on (?<host>[\\w.:-]{1,200}), is localhost: True, exception: (?<err>.{0,300})$',
    samples: [
      'Error: failed to run torchrun --nproc_per_node=2 --nnodes=2 --node_rank=0 --master_addr=172.31.9.14 --master_port=29500 train.py on 172.31.9.14, is localhost: True, exception: Encountered a bad command exit code!',
    ],
    effects: { stage: 'other', role: 'consequence', facts: { launchArgs: 'cmd' } },
    versions: 'ColossalAI ≥ 0.1.10 (colossalai run)',
    source:
      'colossalai/cli/launcher/multinode_runner.py and run.py; shape: excerpt set 11 (ColossalAI/Open-Sora threads)',
  },
  {
    // A launch command with torchrun's own flags, whatever runs it: torchrun, python -m torch.distributed.run,
    // srun/ssh/mpirun wrappers, a shell's xtrace `+ ` or an echo of the command.
    id: 'torchrun-command',
    kind: 'launch',
    anchors: ['--nnodes', '--nproc_per_node', '--nproc-per-node'],
    pattern:
      '^(?=(?:' +
      PROMPT +
      ')?)(?=.*?(?:--nnodes[= ]|--standalone\\b|(?:torchrun|torch\\.distributed\\.(?:run|launch)) (?:.*? )?--nproc[_-]per[_-]node[= ]))(?=.*?--(?:rdzv[_-]backend|nproc[_-]per[_-]node|master[_-]addr|node[_-]rank)[= ])(?<args>.*)$',
    samples: [
      // hpcaitech/Open-Sora issue 667: a one-node launch.
      'torchrun --standalone --nproc_per_node 2 scripts/train.py configs/stage2.py --data-path ./meta/clips.csv',
      // Shape of a Slurm batch script's xtrace (own values): `srun torchrun --nnodes … --rdzv-backend c10d …`.
      '+ srun torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=gpu-a01:29500 --rdzv-id=7781 train.py',
      'torchrun --nnodes=2 --nproc_per_node=4 --node_rank=1 --master_addr=10.0.3.7 --master_port=29500 train.py --epochs 3',
      // Behind a shell prompt that names the machine (excerpt set 11, a 1.12 standalone run).
      '(ldm) lab@ws-3090x2:~/proj/vqgan$ torchrun --standalone --nnodes=1 --nproc_per_node=2 train.py --local_rank 0',
      // One machine through the 1.x launcher, no --nnodes (excerpt set 14).
      'CUDA_VISIBLE_DEVICES="1,2" python -m torch.distributed.launch --nproc_per_node 2 tools/train_net.py --config-file configs/e2e.yaml',
    ],
    effects: {
      facts: { launchArgs: 'args' },
      // A prompt in front names the machine (as `shell-prompt-command` does for other commands).
      identity: [
        { kind: 'node-rank', field: 'args', read: 'node-rank-flag' },
        { kind: 'hostname', field: 'machine', onlyIfSole: true },
      ],
    },
    versions: 'any (the job script echoes or traces the command)',
    source: 'the job script; flags from torch/distributed/run.py',
  },
  {
    id: 'random-run-id',
    kind: 'info',
    anchors: ['generated a random run_id'],
    pattern: 'config has no run_id, generated a random run_id: (?<run_id>\\S+)',
    samples: ['WARNING:torch.distributed.run:config has no run_id, generated a random run_id: 7c1e58d2-5e4a'],
    effects: { runIdField: 'run_id' },
    versions: '1.13–2.6',
    source: 'torch/distributed/run.py',
  },
  {
    id: 'standalone-info',
    kind: 'info',
    anchors: ['--rdzv_backend=', '--rdzv-backend='],
    pattern: '^--rdzv[_-]backend=(?<backend>\\S+) --rdzv[_-]endpoint=(?<endpoint>\\S+) --rdzv[_-]id=(?<run_id>\\S+)',
    samples: ['--rdzv-backend=c10d --rdzv-endpoint=localhost:29400 --rdzv-id=4c9a1f07-1d22-4a8e-9d0b-5b3f2e6c7a10'],
    effects: { facts: { backend: 'backend', endpoint: 'endpoint' }, runIdField: 'run_id' },
    versions: '1.13–2.6 (--standalone)',
    source: 'torch/distributed/run.py',
  },
  {
    // torchrun's own argument parser refused the command line: nothing started.
    id: 'torchrun-usage-error',
    kind: 'failure',
    anchors: ['torchrun: error: ', 'run.py: error: '],
    pattern: '(?:torchrun|run\\.py): error: (?<msg>.{1,300})$',
    samples: ['torchrun: error: the following arguments are required: training_script, training_script_args'],
    effects: { stage: 'other', role: 'primary', neverLaunched: true },
    versions: '1.10–2.6 (argparse)',
    source: 'torch/distributed/run.py (argparse)',
  },
  {
    // `kubectl logs` of a pod whose container never started (its image could not be pulled, it waits for a node):
    // torchrun never ran in that pod.
    id: 'k8s-container-waiting',
    kind: 'failure',
    anchors: ['is waiting to start'],
    pattern:
      'container "(?<container>[^"]{1,100})" in pod "(?<pod>[^"]{1,253})" is waiting to start(?:: (?<why>.{1,200}))?',
    samples: [
      'Error from server (BadRequest): container "pytorch" in pod "bert-ft-worker-1" is waiting to start: trying and failing to pull image',
    ],
    effects: { stage: 'other', role: 'primary', notTorchEvidence: true, neverLaunched: true },
    versions: 'any (kubectl logs)',
    source:
      'kubectl logs (the API server refusing logs of a waiting container); shape: excerpt set 7 PyTorchJob image pull',
  },
  {
    // Slurm reporting that one of the job's nodes went down: that node is the cause of what the others then saw.
    id: 'slurm-node-failure',
    kind: 'error',
    anchors: ['Node failure on '],
    pattern: 'srun: error: Node failure on (?<host>[\\w.-]{1,200})',
    samples: ['srun: error: Node failure on gpu-x07'],
    effects: { stage: 'other', role: 'consequence', notTorchEvidence: true, nodeDown: 'host' },
    versions: 'Slurm',
    source: 'Slurm srun; shape: excerpt set 7 batch output with a node failure',
  },
  {
    // A multi-node runner (pdsh under the DeepSpeed runner, plain ssh loops) could not reach the host: the
    // launcher never ran there. The line stands under that host's own pdsh label.
    id: 'ssh-connect-failed',
    kind: 'failure',
    anchors: ['ssh: connect to host '],
    pattern: 'ssh: connect to host (?<host>[\\w.:-]{1,200}) port \\d{1,5}: (?<err>.{1,200})$',
    samples: ['a100-08: ssh: connect to host a100-08 port 22: Connection timed out'],
    effects: { stage: 'other', role: 'primary', notTorchEvidence: true, neverLaunched: true },
    versions: 'any (OpenSSH, under pdsh or a launcher)',
    source: 'OpenSSH ssh(1); shape: a DeepSpeed runner over pdsh (excerpt set 6, deepspeed-pdsh-second-host-ssh-255)',
  },
  {
    // torch.multiprocessing.spawn (the launcher of mp.spawn DDP scripts, detectron2, fairseq) reporting that one
    // of its processes died: by a signal, an exit code, or an exception whose traceback follows.
    id: 'spawn-process-failed',
    kind: 'error',
    anchors: ['terminated with signal ', 'terminated with exit code ', 'terminated with the following error'],
    // Its own wording (`process N terminated …` in lowercase, `-- Process N terminated with the following
    // error:`), not torch's test harness's `Process 0 terminated with exit code 10, terminating remaining…`.
    pattern:
      '(?:(?:^|[\\s:])process (?<proc>\\d{1,6}) terminated with (?:signal (?<sig>[A-Z]{3,10})|exit code (?<exitcode>-?\\d{1,4}))$|-- Process (?<failed>\\d{1,6}) terminated with the following error:)',
    samples: [
      'Exception: process 1 terminated with signal SIGABRT',
      '-- Process 0 terminated with the following error:',
      'torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with exit code 1',
    ],
    effects: { stage: 'worker-error', role: 'consequence', tornDown: true, reportsWorkerExit: true },
    versions: '1.x–2.6 (torch/multiprocessing/spawn.py)',
    source:
      'torch/multiprocessing/spawn.py (ProcessContext.join); shapes: excerpt sets 11 and 14 (fairseq, detectron2)',
  },
  {
    // The node's job step never ran torchrun: the shell found no such command.
    id: 'torchrun-not-found',
    kind: 'failure',
    anchors: ['torchrun: command not found', 'torchrun: not found'],
    pattern: 'torchrun: (?:command )?not found',
    samples: ['/var/spool/slurmd/job7731/slurm_script: line 38: torchrun: command not found'],
    effects: { stage: 'other', role: 'primary', notTorchEvidence: true, neverLaunched: true },
    versions: 'any (the job script)',
    source: 'the shell; shape from a grep over Slurm node logs (excerpt grep-prefix-across-node-files)',
  },
  {
    // A terminal copied with its prompt (`root@dgx-02:/ws# deepspeed …`, `(env) lab@ws-3090x2:~/proj$ torchrun …`,
    // `[ml@gpu-b07 train]$ bash run.sh`): the prompt names the machine the command ran on. Its field is
    // `machine`, not `host`: a failure's `host` field names the store host it tried to reach.
    id: 'shell-prompt-command',
    kind: 'info',
    anchors: PROMPT_COMMANDS.flatMap((c) => [`$ ${c}`, `# ${c}`]),
    pattern: `^${PROMPT}(?<cmd>(?:${PROMPT_COMMANDS.join('|')})\\b.{0,2000})$`,
    samples: [
      'root@dgx-02:/ws# deepspeed --no_ssh --node_rank=1 --num_nodes=2 --num_gpus=8 --master_addr=10.0.0.51 train.py',
      '(ldm) lab@ws-3090x2:~/proj/vqgan$ python3 tools/train_net.py --num-gpus 2',
      '[root@npu-a02 llm-ft]# bash run_ft_node1.sh',
      '(train) root@gpu-srv-b:~# export NCCL_P2P_LEVEL=NVL',
    ],
    effects: { notTorchEvidence: true, identity: [{ kind: 'hostname', field: 'machine', onlyIfSole: true }] },
    once: true,
    versions: 'any (bash/zsh prompts as PS1 sets them: user@host:dir$, [user@host dir]$)',
    source:
      'shell prompts in pasted terminals; shapes: excerpt sets 11–13 (a 1.12 standalone run, Ascend and DGX consoles)',
  },
  {
    // A GitHub Actions job log names the self-hosted runner's machine in its "Set up job" step.
    id: 'ci-runner-machine',
    kind: 'info',
    anchors: ["Machine name: '"],
    pattern: "^Machine name: '(?<host>[\\w.-]{1,200})'$",
    samples: ["2025-03-04T09:11:42.9442080Z Machine name: 'gpu-r1'"],
    effects: { notTorchEvidence: true, identity: [{ kind: 'hostname', field: 'host', onlyIfSole: true }] },
    once: true,
    versions: 'GitHub Actions (self-hosted runners)',
    source: "actions/runner's job set-up lines (Current runner version, Runner name, Machine name)",
  },
  {
    // Slurm ending the job or a step from outside: its time limit, a preemption, a user's scancel. The ranks were
    // still where their stream last entered (init_process_group waiting, a communicator forming).
    id: 'slurm-cancelled',
    kind: 'failure',
    anchors: [' CANCELLED AT '],
    pattern:
      '\\*\\*\\* (?:JOB|STEP) (?<job>[\\d._]{1,40}) ON (?<host>[\\w.-]{1,200}) CANCELLED AT (?<when>\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2})(?<why> DUE TO [A-Z ]{1,40}| DUE to [A-Z ]{1,40})? \\*\\*\\*',
    samples: [
      'slurmstepd: error: *** JOB 3318842 ON gpu017 CANCELLED AT 2021-02-26T11:42:09 DUE TO TIME LIMIT ***',
      'slurmstepd: error: *** STEP 7781.0 ON gpu-a01 CANCELLED AT 2025-06-04T13:40:00 ***',
    ],
    effects: {
      stage: 'other',
      role: 'primary',
      notTorchEvidence: true,
      tornDown: true,
      killedInStage: true,
      identity: [{ kind: 'hostname', field: 'host', onlyIfSole: true }],
    },
    versions: 'Slurm',
    source: 'Slurm slurmstepd (the job or step cancelled: time limit, preemption, scancel)',
  },
  {
    // A scheduler reporting that a node's task exited: Slurm's `srun: error: host: task N: Exited with exit code N`.
    id: 'runner-exit-code',
    kind: 'error',
    anchors: [': Exited with exit code '],
    pattern:
      'srun: error: (?<host>[\\w.-]{1,200}): tasks? (?<task>[\\d,-]{1,40}): Exited with exit code (?<code>\\d{1,4})',
    samples: ['srun: error: gpu-n04: task 3: Exited with exit code 127'],
    effects: {
      stage: 'other',
      role: 'consequence',
      notTorchEvidence: true,
      identity: [{ kind: 'hostname', field: 'host', onlyIfSole: true }],
    },
    versions: 'Slurm',
    source: 'Slurm srun',
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
      "(?<what>[Dd]ownload\\w*|[Uu]npack\\w*|[Ee]xtract\\w*|tar -x\\w*|pip install|Collecting \\S+|Pulling\\b|rsync|aws s3 (?:cp|sync)|gsutil|wget|curl |sha256sum|Copying|' -> ')",
    samples: [
      '2026-11-29T18:37:46.548536787Z downloading dataset shard s3://trainjob-datasets/shards/shard-00000.tar.gz (525810 bytes)',
      "2026-11-29T18:37:51.514618306Z '/data/generated-capture/scratch/bucket/shard-00000.tar.gz' -> './shard-00000.tar.gz'",
    ],
    effects: { shown: true, notTorchEvidence: true, prelaunch: true },
    heuristic: true,
    untilLaunch: true,
    versions: 'any (job script before torchrun)',
    source: 'the job script',
  },
];
