import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import { analyseTexts } from './helpers';

// Two verdicts that must hold on less than every node's log: who holds the rank the others waited for when no
// log names its ranks, and a training step as proof that the world formed when some logs are missing.
//
// Shapes: the 2.5+ glog launcher banner (`W… site-packages/torch/distributed/run.py:793]`, as in the torch 2.6
// runs of ../shared/corpus), the worker's `[rankN]:` prefix and the 2.4+ ncclUniqueId wait wording "wait timeout
// after 600000ms, keys: /default_pg/0//cuda//0" (NVIDIA-NeMo/Speech issue 14399), the HF Trainer's
// `***** Running training *****` block and `{'loss': …}` dicts (huggingface/transformers Trainer output).

const CAPTURED = path.join(__dirname, 'fixtures', 'captured', 'torch2.6-c10d-elastic-late-join');

const banner = (t: string) =>
  [
    `W0219 ${t}.311000 1 site-packages/torch/distributed/run.py:793] `,
    `W0219 ${t}.311000 1 site-packages/torch/distributed/run.py:793] *****************************************`,
    `W0219 ${t}.311000 1 site-packages/torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. `,
    `W0219 ${t}.311000 1 site-packages/torch/distributed/run.py:793] *****************************************`,
  ].join('\n');

const waiter = (ranks: number[]) =>
  [
    banner('08:00:03'),
    ...ranks.flatMap((r) => [
      `[rank${r}]: Traceback (most recent call last):`,
      `[rank${r}]:   File "/srv/train/prepare.py", line 88, in main`,
      `[rank${r}]:     dist.barrier()`,
      `[rank${r}]:   File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 4164, in barrier`,
      `[rank${r}]:     work = group.barrier(opts=opts)`,
      `[rank${r}]: torch.distributed.DistBackendError: [${r}] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: wait timeout after 600000ms, keys: /default_pg/0//cuda//0`,
    ]),
    `E0219 08:10:05.017000 1 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 4411) of binary: /usr/bin/python3`,
  ].join('\n');

// The rank-0 node is still preparing its data when the others give up: its log shows no rank and no failure.
const preparing = [banner('08:00:01'), 'Tokenizing shards: 41%|████      | 410/1000 [06:47<09:53]'].join('\n');

describe('the node that holds the waited-for rank, when no log names its ranks', () => {
  it('is the only other node, named as inferred, and the wait the store printed is the limit', () => {
    const job = analyseTexts({ 'trn-a.log': preparing, 'trn-b.log': waiter([9, 12]) });
    expect(job.verdict).toBe('failed');
    expect(job.failure?.stage).toBe('comm-init');
    expect(job.failure?.lateNodes).toEqual(['trn-a']);
    const why = job.failure?.reasoning.find((r) => r.code === 'waits-for-rank');
    expect(why?.values).toMatchObject({ waiter: 'trn-b', rank: 0, node: 'trn-a', inferred: 1 });
    expect(job.failure?.limit).toMatchObject({ seconds: 600, from: 'logs' });
  });

  it('names nobody when two nodes could hold it', () => {
    const job = analyseTexts({ 'trn-a.log': preparing, 'trn-c.log': preparing, 'trn-b.log': waiter([9, 12]) });
    expect(job.failure?.stage).toBe('comm-init');
    expect(job.failure?.reasoning.some((r) => r.code === 'waits-for-rank')).toBe(false);
    expect(job.failure?.lateNodes ?? []).not.toContain('trn-a');
  });

  it('names nobody when the waiter’s own ranks are unknown (rank 0 may be its own)', () => {
    const unlabelled = waiter([9]).replace(/^\[rank9\]: /gm, '');
    const job = analyseTexts({ 'trn-a.log': preparing, 'trn-b.log': unlabelled });
    expect(job.failure?.reasoning.some((r) => r.code === 'waits-for-rank')).toBe(false);
  });
});

describe('a training step proves the world formed', () => {
  const trainer = [
    'root@trn-a:/srv/train# torchrun --master_port 6011 --nproc_per_node=8 --nnodes=2 --node_rank=0 --master_addr=10.0.7.1 train.py',
    '[2025-01-16 09:30:12,402] torch.distributed.run: [WARNING] ',
    '[2025-01-16 09:30:12,402] torch.distributed.run: [WARNING] *****************************************',
    '[2025-01-16 09:30:12,402] torch.distributed.run: [WARNING] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ',
    '[2025-01-16 09:30:12,402] torch.distributed.run: [WARNING] *****************************************',
    '[INFO|trainer.py:2369] 2025-01-16 09:31:24,008 >> ***** Running training *****',
    '[INFO|trainer.py:2370] 2025-01-16 09:31:24,008 >>   Num examples = 1,000',
    "{'loss': 1.8742, 'grad_norm': 0.9127, 'learning_rate': 9.99e-05, 'epoch': 0.03}",
    "{'loss': 1.7015, 'grad_norm': 0.8113, 'learning_rate': 9.97e-05, 'epoch': 0.06}",
  ].join('\n');

  it('is healthy with one of two nodes’ logs: the missing log is a finding, not a demotion', () => {
    const job = analyseTexts({ 'trn-a.log': trainer });
    expect(job.verdict).toBe('healthy');
    expect(job.missingCount).toBe(1);
  });

  it('stays incomplete without the step', () => {
    const job = analyseTexts({ 'trn-a.log': trainer.split('\n').slice(0, 5).join('\n') });
    expect(job.verdict).toBe('incomplete');
  });
});

