import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { usesPool, workerHeapMb } from '../src/cli/pool';

// The CLI's memory budget (issue 13, item 2): files are read on parse workers whose heap is capped, and a file
// that needs more than its worker may use is left out and said so — the others are still diagnosed, and the CLI
// never ends in "internal error". The budget is made small here (SKEWSCOPE_WORKER_HEAP_MB) so that a file of a
// few MB passes it: one `srun -l` output holding 50,000 nodes (the lines of a real Slurm capture,
// scripts/bench-templates/t113-slurm-healthy.slurm-731042.out, for each node), whose memory grows with its nodes.

const ROOT = path.join(__dirname, '..');
const S2 = path.join(__dirname, 'fixtures/corpus/torch2.6-s2_static_timeout30_node3_late');
const SLURM = path.join(ROOT, 'scripts/bench-templates/t113-slurm-healthy.slurm-731042.out');
let cli = '';
let tmp = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skewscope-budget-'));
  cli = path.join(tmp, 'skewscope.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: cli,
    logLevel: 'warning',
  });
});

/** The capture's lines for nodes 0…n-1: each line of node 0's, relabelled, in the capture's phase order. */
function slurmFile(n: number): string {
  const own = readFileSync(SLURM, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('0: '))
    .map((l) => l.slice(3));
  const out: string[] = [];
  for (const line of own)
    for (let k = 0; k < n; k++)
      out.push(
        `${k}: ${line
          .replace('[rank0]', `[rank${k}]`)
          .replace('node0', `node${k}`)
          .replace('rank=0', `rank=${k}`)
          .replace(/world_size=\d+/, `world_size=${n}`)}`,
      );
  return out.join('\n') + '\n';
}

function analyze(args: string[], heapMb?: number) {
  const env = { ...process.env };
  if (heapMb) env.SKEWSCOPE_WORKER_HEAP_MB = String(heapMb);
  else delete env.SKEWSCOPE_WORKER_HEAP_MB;
  return spawnSync(process.execPath, [cli, 'analyze', ...args, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env,
  });
}

describe('the CLI over its memory budget', () => {
  it('leaves out the file that needs more than a worker may use, names it, and diagnoses the rest', () => {
    const dir = path.join(tmp, 'drop');
    mkdirSync(path.join(dir, 'slurm'), { recursive: true });
    cpSync(S2, path.join(dir, 's2'), { recursive: true });
    writeFileSync(path.join(dir, 'slurm', 'slurm-731042.out'), slurmFile(50_000));

    const small = analyze([dir], 32);
    expect(small.status).toBe(1);
    expect(small.stderr).toBe(
      'skewscope: drop/slurm/slurm-731042.out: reading it needed more than the 32 MiB a parse worker may use; it was left out, the other files were analysed\n',
    );
    const job = JSON.parse(small.stdout) as {
      verdict: string;
      failure: unknown;
      files: { file: string; problem: { code: string } | null }[];
    };
    expect(job.files.find((f) => f.file === 'drop/slurm/slurm-731042.out')?.problem?.code).toBe('unreadable');
    // What is diagnosed is the rest, as it reads alone.
    const alone = JSON.parse(analyze([path.join(dir, 's2')]).stdout) as { verdict: string; failure: unknown };
    expect(job.verdict).toBe(alone.verdict);
    expect(JSON.stringify(job.failure).replaceAll('drop/s2/', 's2/')).toBe(JSON.stringify(alone.failure));
  });

  it('reads a large file on a worker even alone, and the budget can be set', () => {
    expect(usesPool([{ abs: 'x', name: 'x', size: 64 * 2 ** 20, mtimeMs: 0 }])).toBe(true);
    expect(usesPool([{ abs: 'x', name: 'x', size: 2 ** 20, mtimeMs: 0 }])).toBe(false);
    expect(workerHeapMb({})).toBe(1024);
    expect(workerHeapMb({ SKEWSCOPE_WORKER_HEAP_MB: '256' })).toBe(256);
    expect(workerHeapMb({ SKEWSCOPE_WORKER_HEAP_MB: 'lots' })).toBe(1024);
  });
});
