import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// The CLI's worker pool on many small files (batches, two in flight per worker): every file comes back, once,
// in the order of the inputs, with the same figures as read alone.

const ROOT = path.join(__dirname, '..');
const S2 = path.join(__dirname, 'fixtures/corpus/torch2.6-s2_static_timeout30_node3_late');
let cli = '';
let tmp = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skewscope-pool-'));
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

function analyze(dir: string) {
  const r = spawnSync(process.execPath, [cli, 'analyze', dir, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { verdict: string; files: { file: string; bytes: number; lines: number }[] };
}

describe('CLI worker pool', () => {
  it('reads 320 small files on the pool, each once and in order, as it reads them alone', () => {
    const logs = readdirSync(S2).filter((f) => f.endsWith('.log'));
    const dir = path.join(tmp, 'many');
    for (let k = 0; k < 80; k++) {
      mkdirSync(path.join(dir, `run${k}`), { recursive: true });
      for (const f of logs) writeFileSync(path.join(dir, `run${k}`, f), readFileSync(path.join(S2, f)));
    }
    const many = analyze(dir);
    expect(many.files).toHaveLength(320);
    const alone = analyze(S2).files;
    many.files.forEach((f, i) => {
      const k = Math.floor(i / logs.length);
      const a = alone[i % logs.length]!;
      expect(f).toEqual({ ...a, file: path.join('many', `run${k}`, path.basename(a.file)) });
    });
    expect(many.verdict).toBe('failed');
  });
});