describe('an elastic scale-up whose late node’s log ends at its workers’ start', () => {
  // The lines of the real torch 2.6 run in fixtures/captured/torch2.6-c10d-elastic-late-join (node0 up to
  // "Detected … new nodes"); the round after the restart is the same block with restart_count=1 and a world
  // of 4, as torchelastic prints it for every round.
  const real = readFileSync(path.join(CAPTURED, 'node0.log'), 'utf8').split('\n');
  const detected = real.findIndex((l) => l.includes('will restart worker group'));
  const block = (restart: number, world: number, groupRank: number, pid: number, t: string) => [
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:677] [default] Rendezvous'ing worker group`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525] [default] Rendezvous complete for workers. Result:`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525]   restart_count=${restart}`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525]   master_addr=node0`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525]   master_port=35189`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525]   group_rank=${groupRank}`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525]   group_world_size=${world}`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525]   global_ranks=[${groupRank}]`,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:525] `,
    `I1201 ${t} ${pid} torch/distributed/elastic/agent/server/api.py:685] [default] Starting worker group`,
  ];
  const node0 = [
    ...real.slice(0, detected + 1),
    ...block(1, 4, 0, 7871, '11:49:52.100000'),
    `[rank0] step 8: all_reduce ok: sum=10 (expected 10)`,
  ].join('\n');
  const node3 = [
    ...real.slice(0, 16).map((l) => l.replaceAll('7871', '8894')),
    ...block(1, 4, 3, 8894, '11:49:52.102000'),
  ]
    .join('\n')
    .replaceAll('11:48:55', '11:49:39');

  it('is healthy: the group restarts together, and node0’s log shows the new round training', () => {
    const job = analyseTexts({ 'node0.log': node0, 'node3.log': node3 });
    expect(job.verdict).toBe('healthy');
  });

  it('is incomplete when no log shows the new round train', () => {
    const job = analyseTexts({ 'node0.log': node0.replace(/\n\[rank0\] step 8:.*$/, ''), 'node3.log': node3 });
    expect(job.verdict).toBe('incomplete');
  });

  it('is incomplete when the only log that trains was cut before the restart', () => {
    const cut = real.slice(0, detected - 2).join('\n');
    const job = analyseTexts({ 'node0.log': cut, 'node3.log': node3 });
    expect(job.verdict).toBe('incomplete');
  });
});

describe('a store wait after training steps', () => {
  // Shapes: HF Trainer-style step lines, then the 2.4+ C++ warning of a store read that timed out behind a
  // `[rank0]:` label and the RuntimeError (huggingface/open-r1 issue 690, GRPO timing out after a few steps).
  const steps = [
    "{'loss': 0.0213, 'grad_norm': 1.02, 'learning_rate': 9.8e-07, 'epoch': 0.01}",
    "{'loss': 0.0198, 'grad_norm': 0.97, 'learning_rate': 9.6e-07, 'epoch': 0.02}",
  ];
  const wait = [
    '[rank0]:[W710 16:58:50.906560343 socket.cpp:489] [c10d] waitForInput: socket SocketImpl(fd=58, addr=[localhost]:42412, remote=[localhost]:51216) timed out after 300000ms',
    'RuntimeError: Socket Timeout',
  ];

  it('is a hang of the running job (collective-timeout), not a startup stage', () => {
    const job = analyseTexts({ 'grpo.log': [...steps, ...wait].join('\n') });
    expect(job.failure?.stage).toBe('collective-timeout');
  });

  it('before any step it stays unplaced', () => {
    const job = analyseTexts({ 'grpo.log': wait.join('\n') });
    expect(job.failure?.stage).toBe('other');
  });
});

describe('an elastic client that could not reach the store, alone in the drop', () => {
  // The real torch 2.6 client log of fixtures/captured/torch2.6-c10d-host-late-fail (node1), launched as an
  // elastic 1:4 job: its minimum being here does not make it every node of the job.
  const real = readFileSync(
    path.join(__dirname, 'fixtures', 'captured', 'torch2.6-c10d-host-late-fail', 'node1.log'),
    'utf8',
  );
  const elastic = real.replace(/min_nodes {8}: 4/, 'min_nodes        : 1');

  it('names the endpoint host as absent, not "none of them served it"', () => {
    expect(elastic).not.toBe(real);
    const job = analyseTexts({ 'node1.log': elastic });
    expect(job.failure?.reasoning.map((r) => r.code)).not.toContain('host-not-served');
    expect(job.failure?.absent).toEqual(['node0']);
  });

  it('says none of them served it when every node of a fixed-size job is here and failed as a client', () => {
    const one = real.replace(/(min|max)_nodes {8}: 4/g, '$1_nodes        : 1');
    const job = analyseTexts({ 'node1.log': one });
    expect(job.failure?.reasoning.map((r) => r.code)).toContain('host-not-served');
  });
});

