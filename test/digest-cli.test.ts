import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { crc32Hex } from '../src/core/digest/crc';

// `skewscope digest` as a cluster runs it (the bundle, with node), and `analyze` reading what it wrote: alone,
// mixed with logs, in an archive, damaged.

const ROOT = path.join(__dirname, '..');
const CORPUS = path.join(__dirname, 'fixtures', 'corpus');
const S2 = 'torch2.6-s2_static_timeout30_node3_late';
const HEALTHY = 'torch2.6-s1_static_healthy_info';
const LOGDIR = path.join(__dirname, 'fixtures', 'captured', 'torch2.6-c10d-logdir-restart-noshare');
let cli = '';
let tmp = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skewscope-digest-'));
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

function run(args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: opts.cwd ?? ROOT,
    input: opts.input,
    env: { ...process.env, SLURMD_NODENAME: '', ...opts.env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A scenario's files in the order `analyze <scenario>` reads them. */
function filesOf(scenario: string): string[] {
  return readdirSync(path.join(CORPUS, scenario))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((f) => `${scenario}/${f}`);
}

/** One digest per file, named so that a folder walk reads them in the logs' order. */
function digestEach(scenario: string, dir: string, extra: string[] = []): void {
  filesOf(scenario).forEach((f, i) => {
    const r = run(
      ['digest', f, '--no-prefix', '--out', path.join(dir, `${String(i).padStart(3, '0')}.json`), ...extra],
      {
        cwd: CORPUS,
      },
    );
    expect([0, 1], r.err).toContain(r.code);
  });
}

describe('skewscope digest', () => {
  it('analyze reads digests as it reads the logs: the same JSON, and the same exit code', () => {
    for (const scenario of [S2, HEALTHY]) {
      const dir = mkdtempSync(path.join(tmp, 'same-'));
      digestEach(scenario, dir, ['--raw-lines']);
      const logs = run(['analyze', scenario, '--json'], { cwd: CORPUS });
      const digests = run(['analyze', dir, '--json']);
      expect(digests.code).toBe(logs.code);
      expect(JSON.parse(digests.out)).toEqual(JSON.parse(logs.out));
    }
  });

  it('without line texts: the same verdict, failure, nodes and skew', () => {
    const dir = mkdtempSync(path.join(tmp, 'bare-'));
    digestEach(S2, dir);
    const logs = JSON.parse(run(['analyze', S2, '--json'], { cwd: CORPUS }).out);
    const digests = JSON.parse(run(['analyze', dir, '--json']).out);
    for (const k of ['verdict', 'skewSeconds', 'missingNodes', 'worldFormed']) expect(digests[k], k).toEqual(logs[k]);
    expect(digests.failure.stage).toBe(logs.failure.stage);
    expect(digests.failure.lateNodes).toEqual(['node3']);
    expect(digests.nodes.map((n: { id: string; lagSeconds: number }) => [n.id, n.lagSeconds])).toEqual(
      logs.nodes.map((n: { id: string; lagSeconds: number }) => [n.id, n.lagSeconds]),
    );
    expect(digests.findings.map((f: { code: string }) => f.code)).toEqual(
      logs.findings.map((f: { code: string }) => f.code),
    );
  });

  it('mixed with raw logs in one folder, and inside a tar.gz', () => {
    const dir = mkdtempSync(path.join(tmp, 'mixed-'));
    const src = path.join(CORPUS, S2);
    for (const n of ['node0', 'node1'])
      expect(
        run(['digest', path.join(src, `${n}.log`), '--node', n, '--out', path.join(dir, `${n}.skewscope.json`)]).code,
      ).toBe(1);
    for (const n of ['node2', 'node3']) copyFileSync(path.join(src, `${n}.log`), path.join(dir, `${n}.log`));
    const mixed = JSON.parse(run(['analyze', dir, '--json']).out);
    expect(mixed.nodes.map((n: { id: string }) => n.id)).toEqual(['node0', 'node1', 'node2', 'node3']);
    expect(mixed.failure.lateNodes).toEqual(['node3']);
    // node1 and node2 lost the store waiting in rank assignment when node0 gave up: they report it too.
    expect(mixed.failure.reportedBy).toEqual(['node0', 'node1', 'node2']);
    const tgz = path.join(tmp, 'mixed.tar.gz');
    expect(spawnSync('tar', ['-czf', tgz, '-C', dir, '.']).status).toBe(0);
    const packed = JSON.parse(run(['analyze', tgz, '--json']).out);
    expect(packed.nodes.map((n: { id: string }) => n.id)).toEqual(['node0', 'node1', 'node2', 'node3']);
    expect(packed.failure.lateNodes).toEqual(['node3']);
    expect(packed.skewSeconds).toBe(mixed.skewSeconds);
  });

  it('puts a node’s files under its name, so identical --log-dir trees of two nodes stay apart', () => {
    const dir = mkdtempSync(path.join(tmp, 'prefix-'));
    // Two nodes whose logs sit at the same local path: copy node0's and node1's trees to one name each.
    for (const n of ['node0', 'node1', 'node2']) {
      const local = path.join(tmp, `local-${n}`, 'logs');
      mkdirSync(local, { recursive: true });
      spawnSync('cp', ['-r', path.join(LOGDIR, `${n}_logdir`), path.join(local, 'tl')]);
      copyFileSync(path.join(LOGDIR, `${n}.log`), path.join(local, 'console.log'));
      const r = run(['digest', local, '--out', path.join(dir, '%N.json')], { env: { SLURMD_NODENAME: n } });
      expect(r.err).toContain(`digest of ${n}:`);
      run(['digest', local, '--no-prefix', '--out', path.join(tmp, 'as-is', `${n}.json`)]);
    }
    // Names as given collide (logs/tl/… on every node): the nodes cannot be told apart.
    const asIs = JSON.parse(run(['analyze', path.join(tmp, 'as-is'), '--json']).out);
    expect(asIs.nodes.map((n: { id: string }) => n.id)).not.toEqual(['node0', 'node1', 'node2']);
    expect(readdirSync(dir).sort()).toEqual(['node0.json', 'node1.json', 'node2.json']);
    const job = JSON.parse(run(['analyze', dir, '--json']).out);
    expect(job.nodes.map((n: { id: string }) => n.id)).toEqual(['node0', 'node1', 'node2']);
    expect(job.nodes[0].files.every((f: string) => f.startsWith('node0/logs/'))).toBe(true);
    const logs = JSON.parse(run(['analyze', LOGDIR, '--json']).out);
    expect(job.verdict).toBe(logs.verdict);
    expect(job.failure?.stage).toBe(logs.failure?.stage);
    expect(job.failure?.reportedBy).toEqual(logs.failure?.reportedBy);
    expect(job.skewSeconds).toBe(logs.skewSeconds);
  });

  it('reads standard input (kubectl logs … | skewscope digest - --node POD)', () => {
    const text = readFileSync(path.join(CORPUS, S2, 'node3.log'), 'utf8');
    const r = run(['digest', '-', '--node', 'node3'], { input: text });
    expect(r.code).toBe(1);
    const d = JSON.parse(r.out);
    expect(d.node.name).toBe('node3');
    expect(d.files.map((f: { file: string }) => f.file)).toEqual(['node3.log']);
    const dir = mkdtempSync(path.join(tmp, 'stdin-'));
    writeFileSync(path.join(dir, 'pod.json'), r.out);
    const job = JSON.parse(run(['analyze', dir, '--json']).out);
    expect(job.nodes.map((n: { id: string }) => n.id)).toEqual(['node3']);
  });

  it('paths and --out expand %N %j %n %t %%, --out makes the folders; exit codes as analyze', () => {
    const env = { SLURMD_NODENAME: 'gpu-7', SLURM_JOB_ID: '4242', SLURM_NODEID: '3', SLURM_PROCID: '3' };
    const out = path.join(tmp, 'pat', 'j%j', '%N-%n-%t-100%%.json');
    const named = path.join(tmp, 'named');
    mkdirSync(named, { recursive: true });
    copyFileSync(path.join(CORPUS, HEALTHY, 'node0.log'), path.join(named, 'gpu-7.log'));
    expect(run(['digest', path.join(named, '%N.log'), '--out', out], { env }).code).toBe(0);
    const d = JSON.parse(readFileSync(path.join(tmp, 'pat', 'j4242', 'gpu-7-3-3-100%.json'), 'utf8'));
    expect(d.node.name).toBe('gpu-7');
    expect(d.files[0].file).toBe(`gpu-7/${path.join(named, 'gpu-7.log').slice(1)}`);
    expect(run(['digest', path.join(CORPUS, S2, 'node0.log')]).code).toBe(1);
    const bin = path.join(tmp, 'core.bin');
    writeFileSync(bin, Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)));
    const b = run(['digest', bin]);
    expect(b.code).toBe(2);
    expect(b.err).toContain('core.bin is not text');
    expect(JSON.parse(b.out).files[0].problem.code).toBe('binary');
    expect(run(['digest', path.join(tmp, 'nope.log')]).code).toBe(2);
    expect(run(['digest']).code).toBe(2);
    expect(run(['digest', bin, '--frobnicate']).code).toBe(2);
    expect(run(['digest', bin, '--max-bytes', '12']).code).toBe(2);
    expect(run(['digest', '-', '-'], { input: '' }).code).toBe(2);
  });

  it('--with-lines keeps the texts with addresses and paths redacted; the default keeps none', () => {
    const f = path.join(LOGDIR, 'node1_logdir');
    const lines = JSON.parse(run(['digest', f, '--with-lines']).out);
    const texts: string[] = [];
    const walk = (x: unknown) => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') {
        const o = x as Record<string, unknown>;
        if (typeof o.line === 'number' && typeof o.text === 'string') texts.push(o.text);
        Object.values(o).forEach(walk);
      }
    };
    walk(lines.files);
    expect(lines.lines).toBe(true);
    expect(texts.some((t) => t.includes('Connection closed by peer [<ip>]'))).toBe(true);
    expect(texts.some((t) => /\b127\.0\.0\.1\b/.test(t))).toBe(false);
    const bare = JSON.parse(run(['digest', f]).out);
    texts.length = 0;
    walk(bare.files);
    expect(bare.lines).toBe(false);
    expect(texts.length).toBe(0);
  });

  it('an archive on standard input (kubectl exec POD -- tar czf - …) is unpacked under --stdin-name', () => {
    const tgz = spawnSync('tar', ['-czf', '-', '-C', LOGDIR, 'node1_logdir']);
    expect(tgz.status).toBe(0);
    const r = spawnSync(process.execPath, [cli, 'digest', '-', '--node', 'node1', '--stdin-name', 'logs.tar.gz'], {
      input: tgz.stdout,
      encoding: 'utf8',
    });
    const d = JSON.parse(r.stdout);
    expect(d.files.length).toBe(8);
    expect(d.files.every((f: { file: string }) => f.file.startsWith('node1/logs.tar.gz/node1_logdir/'))).toBe(true);
    expect(run(['digest', '-', '--stdin-name', '../x'], { input: '' }).code).toBe(2);
  });

  it('several digests in one file, one per line (pdsh -N … > all.jsonl): each read, a bad one named by its line', () => {
    const lines = ['node0', 'node1', 'node2', 'node3'].map(
      (n) => run(['digest', path.join(CORPUS, S2, `${n}.log`), '--node', n]).out,
    );
    lines[2] = lines[2]!.replace('"line":1,', '"line":2,');
    const file = path.join(tmp, 'all.jsonl');
    writeFileSync(file, lines.join(''));
    const r = run(['analyze', file, '--json']);
    expect(r.err).toContain('all.jsonl:3 was changed after skewscope made it');
    const job = JSON.parse(r.out);
    expect(job.nodes.map((n: { id: string }) => n.id)).toEqual(['node0', 'node1', 'node3']);
    expect(job.failure.reportedBy).toEqual(['node0', 'node1']);
  });

  it('a digest over --max-bytes leaves events out and says how many', () => {
    const r = run(['digest', LOGDIR, '--max-bytes', '20000']);
    const d = JSON.parse(r.out);
    expect(Buffer.byteLength(r.out)).toBeLessThanOrEqual(20000);
    expect(d.overflow.events).toBeGreaterThan(0);
    expect(r.err).toContain(`${d.overflow.events} events`);
  });

  it('analyze names a changed, cut or newer digest and analyses the rest', () => {
    const dir = mkdtempSync(path.join(tmp, 'bad-'));
    digestEach(S2, dir);
    const files = readdirSync(dir).sort();
    const first = path.join(dir, files[0]!);
    const text = readFileSync(first, 'utf8');
    writeFileSync(first, text.replace('"line":70', '"line":7'));
    const { check: _c, ...body } = JSON.parse(readFileSync(path.join(dir, files[1]!), 'utf8'));
    body.version = 99;
    const json = JSON.stringify(body);
    writeFileSync(path.join(dir, files[1]!), `${json.slice(0, -1)},"check":"${crc32Hex(json)}"}`);
    const r = run(['analyze', dir, '--json']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${files[0]} was changed after skewscope made it`);
    expect(r.err).toContain(`${files[1]} is a digest of format 99, made by skewscope`);
    expect(r.err).toContain('update skewscope');
    const job = JSON.parse(r.out);
    expect(job.nodes.map((n: { id: string }) => n.id)).toEqual(['node2', 'node3']);
  });
});
