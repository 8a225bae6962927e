// A large job for the browser's view measures and the responsiveness e2e: N nodes × R ranks of per-node torchrun
// logs, every line shaped exactly like a line of the real 4-node × 2-rank capture in
// test/fixtures/corpus/torch2.6-s1_static_healthy_info (Debian python3-torch 2.6.0, static rendezvous, LOGLEVEL=INFO):
// node0.log is the template of the store host, node2.log of every other node. Only the values change — host names,
// pids, ranks, world sizes, the launch instants — the way they would in a real job of that size: most nodes start
// within a few seconds of each other, `late` of them minutes behind, and every agent leaves the rendezvous when the
// last one arrives (a static rendezvous waits for all of them; the 900 s limit is not reached, so the job is healthy).
//
//   node scripts/bench-job.mjs DIR [--nodes 4096] [--ranks 8] [--late 41] [--seed 1]
//
// Also imported by e2e/responsiveness.spec.ts and scripts/bench-views.mjs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CAPTURE = path.join(ROOT, 'test', 'fixtures', 'corpus', 'torch2.6-s1_static_healthy_info');

/** A small deterministic PRNG (mulberry32), so a seed gives the same job every time. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GLOG = /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) (\d+) /;

/** ms of the day a glog prefix says (the capture runs within one day). */
function glogMs(line) {
  const m = GLOG.exec(line);
  if (!m) return null;
  return ((+m[4] * 60 + +m[5]) * 60 + +m[6]) * 1000 + +m[7] / 1000;
}

function pad(n, w = 2) {
  return String(n).padStart(w, '0');
}

/** The glog prefix of `line` with its instant moved to `ms` (ms of the capture's day, may pass midnight) and `pid`. */
function retime(line, ms, pid) {
  const m = GLOG.exec(line);
  const dayMs = 24 * 3600 * 1000;
  const day = Math.floor(ms / dayMs);
  const t = ms - day * dayMs;
  const micros = Math.round((t % 1000) * 1000);
  const s = Math.floor(t / 1000);
  const stamp = `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}.${pad(micros, 6)}`;
  return `${m[1]}${m[2]}${pad(+m[3] + day)} ${stamp} ${pid} ${line.slice(m[0].length)}`;
}

/** The template's lines in three parts: up to the rendezvous, its result and the agent's lines, the workers' end. */
function template(file) {
  const lines = readFileSync(path.join(CAPTURE, file), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const launchMs = glogMs(lines[0]);
  const rdzvAt = lines.findIndex((l) => l.includes('Rendezvous complete for workers'));
  const workersAt = lines.findIndex((l) => l.startsWith('[rank'));
  const endAt = lines.findIndex((l, i) => i > workersAt && GLOG.test(l));
  return {
    launchMs,
    rdzvMs: glogMs(lines[rdzvAt]),
    endMs: glogMs(lines[endAt]),
    before: lines.slice(0, rdzvAt),
    agent: lines.slice(rdzvAt, workersAt),
    after: lines.slice(endAt),
  };
}

/** One node's lines: the template's, its values those of node `i` of `nodes` with `ranks` workers each. */
function nodeLog(tpl, i, nodes, ranks, launchMs, rdzvMs, rand) {
  const pid = 800 + ((i * 37) % 30000);
  const first = i * ranks;
  const list = (from) => `[${Array.from({ length: ranks }, (_, k) => from + k).join(', ')}]`;
  const world = nodes * ranks;
  const values = (line) =>
    line
      .replace(/Using nproc_per_node=\d+/, `Using nproc_per_node=${ranks}`)
      .replace(/(min_nodes|max_nodes)( +): \d+/, (_, k, sp) => `${k}${sp}: ${nodes}`)
      .replace(/nproc_per_node( +): \d+/, (_, sp) => `nproc_per_node${sp}: ${ranks}`)
      .replace(/'rank': \d+/, `'rank': ${i}`)
      .replace(/torchelastic_[a-z0-9_]+/, `torchelastic_${(i * 2654435761).toString(36).slice(0, 8)}`)
      .replace(/group_rank=\d+/, `group_rank=${i}`)
      .replace(/group_world_size=\d+/, `group_world_size=${nodes}`)
      .replace(/local_ranks=\[[^\]]*\]/, `local_ranks=${list(0)}`)
      .replace(/(role|global)_ranks=\[[^\]]*\]/, (_, k) => `${k}_ranks=${list(first)}`)
      .replace(
        /(role|global)_world_sizes=\[[^\]]*\]/,
        (_, k) => `${k}_world_sizes=[${Array(ranks).fill(world).join(', ')}]`,
      );
  const out = [];
  for (const l of tpl.before) out.push(values(retime(l, launchMs + (glogMs(l) - tpl.launchMs), pid)));
  for (const l of tpl.agent) out.push(values(retime(l, rdzvMs + (glogMs(l) - tpl.rdzvMs), pid)));
  // The workers' own lines (print() of the training script, no prefix), one per line as each rank prints it.
  const host = `node${i}`;
  for (let k = 0; k < ranks; k++)
    out.push(`[rank${first + k}] worker started on ${host} (local_rank=${k}); calling init_process_group('gloo')`);
  for (let k = 0; k < ranks; k++)
    out.push(
      `[rank${first + k}] init_process_group done after ${(0.01 + rand() * 0.3).toFixed(2)}s: world_size=${world} rank=${first + k}`,
    );
  for (let step = 1; step <= 3; step++)
    for (let k = 0; k < ranks; k++) {
      const sum = (world * (world - 1)) / 2;
      out.push(`[rank${first + k}] step ${step}: all_reduce sum=${sum} (expected ${sum})`);
    }
  for (let k = 0; k < ranks; k++) out.push(`[rank${first + k}] done, exiting`);
  const endMs = rdzvMs + (tpl.endMs - tpl.rdzvMs);
  for (const l of tpl.after) out.push(values(retime(l, endMs + (glogMs(l) - tpl.endMs), pid)));
  return `${out.join('\n')}\n`;
}

