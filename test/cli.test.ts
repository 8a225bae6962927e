import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// The CLI as a user runs it: bundled the way `npm run build:cli` bundles it, then run with node.

const ROOT = path.join(__dirname, '..');
const S2 = path.join(__dirname, 'fixtures/corpus/torch2.6-s2_static_timeout30_node3_late');
const HEALTHY = path.join(__dirname, 'fixtures/corpus/torch2.6-s1_static_healthy_info');
let cli = '';
let tmp = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skewscope-cli-'));
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

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('skewscope CLI', () => {
  it('exit 1 and a readable summary for a failed job', () => {
    const r = run('analyze', S2);
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toBe(
      'skewscope: FAILED — waiting in the rendezvous for all nodes (rendezvous timeout)',
    );
    expect(r.out).toContain('[SKEW_EXCEEDS_RDZV_TIMEOUT]');
    // The job typed its own --rdzv_conf, so the advice replaces that flag rather than exporting PET_RDZV_CONF.
    expect(r.out).toContain('In the torchrun command of every node:\n       --rdzv_conf="timeout=1800"');
  });

  it('exit 0 for a healthy job; --json is the documented model', () => {
    const r = run('analyze', HEALTHY, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ schemaVersion: 2, verdict: 'healthy', failure: null });
    for (const k of ['skewSeconds', 'nodes', 'job', 'findings', 'thresholds', 'whatIf']) expect(j).toHaveProperty(k);
    expect(j.nodes[0]).toHaveProperty('events');
    expect(j.job).toHaveProperty('rdzvConfigs');
  });

  it('--lang zh prints Chinese', () => {
    const r = run('analyze', S2, '--lang', 'zh');
    expect(r.out.split('\n')[0]).toBe('skewscope: 失败 — 在 rendezvous 中等待所有节点（rendezvous 超时）');
    // Full-width punctuation and 、 between names in the Chinese lines; identifiers as they are.
    expect(r.out.split('\n')[2]).toBe(
      '失败阶段：rendezvous-timeout；报错节点：node0、node1、node2；迟到节点：node3；触发的超时：rdzv-timeout = 30 秒（日志中已打印）',
    );
  });

  it('reads .gz files as they are', () => {
    const dir = mkdtempSync(path.join(tmp, 'gz-'));
    for (const f of ['node0.log', 'node1.log', 'node2.log', 'node3.log'])
      writeFileSync(path.join(dir, `${f}.gz`), gzipSync(readFileSync(path.join(S2, f))));
    const j = JSON.parse(run('analyze', dir, '--json').out);
    expect(j.failure.lateNodes).toEqual(['node3']);
  });

  it('exit 2 with a message naming the file for unreadable input and bad usage', () => {
    const missing = run('analyze', path.join(tmp, 'nope.log'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nope.log');
    expect(run('analyze').code).toBe(2);
    expect(run('analyze', S2, '--lang', 'fr').code).toBe(2);
    expect(run('frobnicate').code).toBe(2);
    const bin = path.join(tmp, 'core.bin');
    writeFileSync(bin, Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)));
    const b = run('analyze', bin);
    expect(b.code).toBe(2);
    expect(b.err).toContain('core.bin is not text');
  });

  it('exit 1 and says so for a log of another program', () => {
    const f = path.join(tmp, 'train.log');
    writeFileSync(f, 'Epoch 1/3: 100%|##########| 782/782 [00:41<00:00, 18.9it/s, loss=0.31]\n');
    const r = run('analyze', f);
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toBe('skewscope: NO TORCHRUN LOGS');
  });

  it('anchors lists the scanner’s strings', () => {
    const r = run('anchors');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')).toContain('Socket Timeout');
  });
});
