import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, recogniseLine } from '../src/core/index';
import { parsePrefixes } from '../src/core/prefixes';

// Every recogniser against real output. Lines come from the real corpus (printed by PyTorch 1.13 and 2.6 in
// the captures) or, for versions and stacks the corpus lacks, from real logs quoted in
// ../shared/docs (pytorch-log-formats.md, real-world-variants.md): posted logs, not invented ones.

const CORPUS = path.join(__dirname, 'fixtures', 'corpus');

function corpusLines(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (!p.endsWith('.json') && !p.endsWith('.md'))
        for (const text of readFileSync(p, 'utf8').split('\n')) out.push({ file: p, text });
    }
  };
  walk(CORPUS);
  return out;
}
const LINES = corpusLines();

/** A real line from the corpus holding `needle` (so the tests never drift from the fixtures). */
function real(needle: string): string {
  const hit = LINES.find((l) => l.text.includes(needle));
  if (!hit) throw new Error(`no corpus line holds ${needle}`);
  return hit.text;
}

function exact(line: string): string {
  if (!LINES.some((l) => l.text === line)) throw new Error(`no corpus line is ${line}`);
  return line;
}

describe('prefix recognisers on real lines', () => {
  it('glog (2.3+): month/day/time, no year, pid and path', () => {
    const p = parsePrefixes(real('torch/distributed/run.py:675] Using nproc_per_node=2.'));
    expect(p.format).toBe('glog');
    expect(p.level).toBe('INFO');
    expect(p.origin).toBe('torch/distributed/run.py');
    expect(p.msg).toBe('Using nproc_per_node=2.');
    expect(p.clocks[0]).toMatchObject({ source: 'glog', quality: 'no-year', year: null, month: 11, day: 29 });
  });

  it('C++ 2.4+: unpadded month-day, whole seconds only (the fraction is monotonic)', () => {
    const p = parsePrefixes(real('[E1129 18:31:02.037662347 socket.cpp:1023] [c10d] The client socket'));
    expect(p.format).toBe('cpp-new');
    expect(p.clocks[0]).toMatchObject({
      month: 11,
      day: 29,
      hour: 18,
      minute: 31,
      second: 2,
      millis: 0,
      resolutionMs: 1000,
    });
    expect(p.msg.startsWith('The client socket has timed out')).toBe(true);
    const unpadded = parsePrefixes(
      '[W805 01:44:10.117352000 socket.cpp:489] [c10d] waitForInput: socket x timed out after 600000ms',
    );
    expect(unpadded.clocks[0]).toMatchObject({ month: 8, day: 5, hour: 1 });
  });

  it('C++ through glog in 1.13: the year is there', () => {
    const p = parsePrefixes(real('E20261129 18:11:37.385901 16422 socket.cpp:860]'));
    expect(p.format).toBe('cpp-glog-year');
    expect(p.clocks[0]).toMatchObject({ year: 2026, month: 11, day: 29, quality: 'no-zone' });
  });

  it('1.13–2.0 basic format: level and logger, no time', () => {
    const p = parsePrefixes(
      exact("INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group"),
    );
    expect(p).toMatchObject({ format: 'basic', level: 'INFO', origin: 'torch.distributed.elastic.agent.server.api' });
    expect(p.clocks).toHaveLength(0);
  });

  it('kubectl --timestamps: RFC 3339 in UTC, outside the PyTorch prefix', () => {
    const p = parsePrefixes(real('Z INFO:torch.distributed.launcher.api:Starting elastic_operator'));
    expect(p.outer).toEqual(['rfc3339']);
    expect(p.format).toBe('basic');
    expect(p.clocks[0]).toMatchObject({ quality: 'full', offsetMinutes: 0, year: 2026 });
  });

  it('two clocks on one line: the collector’s (zoned) and C++ glog’s (local), both kept', () => {
    const p = parsePrefixes(real('Z E20261129 18:48:39.736879  9918 socket.cpp:860]'));
    expect(p.clocks.map((c) => c.source)).toEqual(['rfc3339', 'cpp-glog-year']);
  });

  it('Slurm srun -l labels', () => {
    const p = parsePrefixes(
      real("2: [rank2] worker started on node2 (local_rank=0); calling init_process_group('gloo')"),
    );
    expect(p.slurm).toBe('2');
    expect(p.msg.startsWith('[rank2] worker started')).toBe(true);
  });

  it('torchrun --tee prefix and Python logging behind it', () => {
    const p = parsePrefixes(
      real('[default0]:2026-11-29 18:16:16,083 INFO torch.distributed.distributed_c10d: Rank 4: Completed'),
    );
    expect(p.tee).toEqual({ role: 'default', localRank: 0 });
    expect(p.format).toBe('py-asctime');
    expect(p.msg.startsWith('Rank 4: Completed store-based barrier')).toBe(true);
  });

  it('2.1–2.2 bracket format (real 2-node c10d log, Mar 2024)', () => {
    const p = parsePrefixes(
      '[2024-03-12 08:22:45,549] torch.distributed.launcher.api: [INFO]   entrypoint       : ddp.py',
    );
    expect(p).toMatchObject({ format: 'bracket', level: 'INFO', origin: 'torch.distributed.launcher.api' });
    expect(p.msg).toBe('  entrypoint       : ddp.py');
    expect(p.clocks[0]).toMatchObject({ year: 2024, month: 3, day: 12, millis: 549, quality: 'no-zone' });
  });

  it('older C++ prefix without time, and the Windows build path', () => {
    const p = parsePrefixes(
      '[W socket.cpp:601] [c10d] The client socket has failed to connect to [node0]:29500 (errno: 99 - Cannot assign requested address).',
    );
    expect(p).toMatchObject({ format: 'cpp-old', level: 'WARNING', origin: 'socket.cpp' });
    expect(p.msg.startsWith('The client socket has failed')).toBe(true);
    const win = parsePrefixes(
      '[W ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:601] [c10d] The client socket has failed to connect',
    );
    expect(win.format).toBe('cpp-old');
  });

  it('stacked rank prefixes (excepthook + logger) and a glog line behind them', () => {
    const p = parsePrefixes(
      '[rank9]:[E218 04:54:22.061694977 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout',
    );
    expect(p.ranks).toEqual([9]);
    expect(p.format).toBe('cpp-new');
    expect(p.clocks[0]).toMatchObject({ month: 2, day: 18 });
  });

  it('NeMo-Run three deep: app prefix, tee, rank', () => {
    const p = parsePrefixes(
      'app/0 [default1]:[rank1]:I1210 18:28:00.405000 1 site-packages/torch/distributed/run.py:792] x',
    );
    expect(p.tee).toEqual({ role: 'default', localRank: 1 });
    expect(p.ranks).toEqual([1]);
    expect(p.format).toBe('glog');
    expect(p.origin).toBe('site-packages/torch/distributed/run.py');
  });

  it('a collector’s local time and host before a glog line in UTC (two zones)', () => {
    const p = parsePrefixes(
      '2025-03-27 17:31:09.952  host-23 I0327 09:31:09.950000 1 torch/distributed/run.py:675] Using nproc_per_node=8.',
    );
    expect(p.host).toBe('host-23');
    expect(p.clocks.map((c) => [c.source, c.hour])).toEqual([
      ['collector', 17],
      ['glog', 9],
    ]);
  });

  it('CloudWatch: offset timestamp and a TAB', () => {
    const p = parsePrefixes(
      '2023-03-09T10:53:23.670-05:00\tINFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs:',
    );
    expect(p.clocks[0]).toMatchObject({ offsetMinutes: -300, quality: 'full' });
    expect(p.format).toBe('basic');
  });

  it('pdsh host labels, without mistaking exceptions or CANN codes for hosts', () => {
    expect(parsePrefixes('gpu-node-07: [rank3]:[W socket.cpp:601] x').host).toBe('gpu-node-07');
    expect(parsePrefixes('10.0.0.5: INFO:torch.distributed.run:Using nproc_per_node=8.').host).toBe('10.0.0.5');
    expect(parsePrefixes('torch.distributed.DistStoreError: Timed out after 31 seconds').host).toBeNull();
    expect(parsePrefixes('RuntimeError: Socket Timeout').host).toBeNull();
    expect(
      parsePrefixes('EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out.').host,
    ).toBeNull();
  });

  it('Ray actor prefixes', () => {
    const p = parsePrefixes('(RayTrainWorker pid=123, ip=10.0.0.2) [rank0]:[W socket.cpp:601] x');
    expect(p.host).toBe('10.0.0.2');
    expect(p.ranks).toEqual([0]);
  });

  it('CANN / HCCL plog and torch_npu lines', () => {
    const h = parsePrefixes(
      '[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]',
    );
    expect(h.format).toBe('hccl');
    expect(h.clocks[0]).toMatchObject({ year: 2025, month: 7, day: 23, hour: 3, minute: 49, second: 57, millis: 177 });
    const n = parsePrefixes(
      '[ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 OPS call acl api failed.',
    );
    expect(n.format).toBe('npu');
    expect(n.ranks).toEqual([1]);
    const ei = parsePrefixes(
      'EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.',
    );
    expect(ei.format).toBe('cann-code');
    expect(ei.clocks[0]).toMatchObject({ year: 2025, hour: 18, minute: 7, second: 20 });
  });

  it('etcd rendezvous and torchelastic 0.2 formats', () => {
    expect(parsePrefixes('INFO 2024-12-10 18:28:00,569 Attempting to join next rendezvous').format).toBe('etcd');
    expect(parsePrefixes('[INFO] 2021-06-29 12:04:55,391 api: [default] Rendezvous complete for workers.').format).toBe(
      'torchelastic',
    );
  });

  it('lines from other programs that only look like glog or PyTorch are not read as PyTorch events', () => {
    // ElasticDL prints glog-shaped lines; vLLM's format is near-glog. Neither carries a catalogue message.
    expect(
      recogniseLine('I0807 20:59:57.533000 140145133409408 elasticdl/python/master/main.py:91] Starting master').id,
    ).toBeNull();
    expect(recogniseLine('INFO 06-23 15:37:01 llm_engine.py:161] Initializing an LLM engine').id).toBeNull();
    expect(recogniseLine('Epoch 3: 100%|██████████| 782/782 [00:41<00:00, 18.9it/s, loss=0.31]').id).toBeNull();
  });
});