/**
 * Writes `nodes` files `node0.log` … into `dir` and returns what it made: the late nodes (by name, latest first)
 * and the bytes written.
 */
export function generateJob(dir, { nodes = 4096, ranks = 8, late = 41, seed = 1 } = {}) {
  mkdirSync(dir, { recursive: true });
  const rand = prng(seed);
  const host = template('node0.log');
  const other = template('node2.log');
  const start = host.launchMs;
  // Late nodes spread over the node ids (not the last ones), 60 to 300 s behind; the others within 5 s.
  const lateIds = new Set();
  while (lateIds.size < Math.min(late, nodes - 1)) lateIds.add(1 + Math.floor(rand() * (nodes - 1)));
  const launches = Array.from({ length: nodes }, (_, i) =>
    i === 0 ? start : start + (lateIds.has(i) ? 60_000 + rand() * 240_000 : rand() * 5_000),
  );
  const rdzvMs = Math.max(...launches) + 500 + rand() * 500;
  let bytes = 0;
  for (let i = 0; i < nodes; i++) {
    const text = nodeLog(i === 0 ? host : other, i, nodes, ranks, launches[i], rdzvMs, rand);
    writeFileSync(path.join(dir, `node${i}.log`), text);
    bytes += Buffer.byteLength(text);
  }
  const lateNodes = [...lateIds].sort((a, b) => launches[b] - launches[a]).map((i) => `node${i}`);
  return { dir, nodes, ranks, bytes, lateNodes, lags: lateNodes.map((n) => (launches[+n.slice(4)] - start) / 1000) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import('node:util');
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      nodes: { type: 'string', default: '4096' },
      ranks: { type: 'string', default: '8' },
      late: { type: 'string', default: '41' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (positionals.length !== 1) {
    console.error('usage: node scripts/bench-job.mjs DIR [--nodes N] [--ranks R] [--late L] [--seed S]');
    process.exit(2);
  }
  const made = generateJob(positionals[0], {
    nodes: +values.nodes,
    ranks: +values.ranks,
    late: +values.late,
    seed: +values.seed,
  });
  console.log(
    `${made.nodes} nodes × ${made.ranks} ranks, ${made.bytes} bytes in ${made.dir}; late: ${made.lateNodes.slice(0, 5).join(', ')}…`,
  );
}
