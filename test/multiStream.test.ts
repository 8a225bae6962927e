import { describe, expect, it } from 'vitest';
import { buildJob, createExtractor } from '../src/core/index';
import type { FileExtract } from '../src/core/model';

// Files holding many nodes (Slurm `srun -l`): anchors retire file-wide as soon as every node has retired them,
// and a node that shows up later gets them back from its first line on. Lines are shaped like the Slurm
// capture in test/fixtures/corpus/torch1.13-capture-s1/slurm-731042.out, with more tasks and steps.

const enc = new TextEncoder();

function extract(name: string, text: string, chunk = 65536): FileExtract {
  const ex = createExtractor(name);
  const bytes = enc.encode(text);
  for (let i = 0; i < bytes.length; i += chunk) ex.push(bytes.subarray(i, i + chunk));
  return ex.finish();
}

const start = (n: number) => [
  `${n}: [rank${n}] worker started on node${n} (local_rank=0); calling init_process_group('gloo')`,
  `${n}: [rank${n}] init_process_group done after 1.03s: world_size=4 rank=${n}`,
];

describe('several nodes in one file', () => {
  it('a node that appears after the others retired their anchors still gets its first step', () => {
    const lines: string[] = [];
    for (const n of [0, 1, 2, 3]) lines.push(...start(n));
    for (let step = 1; step <= 3000; step++)
      for (const n of [0, 1, 2, 3]) lines.push(`${n}: [rank${n}] step ${step}: loss=2.31`);
    // Node 4's first line is itself a first step: it is read with every anchor.
    lines.push('4: [rank4] step 1: loss=2.30', ...start(4).map((l) => l), '4: [rank4] step 2: loss=2.29');
    for (let step = 3001; step <= 3100; step++)
      for (const n of [0, 1, 2, 3, 4]) lines.push(`${n}: [rank${n}] step ${step}: loss=2.31`);
    const x = extract('slurm-78.out', lines.join('\n') + '\n');
    const firstSteps = x.streams.map((s) => [
      s.stream,
      s.events.filter((e) => e.kind === 'first-step').map((e) => e.line),
    ]);
    expect(firstSteps).toEqual([
      ['0', [9]],
      ['1', [10]],
      ['2', [11]],
      ['3', [12]],
      ['4', [12009]],
    ]);
  });

  it('10,000 nodes in one Slurm file: every node, each with its own start and first step', () => {
    const N = 10_000;
    const lines: string[] = [];
    for (let n = 0; n < N; n++) lines.push(...start(n));
    for (let step = 1; step <= 3; step++)
      for (let n = 0; n < N; n++) lines.push(`${n}: [rank${n}] step ${step}: loss=2.31`);
    for (let n = 0; n < N; n++) lines.push(`${n}: [rank${n}] done, exiting`);
    const x = extract('slurm-10000.out', lines.join('\n') + '\n');
    expect(x.problem).toBeNull();
    expect(x.streams).toHaveLength(N);
    for (const s of x.streams) expect(s.events.filter((e) => e.kind === 'first-step')).toHaveLength(1);
    const job = buildJob([x]);
    expect(job.nodes).toHaveLength(N);
  });

  it("srun's unlabelled report of a task goes to that task's stream, not a node of its own", () => {
    // srun prints `srun: error: HOST: task N: …` without the -l label (excerpt srun-l-labels-both-tasks-think-rank-0).
    const x = extract(
      'slurm-90.out',
      [
        "0: INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group",
        "1: INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group",
        '0: torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.',
        'srun: error: cn-b07: task 1: Exited with exit code 1',
        'srun: error: cn-b06: task 0: Exited with exit code 1',
        'srun: error: cn-b08: task 5: Exited with exit code 1',
      ].join('\n') + '\n',
    );
    const byStream = Object.fromEntries(x.streams.map((s) => [s.stream, s.events.map((e) => e.id)]));
    expect(byStream['0']).toContain('runner-exit-code');
    expect(byStream['1']).toContain('runner-exit-code');
    // A task with no labelled lines has no stream to join: its report stays in the unlabelled rest.
    expect(byStream['']).toEqual(['runner-exit-code']);
    const job = buildJob([x], { nowMs: Date.UTC(2026, 11, 1) });
    expect(job.nodes.map((n) => n.hostname).sort()).toEqual(expect.arrayContaining(['cn-b06', 'cn-b07']));
  });
});
