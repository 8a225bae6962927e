import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointHost, hintsFromPath, hostFromNodeId } from '../src/core/identity';
import { CAPTURED, analyseTexts } from './helpers';
import { sentenceText } from '../src/i18n/sentence';

// Node identity from the names real jobs give their files (../shared/docs/real-world-variants.md).

const named = (p: string) => hintsFromPath(p).find((h) => h.kind === 'name')?.value;
const rank = (p: string) => hintsFromPath(p).find((h) => h.kind === 'node-rank')?.value;

describe('identity from file and folder names', () => {
  it('node numbers, Kubeflow roles, ranks and job-array files', () => {
    expect(named('logs/node3.log')).toBe('node3');
    expect(named('trainjob-worker-1.log')).toBe('trainjob-worker-1');
    expect(rank('trainjob-worker-1.log')).toBe('2');
    expect(rank('trainjob-master-0.log')).toBe('0');
    expect(named('nccl_trace_rank_container-node02_5')).toBe('node02');
    expect(named('trainer-rank-5.out')).toBe('rank-5');
    expect(named('job_node_rank_3.log')).toBe('node3');
    expect(named('error-48213-3.out')).toBe('error-48213-3');
    expect(named('gpu-07/stdout.log')).toBe('gpu-07');
    // JobSet / Trainer v2 pods: both indices.
    expect(named('llm-sft-node-0-1.log')).toBe('node-0-1');
    // Slurm's --output=%x-%j-%N / slurm-%j-%N: the node after the job id (a name with a digit in it).
    expect(named('train-88120-gpu-c07.out')).toBe('gpu-c07');
    expect(named('slurm-8812204-cn-g04.out')).toBe('cn-g04');
    expect(named('run-20240521-final.log')).toBe('run-20240521-final');
  });

  it('a file named for its role is named by its own folder, whatever the folder looks like', () => {
    // Ascend servers' console logs collected one folder per server (excerpt set 8).
    expect(named('job/npu-02/console.log')).toBe('npu-02');
    expect(named('trn-b/stdout.log')).toBe('trn-b');
    // The nearest folder that says something: `logs` says nothing, `worker-a` does.
    expect(named('worker-a/logs/stderr.log')).toBe('worker-a');
    // A file named for itself keeps its own name; its folder is where several nodes' files were put.
    expect(named('pasted/ascend-n0.log')).toBe('ascend-n0');
    expect(named('stdout.log')).toBeUndefined();
    expect(named('npu-02.tar.gz/console.log')).toBe('npu-02');
    expect(named('logs.zip/stdout.log')).toBeUndefined();
  });

  it("an Ascend process log is named by the server's folder it was collected in, else by itself", () => {
    // CANN writes one plog per process (`plog-<pid>_<start time>.log`) under `…/plog/` (excerpt set 12).
    expect(named('npu-a01/plog/plog-41207_20250912101912.log')).toBe('npu-a01');
    expect(named('npu-a01/device-3/device-3_20250912101913.log')).toBe('npu-a01');
    expect(named('plog/plog-41207_20250912101912.log')).toBe('plog-41207_20250912101912');
    expect(named('plog-41207_20250912101912.log')).toBe('plog-41207_20250912101912');
  });

  it('a torchrun --log-dir tree names the agent’s run folder and the local rank', () => {
    const h = hintsFromPath('job/node1_logdir/s5-job_8qsqphfk/attempt_0/1/stderr.log');
    expect(h.find((x) => x.kind === 'logdir')?.value).toBe('job/node1_logdir/s5-job_8qsqphfk');
    expect(h.find((x) => x.kind === 'label')?.value).toBe('local_rank 1');
    expect(named('job/node1_logdir/s5-job_8qsqphfk/attempt_0/1/stderr.log')).toBe('node1');
  });

  it('says where each hint came from, in English for the JSON and as a sentence every language words', () => {
    const h = hintsFromPath('job/node1_logdir/s5-job_8qsqphfk/attempt_0/1/stderr.log');
    const logdir = h.find((x) => x.kind === 'logdir')!;
    expect(logdir.evidence).toBe(
      "--log-dir layout s5-job_8qsqphfk/attempt_0/1/ (one agent's run folder, run_id s5-job)",
    );
    expect(sentenceText('en', logdir.sentence)).toBe(logdir.evidence);
    expect(sentenceText('zh', logdir.sentence)).toBe(
      '--log-dir 目录结构 s5-job_8qsqphfk/attempt_0/1/（一个 agent 的运行目录，run_id 为 s5-job）',
    );
    const worker = hintsFromPath('trainjob-worker-1.log').find((x) => x.kind === 'node-rank')!;
    expect(worker.evidence).toBe('Kubeflow PyTorchJob name: worker-k is node_rank k+1: trainjob-worker-1');
    expect(sentenceText('zh', worker.sentence)).toBe(
      'Kubeflow PyTorchJob 命名：worker-k 即 node_rank k+1：trainjob-worker-1',
    );
  });

  it('c10d node ids and endpoints give host names', () => {
    expect(hostFromNodeId('node1_6643_0')).toBe('node1');
    expect(hostFromNodeId('gpu-a100-3.cluster.local_1_0')).toBe('gpu-a100-3.cluster.local');
    expect(endpointHost('node0:29400')).toBe('node0');
    expect(endpointHost('[::1]:29400')).toBe('::1');
  });
});

describe('identity from a shell prompt', () => {
  // A terminal pasted with its prompt (excerpt sets 11–13: `root@dgx-02:/ws# deepspeed …`, an Ascend
  // server's `[root@npu-a02 llm-ft]# bash run.sh`): the prompt names the machine of the file's one stream.
  const run = readFileSync(path.join(CAPTURED, 'torch2.6-static-host-late-fail', 'node1.log'), 'utf8');
  const hostOf = (first: string) => analyseTexts({ 'machine1.log': `${first}\n${run}` }).nodes[0]!.hostname;

  it('names the node by the machine in the prompt before a launcher or a script', () => {
    expect(hostOf('root@gpu-n111:/data/train/Megatron-LM# bash gpt3.sh 0')).toBe('gpu-n111');
    expect(hostOf('(venv) ml@trn-b07:~/job$ torchrun --nnodes=2 --nproc_per_node=8 --node_rank=1 train.py')).toBe(
      'trn-b07',
    );
    expect(hostOf('[root@npu-a02 llm-ft]# python3 -m torch.distributed.run --nproc_per_node 8 train.py')).toBe(
      'npu-a02',
    );
  });

  it('reads no machine from an e-mail address or a prompt before another command', () => {
    expect(hostOf('contact ml@trn-b07.example.org for access')).not.toBe('trn-b07.example.org');
    expect(hostOf('root@gpu-n111:/data# ls -la')).not.toBe('gpu-n111');
  });
});
