// Benchmark inputs for the bounds of issue 13, generated from the real logs in scripts/bench-templates/:
//   - restarts: one log holding a real startup block again and again, as a job that restarted many times (or a
//     log appended to across runs) looks: the whole of t26-glog-pg-init-timeout.node2.log (torchrun start-up,
//     rendezvous, the init_process_group timeout, its tracebacks), its timestamps moved on by the block's own
//     span plus a 30 s restart gap each time. Every line of it is a startup line, so most are candidates.
//   - slurm: one `srun -l` output file holding N nodes, in the shape of t113-slurm-healthy.slurm-731042.out
//     (`N: [rankN] …` task labels), each node's lines from that capture plus training steps, phase by phase in
//     a seeded order.
// Deterministic for a seed; written in chunks of about 1 MiB, never a whole file in memory.

import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEMPLATE_DIR, TIME_FORMATS, prng } from './bench-corpus.mjs';

const RESTART_TEMPLATE = 't26-glog-pg-init-timeout.node2.log';
const SLURM_TEMPLATE = 't113-slurm-healthy.slurm-731042.out';
const RESTART_GAP_MS = 30_000;

export async function boundedDigest() {
  const h = createHash('sha256');
  h.update(await readFile(fileURLToPath(import.meta.url)));
  for (const t of [RESTART_TEMPLATE, SLURM_TEMPLATE]) h.update(await readFile(path.join(TEMPLATE_DIR, t)));
  return h.digest('hex').slice(0, 16);
}

/** A line as static text and timestamp slots, so that moving its times is concatenation, not regex work. */
function slots(line) {
  const found = [];
  for (const f of TIME_FORMATS) {
    for (const m of line.matchAll(f.re)) {
      const [ms, sub, extra] = f.read(m);
      found.push({ at: m.index, end: m.index + m[0].length, f, ms, sub, extra });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const parts = [];
  let pos = 0;
  for (const s of found) {
    if (s.at < pos) continue; // overlapping formats: the first one wins
    parts.push(line.slice(pos, s.at), s);
    pos = s.end;
  }
  parts.push(line.slice(pos));
  return parts;
}

async function writer(file) {
  const fh = await open(file, 'w');
  let chunk = [];
  let bytes = 0;
  let written = 0;
  return {
    async push(s) {
      chunk.push(s);
      bytes += s.length;
      if (bytes >= 1 << 20) await this.flush();
    },
    async flush() {
      if (!chunk.length) return;
      const { bytesWritten } = await fh.write(chunk.join(''));
      written += bytesWritten;
      chunk = [];
      bytes = 0;
    },
    async close() {
      await this.flush();
      await fh.close();
      return written;
    },
  };
}

/** One log of `totalBytes` or a little more: the startup block repeated, each time later. */
export async function generateRestarts({ dataDir, totalBytes, log = () => {} }) {
  const logs = path.join(dataDir, 'logs');
  await rm(path.join(dataDir, 'manifest.json'), { force: true });
  await rm(logs, { recursive: true, force: true });
  await mkdir(logs, { recursive: true });
  const text = await readFile(path.join(TEMPLATE_DIR, RESTART_TEMPLATE), 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const parsed = lines.map(slots);
  const times = parsed.flatMap((p) => p.filter((s) => typeof s !== 'string').map((s) => s.ms));
  const span = Math.max(...times) - Math.min(...times) + RESTART_GAP_MS;
  const blockBytes = Buffer.byteLength(text);
  const w = await writer(path.join(logs, 'node2.log'));
  let restarts = 0;
  for (let done = 0; done < totalBytes; done += blockBytes, restarts++) {
    const delta = restarts * span;
    for (const p of parsed) {
      let s = '';
      for (const x of p) s += typeof x === 'string' ? x : x.f.write(new Date(x.ms + delta), x.sub, x.extra);
      await w.push(s + '\n');
    }
    if (restarts % 2000 === 0) log(`  restarts: ${restarts} blocks, ${(done / 2 ** 20).toFixed(0)} MiB`);
  }
  const bytes = await w.close();
  return finishManifest(
    dataDir,
    { kind: 'restarts', totalBytes, templates: await boundedDigest() },
    [{ path: 'node2.log', template: RESTART_TEMPLATE, bytes }],
    { restarts },
  );
}

/** One Slurm output file holding `nodes` nodes (task labels 0…nodes-1). */
export async function generateSlurm({ dataDir, nodes, steps = 20, seed = 1 }) {
  const logs = path.join(dataDir, 'logs');
  await rm(path.join(dataDir, 'manifest.json'), { force: true });
  await rm(logs, { recursive: true, force: true });
  await mkdir(logs, { recursive: true });
  const rand = prng(seed);
  const order = () => {
    const a = Array.from({ length: nodes }, (_, i) => i);
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  // The capture's four kinds of line, for node n (its words, its spacing).
  const phases = [
    (n) => `${n}: [rank${n}] worker started on node${n} (local_rank=0); calling init_process_group('gloo')`,
    (n) =>
      `${n}: [rank${n}] init_process_group done after ${(1 + rand() * 0.2).toFixed(2)}s: world_size=${nodes} rank=${n}`,
    ...Array.from(
      { length: steps },
      (_, k) => (n) => `${n}: [rank${n}] step ${k + 1}: loss=${(2.4 - k * 0.01 - rand() * 0.05).toFixed(4)}`,
    ),
    (n) => `${n}: [rank${n}] all_reduce ok: sum=${nodes} (expected ${nodes})`,
    (n) => `${n}: [rank${n}] done, exiting`,
  ];
  const name = 'slurm-731042.out';
  const w = await writer(path.join(logs, name));
  for (const line of phases) for (const n of order()) await w.push(line(n) + '\n');
  const bytes = await w.close();
  return finishManifest(dataDir, { kind: 'slurm', nodes, steps, seed, templates: await boundedDigest() }, [
    { path: name, template: SLURM_TEMPLATE, bytes },
  ]);
}

async function finishManifest(dataDir, params, files, extra = {}) {
  const manifest = {
    params,
    logsDir: 'logs',
    totalBytes: files.reduce((n, f) => n + f.bytes, 0),
    files,
    ...extra,
    generatedAt: new Date().toISOString(),
  };
  await writeFile(path.join(dataDir, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  return manifest;
}