// One or more real lines per catalogue entry, with what it must extract.
const SAMPLES: Record<string, { line: string; fields?: Record<string, string> }[]> = {
  'omp-banner': [
    { line: real('Setting OMP_NUM_THREADS environment variable for each process to be 1'), fields: { omp: '1' } },
  ],
  'nproc-info': [{ line: real('Using nproc_per_node=2.'), fields: { nproc_per_node: '2' } }],
  'launch-config': [{ line: real('Starting elastic_operator with launch configs:') }],
  'launch-config-field': [
    {
      line: real("  rdzv_configs     : {'timeout': '30', 'rank': 2}"),
      fields: { key: 'rdzv_configs', val: "{'timeout': '30', 'rank': 2}" },
    },
    {
      line: '[2024-03-12 08:22:45,549] torch.distributed.launcher.api: [INFO]   entrypoint       : ddp.py',
      fields: { key: 'entrypoint' },
    },
  ],
  'torchrun-command': [
    {
      // The capture's own command (truth.json), as `set -x` shows it.
      line: '+ /usr/bin/torchrun --nnodes=4 --nproc_per_node=2 --node_rank=0 --master_addr=node0 --master_port=29701 --rdzv_conf timeout=30 train.py --ts-style none',
    },
  ],
  'random-run-id': [
    {
      line: 'WARNING:torch.distributed.run:config has no run_id, generated a random run_id: 3e1f06e4-4e43-4c0d-8b7c-1a3c7b0d7d2a',
    },
  ],
  'standalone-info': [
    { line: '--rdzv_backend=c10d --rdzv_endpoint=localhost:29400 --rdzv_id=6f0ce8f1-ad9d-4b2e-9d8e-8b7c2a1b6c11' },
  ],
  'prelaunch-activity': [
    {
      line: real('downloading dataset shard s3://trainjob-datasets/shards/shard-00001.tar.gz'),
      fields: { what: 'downloading' },
    },
    { line: real('Z unpacking shard-00001.tar.gz'), fields: { what: 'unpacking' } },
    { line: real("' -> './shard-00001.tar.gz'") },
  ],
  'agent-start': [{ line: real('[default] starting workers for entrypoint: python3.13'), fields: { role: 'default' } }],
  'rdzv-begin': [{ line: real("[default] Rendezvous'ing worker group") }],
  'rdzv-complete': [{ line: real('[default] Rendezvous complete for workers. Result:') }],
  'rdzv-result-field': [{ line: real('  group_rank=3'), fields: { key: 'group_rank', val: '3' } }],
  'workers-start': [{ line: real('[default] Starting worker group') }],
  'log-dir': [{ line: real('log directory set to: /tmp/torchelastic_') }],
  'reply-file': [
    {
      line: real('Setting worker0 reply file to: /tmp/torchelastic_w2qkicvk/s12-job_ohur04h8/attempt_0/0/error.json'),
      fields: { run: 's12-job', attempt: '0' },
    },
  ],
  'group-success': [{ line: real('worker group successfully finished. Waiting 300 seconds'), fields: { secs: '300' } }],
  'local-finished': [
    { line: real('Local worker group finished (WorkerState.SUCCEEDED)'), fields: { state: 'WorkerState.SUCCEEDED' } },
  ],
  'exit-barrier-done': [{ line: real('Done waiting for other agents. Elapsed:') }],
  'exit-barrier-error': [{ line: real('Error waiting on exit barrier. Elapsed: 0.0116') }],
  restart: [
    {
      line: 'INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left; will restart worker group',
      fields: { left: '3' },
    },
  ],
  'membership-change': [
    {
      line: 'INFO:torch.distributed.elastic.agent.server.api:[default] Detected 1 new nodes from group_rank=0; will restart worker group',
      fields: { n: '1' },
    },
  ],
  'sigterm-sent': [{ line: real('Sending process 6423 closing signal SIGTERM'), fields: { sig: 'SIGTERM' } }],
  'death-signal': [
    {
      line: 'WARNING:torch.distributed.elastic.agent.server.api:Received Signals.SIGTERM death signal, shutting down workers',
      fields: { sig: 'Signals.SIGTERM' },
    },
  ],
  'worker-failed': [
    { line: real('failed (exitcode: 1) local_rank: 0 (pid: 6416)'), fields: { exitcode: '1', local_rank: '0' } },
  ],
  'child-failed': [{ line: real('torch.distributed.elastic.multiprocessing.errors.ChildFailedError:') }],
  'child-failed-field': [
    { line: real('  time      : 2026-11-29_18:40:42'), fields: { key: 'time', val: '2026-11-29_18:40:42' } },
    { line: real('  host      : node0'), fields: { key: 'host', val: 'node0' } },
  ],
  'dyn-attempt': [
    { line: real("attempts to join the next round of the rendezvous 's12-job'"), fields: { run_id: 's12-job' } },
  ],
  'dyn-joined': [
    {
      line: real("has joined round 0 of the rendezvous 's12-job' as rank 1"),
      fields: { node: 'node1_6643_0', rank: '1', world: '4' },
    },
  ],
  'dyn-closed': [{ line: real("has closed the rendezvous 's12-job'") }],
  'dyn-shutdown-failed': [
    { line: real('has failed to shutdown the rendezvous'), fields: { exc: 'RendezvousConnectionError' } },
  ],
  'c10d-store-host': [{ line: real('hosts the TCP store for the C10d rendezvous backend') }],
  'static-store': [
    {
      line: 'INFO:torch.distributed.elastic.rendezvous.static_tcp_rendezvous:Creating TCPStore as the c10d::Store implementation',
    },
  ],
  'etcd-joined': [
    {
      line: 'INFO 2024-12-10 18:28:01,112 Joined rendezvous version 1 as rank 0. Full state: {"status": "frozen", "version": "1", "participants": [0]}',
      fields: { rank: '0' },
    },
  ],
  'etcd-complete': [
    {
      line: 'INFO 2024-12-10 18:28:03,251 Rendezvous version 1 is complete. Final state: {"status": "final", "version": "1"}',
    },
  ],
  'etcd-timeout': [{ line: 'ERROR 2024-12-10 18:43:00,001 Rendezvous timeout occurred in EtcdRendezvousHandler' }],
  'rdzv-timeout-error': [{ line: real('torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError') }],
  'rdzv-closed-error': [{ line: 'torch.distributed.elastic.rendezvous.api.RendezvousClosedError' }],
  'rdzv-graceful-exit': [
    {
      line: "torch.distributed.elastic.rendezvous.api.RendezvousGracefulExitError: The rendezvous 's4-job' is closed, terminating pending rendezvous.",
    },
  ],
  'rdzv-connection-error': [{ line: real('RendezvousConnectionError: The connection to the C10d store has failed') }],
  'tcp-client-retry': [
    {
      line: real('TCP client failed to connect/validate to host node0:29520 - retrying'),
      fields: { try: '0', ms: '30000' },
    },
  ],
  'client-connect-timeout': [
    {
      line: real('E20261129 18:11:37.385901 16422 socket.cpp:860]'),
      fields: { t: '30', unit: 's', host: '127.0.0.1' },
    },
    {
      line: real('DistNetworkError: The client socket has timed out after 60000ms'),
      fields: { t: '60000', unit: 'ms', host: 'node0', port: '29540' },
    },
  ],
  'not-listening': [
    {
      line: '[I socket.cpp:672] [c10d] No socket on (node0, 29500) is listening yet, will retry.',
      fields: { host: 'node0' },
    },
  ],
  'connect-error': [
    {
      line: '[W socket.cpp:601] [c10d] The client socket has failed to connect to [node0]:29500 (errno: 99 - Cannot assign requested address).',
    },
  ],
  'dns-error': [
    {
      line: '[W socket.cpp:663] [c10d] The IPv6 network addresses of (master-0, 29500) cannot be retrieved (gai error: -3 - Temporary failure in name resolution).',
      fields: { host: 'master-0', code: '-3' },
    },
  ],
  'server-bind-failed': [
    {
      line: '[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).',
    },
  ],
  'master-wait-clients': [
    {
      line: real('Timed out after 31 seconds waiting for clients. 3/4 clients joined.'),
      fields: { secs: '31', joined: '3', expected: '4' },
    },
  ],
  'socket-timeout': [
    { line: real('RuntimeError: Socket Timeout') },
    { line: 'torch.distributed.DistStoreError: Socket Timeout' },
  ],
  'wait-timeout-keys': [
    {
      line: real('wait timeout after 20000ms, keys: /default_pg/0//cpu//0/4'),
      fields: { ms: '20000', keys: '/default_pg/0//cpu//0/4' },
    },
  ],
  'wait-for-input': [{ line: real('waitForInput: socket SocketImpl'), fields: { ms: '20000' } }],
  'connection-lost': [
    { line: real('RuntimeError: Broken pipe') },
    { line: real('DistNetworkError: failed to recv, got 0 bytes') },
  ],
  'libuv-missing': [{ line: real('use_libuv was requested') }],
  'pg-backend-config': [{ line: real("Using backend config: {'cpu': 'gloo', 'cuda': 'gloo'}") }],
  'store-barrier-wait': [
    {
      line: 'INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for rank: 3, key: store_based_barrier_key:1 (world_size=16, worker_count=8, timeout=0:30:00)',
      fields: { rank: '3', ws: '16', n: '8', td: '0:30:00' },
    },
  ],
  'store-barrier-done': [
    {
      line: real('Rank 4: Completed store-based barrier for key:store_based_barrier_key:1 with 8 nodes.'),
      fields: { rank: '4', n: '8' },
    },
  ],
  'store-barrier-timeout': [
    {
      line: 'RuntimeError: Timed out initializing process group in store based barrier on rank: 7, for key: store_based_barrier_key:1 (world_size=16, worker_count=8, timeout=0:30:00)',
      fields: { rank: '7', td: '0:30:00' },
    },
  ],
  'pg-init-begin': [{ line: real("calling init_process_group('gloo')") }],
  'pg-init-done': [{ line: real('init_process_group done after') }],
  'first-step': [{ line: real('[rank0] step 1: all_reduce sum=36') }],
  'nccl-unique-id': [
    {
      line: "RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
      fields: { rank: '3', err: 'Socket Timeout' },
    },
  ],
  'collective-watchdog': [
    {
      line: '[rank9]:[E218 04:54:22.061694977 ProcessGroupNCCL.cpp:616] [Rank 9] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600018 milliseconds before timing out.',
      fields: { seq: '1', timeout: '600000' },
    },
    {
      line: '[Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.',
      fields: { lib: 'HCCL', seq: '196' },
    },
  ],
  'hccl-link-timeout': [
    {
      line: '[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]',
      fields: { rank: '12', secs: '120' },
    },
  ],
  'cann-ei0006': [
    {
      line: 'EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time.',
    },
  ],
  'torch-version-entry-point': [
    { line: real("load_entry_point('torch==2.6.0+debian'"), fields: { version: '2.6.0+debian' } },
  ],
  'torch-version-stated': [{ line: 'PyTorch version: 2.1.2+cu121', fields: { version: '2.1.2+cu121' } }],
  'python-exception': [
    { line: real("AttributeError: 'NoneType' object has no attribute 'get'"), fields: { exc: 'AttributeError' } },
  ],
};

describe('message catalogue', () => {
  it('every entry names its versions and source', () => {
    for (const e of CATALOGUE) {
      expect(e.versions, e.id).not.toBe('');
      expect(e.source, e.id).not.toBe('');
      expect(e.anchors.length, e.id).toBeGreaterThan(0);
    }
  });

  for (const [id, samples] of Object.entries(SAMPLES)) {
    it(id, () => {
      for (const s of samples) {
        const r = recogniseLine(s.line);
        expect(r.id, s.line).toBe(id);
        if (s.fields) expect(r.fields).toMatchObject(s.fields);
      }
    });
  }

  it('a warning that retries a connection is not the connect timeout itself', () => {
    expect(recogniseLine(real('- retrying (try=0, timeout=30000ms')).id).toBe('tcp-client-retry');
  });

  it('code lines inside a traceback are not exceptions', () => {
    expect(recogniseLine('    raise RendezvousTimeoutError()').id).toBeNull();
    expect(recogniseLine('    raise RendezvousClosedError').id).toBeNull();
  });
});