describe('a node that never started, whose log is not given', () => {
  // The real torch 2.6 static run fixtures/captured/torch2.6-static-never-starts: group_rank 3 never ran, the
  // three others started within 2 s and node0 gave up after timeout=30 s.
  const dir = path.join(__dirname, 'fixtures', 'captured', 'torch2.6-static-never-starts');
  const files = Object.fromEntries(
    ['node0.log', 'node1.log', 'node2.log'].map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]),
  );

  it('is not "a limit shorter than the skew", and no what-if claims every node would have made it', () => {
    const job = analyseTexts(files);
    const d = diagnose(job);
    const f = d.findings.find((x) => x.code === 'SKEW_EXCEEDS_RDZV_TIMEOUT');
    // node0…node2 hold group ranks 0…2: the missing one is named as their pattern gives it, with its rank.
    expect(f?.numbers.missing).toBe('node3 (group_rank 3)');
    expect(job.skewSeconds).toBeLessThan(30);
    expect(d.whatIf).toBeNull();
  });

  it('counts the clients that lost the store in rank assignment as failed, reporting it with the host', () => {
    const job = analyseTexts(files);
    expect(job.nodes.map((n) => [n.id, n.failureStage])).toEqual([
      ['node0', 'rendezvous-timeout'],
      ['node1', 'rank-assignment'],
      ['node2', 'rank-assignment'],
    ]);
    expect(job.failure?.reportedBy).toEqual(['node0', 'node1', 'node2']);
  });
});

describe('a missing node named by its siblings', () => {
  const dir = path.join(__dirname, 'fixtures', 'captured', 'torch2.6-static-never-starts');
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');

  it('goes by its rank alone when the present nodes are not named for their ranks', () => {
    const job = analyseTexts({
      'alpha.log': read('node0.log'),
      'beta.log': read('node1.log'),
      'gamma.log': read('node2.log'),
    });
    expect(job.missingNodes).toEqual(['group_rank 3']);
  });
});

describe('a log that ends in trouble after its progress', () => {
  // The real 2.6 healthy run (every node steps, the agents exit), then one node's NCCL proxy losing its peer
  // after a later step and the log stopping there (NCCL's WARN shape as in excerpt set 13's flannel pods).
  const sc = 'torch2.6-s8_static_healthy_default_loglevel';
  const dir = path.join(__dirname, 'fixtures', 'corpus', sc);
  const files = Object.fromEntries(
    [0, 1, 2, 3].map((i) => [`node${i}.log`, readFileSync(path.join(dir, `node${i}.log`), 'utf8')]),
  );

  it('is healthy as captured, quick exit-barrier race and all', () => {
    expect(analyseTexts(files).verdict).toBe('healthy');
  });

  it('is incomplete when a node stops on errors after its last step', () => {
    const node1 = files['node1.log']!.split('\n');
    const step = node1.findIndex((l) => l.includes('step 1:'));
    const cut = [
      ...node1.slice(0, step + 1),
      'node1:6125:6190 [0] include/socket.h:398 NCCL WARN Call to recv failed : Connection reset by peer',
      'node1:6125:6190 [0] transport.cu:153 NCCL WARN transport.cu:153 -> 2 [Proxy thread error]',
      '',
    ].join('\n');
    expect(analyseTexts({ ...files, 'node1.log': cut }).verdict).toBe('incomplete');
  });
});

describe("the launcher's report after the agent finished", () => {
  // The real 1.13 crash run, with the worker's own lines cut away (a paste of the agent's end only): the agent
  // finishes its worker group as FAILED, passes the exit barrier, and torchrun raises ChildFailedError. That
  // report comes after the finish by design and is the run's outcome.
  const dir = path.join(__dirname, 'fixtures', 'captured', 'torch1.13-c10d-crash-before-pg-init');
  const node0 = readFileSync(path.join(dir, 'node0.log'), 'utf8').split('\n');
  const started = node0.findIndex((l) => l.includes('Starting worker group'));
  const finished = node0.findIndex((l) => l.includes('Local worker group finished (WorkerState.FAILED)'));

  it('is failed, not healthy', () => {
    expect(started).toBeGreaterThan(0);
    expect(finished).toBeGreaterThan(started);
    const agentOnly = [...node0.slice(0, started + 1), ...node0.slice(finished)].join('\n');
    const job = analyseTexts({ 'node0.log': agentOnly });
    expect(job.verdict).toBe('failed');
    expect(job.failure?.stage).toBe('worker-error');
  });
});
