import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// The cluster recipes of scripts/cluster/ as they are shipped, run here: the Kubernetes loop against a kubectl
// that serves real captured pods' logs (no cluster on this machine), the Slurm Epilog with the variables Slurm
// gives it. (The Slurm recipes on a real slurmctld/slurmd: scripts/cluster/slurm-local.sh.)

const ROOT = path.join(__dirname, '..');
const CLUSTER = path.join(ROOT, 'scripts', 'cluster');
const LOGDIR = path.join(__dirname, 'fixtures', 'captured', 'torch2.6-c10d-logdir-restart-noshare');
let tmp = '';
let cli = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'skewscope-cluster-'));
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

const analyze = (dir: string) =>
  JSON.parse(spawnSync(process.execPath, [cli, 'analyze', dir, '--json'], { encoding: 'utf8' }).stdout);

describe('cluster recipes', () => {
  it('k8s-digest.sh: one digest per pod from kubectl logs and the pod’s --log-dir tree; analyze agrees with the logs', () => {
    // A kubectl for pods node0..node2: `logs` prints the pod's console, `exec … tar` packs its --log-dir tree.
    const kubectl = path.join(tmp, 'kubectl');
    writeFileSync(
      kubectl,
      `#!/bin/sh
case "$1" in
  get) echo "node0 node1 node2" ;;
  logs) for a; do pod="$a"; done; cat "${LOGDIR}/$pod.log" ;;
  exec) tar czf - -C "${LOGDIR}/$2_logdir" . ;;
  *) exit 3 ;;
esac
`,
    );
    chmodSync(kubectl, 0o755);
    const out = path.join(tmp, 'k8s-digests');
    const r = spawnSync('sh', [path.join(CLUSTER, 'k8s-digest.sh'), 'app=train', out, '/logs'], {
      encoding: 'utf8',
      env: { ...process.env, KUBECTL: kubectl, SKEWSCOPE: cli },
    });
    expect(r.stderr).toContain('3 digests in');
    expect(readdirSync(out).sort()).toEqual(['node0.json', 'node1.json', 'node2.json']);
    const d = JSON.parse(readFileSync(path.join(out, 'node1.json'), 'utf8'));
    expect(d.files.map((f: { file: string }) => f.file)).toContain('node1.log');
    expect(d.files.some((f: { file: string }) => f.file.startsWith('node1/logdir.tar.gz/'))).toBe(true);
    const fromDigests = analyze(out);
    const fromLogs = analyze(LOGDIR);
    expect(fromDigests.nodes.map((n: { id: string }) => n.id)).toEqual(['node0', 'node1', 'node2']);
    expect(fromDigests.verdict).toBe(fromLogs.verdict);
    expect(fromDigests.failure).toEqual(fromLogs.failure === null ? null : expect.anything());
    expect(fromDigests.failure?.stage).toBe(fromLogs.failure?.stage);
    expect(fromDigests.failure?.reportedBy).toEqual(fromLogs.failure?.reportedBy);
    expect(fromDigests.nodes.map((n: { attempts: unknown[] }) => n.attempts.length)).toEqual(
      fromLogs.nodes.map((n: { attempts: unknown[] }) => n.attempts.length),
    );
  });

  it('slurm-epilog.sh: digests the node’s log of the job that ended, skips jobs without one, never fails', () => {
    const shared = mkdtempSync(path.join(tmp, 'shared-'));
    writeFileSync(path.join(shared, '77.node1.log'), readFileSync(path.join(LOGDIR, 'node1.log')));
    const env = {
      ...process.env,
      SKEWSCOPE: cli,
      SKEWSCOPE_NODE: process.execPath,
      SKEWSCOPE_LOGS: `${shared}/%j.%N.log`,
      SKEWSCOPE_DIGESTS: `${shared}/digests/%j/%N.json`,
      SLURMD_NODENAME: 'node1',
    };
    const epilog = path.join(CLUSTER, 'slurm-epilog.sh');
    expect(spawnSync('sh', [epilog], { env: { ...env, SLURM_JOB_ID: '77' } }).status).toBe(0);
    const d = JSON.parse(readFileSync(path.join(shared, 'digests', '77', 'node1.json'), 'utf8'));
    expect(d.node.name).toBe('node1');
    expect(d.files[0].file).toBe(`node1/${shared.slice(1)}/77.node1.log`);
    // A job that wrote no log on this node, and a broken CLI path: nothing written, exit 0 all the same.
    expect(spawnSync('sh', [epilog], { env: { ...env, SLURM_JOB_ID: '78' } }).status).toBe(0);
    expect(existsSync(path.join(shared, 'digests', '78'))).toBe(false);
    expect(spawnSync('sh', [epilog], { env: { ...env, SLURM_JOB_ID: '77', SKEWSCOPE: '/nope.mjs' } }).status).toBe(0);
  });
});
