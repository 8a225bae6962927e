// Benchmark corpus: many large per-node torchrun logs built from the real templates in
// scripts/bench-templates/ (verbatim copies of logs from shared/corpus). Each generated file is one node's log:
// the template's head (its torchrun start-up lines), then a long stretch of training noise printed in the
// template's own prefix style (Kubernetes RFC 3339 prefix, Slurm `N: ` label, glog prefix, `--tee` label,
// worker timestamp), then the template's tail (tracebacks, ChildFailedError, exit lines) with its timestamps
// moved past the noise. Deterministic for a given seed; written in chunks, never a whole file in memory.

import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bump when the generator's output changes for the same parameters (invalidates reused corpora). */
export const GENERATOR_VERSION = 1;

export const TEMPLATE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench-templates');

// How each template is continued. `outer`: prefix a collector/launcher adds to every line; `worker`: how the
// training script's own lines look; `glog`: torch >= 2.3 Python logging (glog prefixes) for framework noise;
// `tailFrom`: the first line (outer prefix removed) of the part kept for the end of the file.
export const TEMPLATES = [
  {
    file: 't113-plain-static-connect-timeout.node1.log',
    source: 'torch1.13-s2_static_timeout_node0_late/node1.log',
    outer: 'none',
    worker: 'bracket',
    glog: false,
    tailFrom: /^WARNING: Logging before InitGoogleLogging/,
    host: 'node1',
    pid: 16422,
    ranks: [2, 3],
    world: 8,
    name: (i) => `node${i}.log`,
  },
  {
    file: 't113-plain-store-socket-timeout.node1.log',
    source: 'torch1.13-s6r_static_store_barrier_300s_rerun/node1.log',
    outer: 'none',
    worker: 'bracket',
    glog: false,
    tailFrom: /^Traceback \(most recent call last\):/,
    host: 'node1',
    pid: 21807,
    ranks: [1],
    world: 3,
    name: (i) => `node${i}.log`,
  },
  {
    file: 't113-k8s-healthy.trainjob-worker-0.log',
    source: 'torch1.13-capture-k1/trainjob-worker-0.log',
    outer: 'k8s',
    worker: 'bracket',
    glog: false,
    tailFrom: /^\[rank\d+\] done, exiting/,
    host: 'node1',
    pid: 9512,
    ranks: [2, 3],
    world: 8,
    name: (i) => `trainjob-worker-${i}.log`,
  },
  {
    file: 't113-k8s-connect-timeout.trainjob-worker-1.log',
    source: 'torch1.13-capture-k2b/trainjob-worker-1.log',
    outer: 'k8s',
    worker: 'bracket',
    glog: false,
    tailFrom: /^WARNING: Logging before InitGoogleLogging/,
    host: 'node2',
    pid: 9918,
    ranks: [2],
    world: 3,
    name: (i) => `trainjob-worker-${i}.log`,
  },
  {
    file: 't113-slurm-healthy.slurm-731042.out',
    source: 'torch1.13-capture-s1/slurm-731042.out',
    outer: 'slurm',
    worker: 'bracket',
    glog: false,
    tailFrom: /^\[rank\d+\] done, exiting/,
    host: 'node0',
    pid: 4410,
    ranks: [0, 1, 2, 3],
    world: 4,
    name: (i) => `slurm-731042-${i}.out`,
  },
  {
    file: 't26-glog-pg-init-timeout.node2.log',
    source: 'torch2.6-s9_static_pg_init_timeout20/node2.log',
    outer: 'none',
    worker: 'iso-pipe',
    glog: true,
    tailFrom: /^\[E\d{4} /,
    host: 'node2',
    pid: 6301,
    ranks: [4, 5],
    world: 8,
    name: (i) => `node${i}.log`,
  },
  {
    file: 't26-glog-tee-healthy.node0.log',
    source: 'torch2.6-s7_c10d_logdir_tee_filter/node0.log',
    outer: 'none',
    worker: 'tee-iso-pipe',
    glog: true,
    tailFrom: /^\[default\d+\]:.* \| done, exiting/,
    host: 'node0',
    pid: 6001,
    ranks: [0, 1],
    world: 8,
    name: (i) => `node${i}.log`,
  },
  {
    file: 't26-logdir-healthy.attempt_0-0-stdout.log',
    source: 'torch2.6-s7_c10d_logdir_tee_filter/node0_logdir/s7-job_u7dbl27x/attempt_0/0/stdout.log',
    outer: 'none',
    worker: 'iso-pipe',
    glog: false,
    tailFrom: / \| done, exiting/,
    host: 'node0',
    pid: 6089,
    ranks: [0],
    world: 8,
    name: (i, rand) => `node${i}_logdir/bench-job_${randomId(rand, 8)}/attempt_0/0/stdout.log`,
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: small, fast, good enough for synthetic text. Returns floats in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedFor(seed, index) {
  const h = createHash('sha256').update(`${seed}:${index}`).digest();
  return h.readUInt32LE(0);
}

const int = (rand, lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = (rand, list) => list[Math.floor(rand() * list.length)];

function randomId(rand, n) {
  const abc = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < n; i++) s += abc[Math.floor(rand() * abc.length)];
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// Timestamps: the formats found in the templates, read and re-printed (all UTC, as in the capture)

const pad = (n, w = 2) => String(n).padStart(w, '0');
/** Fractional digits below the millisecond survive a shift unchanged (they are not wall-clock anyway). */
export const TIME_FORMATS = [
  {
    // kubectl logs --timestamps: 2026-11-29T18:35:06.758216632Z
    re: /(?<![\d.])(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})(\d{6})Z/g,
    read: (m) => [Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7]), m[8]],
    write: (d, sub) => `${d.toISOString().slice(0, 23)}${sub}Z`,
  },
  {
    // 2.6 worker lines: 2026-11-29T18:40:22.053 | rank 4/8 |
    re: /(?<![\d.])(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})(?= \| rank)/g,
    read: (m) => [Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7]), ''],
    write: (d) => d.toISOString().slice(0, 23),
  },
  {
    // 1.13 C++ glog with year: E20261129 18:11:37.385901
    re: /(?<![\w.])([IWEF])(\d{4})(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})(\d{3})(?= )/g,
    read: (m) => [Date.UTC(+m[2], +m[3] - 1, +m[4], +m[5], +m[6], +m[7], +m[8]), m[9], m[1]],
    write: (d, sub, lvl) =>
      `${lvl}${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${hms(d)}.${pad(d.getUTCMilliseconds(), 3)}${sub}`,
  },
  {
    // 2.6 Python glog: I1129 18:30:40.510000 and C++ [E1129 18:31:02.037662347 (no year: assume the capture's)
    re: /(?<![\w.])([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})(\d{3}|\d{6})(?= )/g,
    read: (m) => [Date.UTC(2026, +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7]), m[8], m[1]],
    write: (d, sub, lvl) =>
      `${lvl}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${hms(d)}.${pad(d.getUTCMilliseconds(), 3)}${sub}`,
  },
  {
    // ChildFailedError record: time      : 2026-11-29_18:41:40
    re: /(?<=time\s+: )(\d{4})-(\d\d)-(\d\d)_(\d\d):(\d\d):(\d\d)/g,
    read: (m) => [Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]), ''],
    write: (d) => `${d.toISOString().slice(0, 10)}_${hms(d)}`,
  },
];

function hms(d) {
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Every instant printed on a line, in ms since the epoch. */
export function timesOn(line) {
  const out = [];
  for (const f of TIME_FORMATS) for (const m of line.matchAll(f.re)) out.push(f.read(m)[0]);
  return out;
}

/** The line with every recognised timestamp moved by deltaMs, printed in its own format. */
function shiftTimes(line, deltaMs) {
  for (const f of TIME_FORMATS) {
    line = line.replace(f.re, (...args) => {
      const [ms, sub, extra] = f.read(args);
      return f.write(new Date(ms + deltaMs), sub, extra);
    });
  }
  return line;
}

// ---------------------------------------------------------------------------------------------------------------
// Prefix styles

const K8S_PREFIX = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z /;
const SLURM_PREFIX = /^\d+: /;

function stripOuter(outer, line) {
  if (outer === 'k8s') return line.replace(K8S_PREFIX, '');
  if (outer === 'slurm') return line.replace(SLURM_PREFIX, '');
  return line;
}

/** A k8s prefix carries nanoseconds; derive stable sub-millisecond digits from the PRNG. */
function k8sPrefix(ms, rand) {
  return `${new Date(ms).toISOString().slice(0, 23)}${pad(Math.floor(rand() * 1e6), 6)}Z `;
}

function glogPrefix(level, ms, rand, pid, where) {
  const d = new Date(ms);
  return `${level}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${hms(d)}.${pad(d.getUTCMilliseconds(), 3)}${pad(Math.floor(rand() * 1000), 3)} ${pid} ${where}] `;
}

function sci(x) {
  const e = Math.floor(Math.log10(x));
  let m = x / 10 ** e;
  let ee = e;
  if (m.toFixed(1) === '10.0') {
    m = 1;
    ee += 1;
  }
  return `${m.toFixed(1)}e${ee < 0 ? '-' : '+'}${pad(Math.abs(ee))}`;
}

function fmtClock(s) {
  s = Math.max(0, Math.round(s));
  const h = Math.floor(s / 3600);
  const mm = pad(Math.floor((s % 3600) / 60));
  const ss = pad(s % 60);
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

const BAR = ' ▏▎▍▌▋▊▉█';
function tqdmBar(frac, width = 10) {
  const full = Math.floor(frac * width);
  const part = Math.floor((frac * width - full) * 8);
  let s = '█'.repeat(full);
  if (full < width) s += (part > 0 ? BAR[part] : ' ') + ' '.repeat(width - full - 1);
  return s;
}

const PY_WARNINGS = [
  [
    '/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py:558: UserWarning: This DataLoader will create 8 worker processes in total. Our suggested max number of worker in current system is 4, which is smaller than what this DataLoader is going to create. Please be aware that excessive worker creation might get DataLoader running slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.',
    '  warnings.warn(_create_warning_msg(',
  ],
  [
    '/usr/lib/python3/dist-packages/torch/optim/lr_scheduler.py:143: UserWarning: Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value of the learning rate schedule. See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate',
    '  warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. "',
  ],
  [
    "/sim/tools/train.py:88: FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.",
    '  scaler = torch.cuda.amp.GradScaler()',
  ],
  [
    '/usr/lib/python3/dist-packages/torch/nn/modules/module.py:1501: UserWarning: Using a target size (torch.Size([32])) that is different to the input size (torch.Size([32, 1])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.',
    '  return F.mse_loss(input, target, reduction=self.reduction)',
  ],
];

const GLOG_NOISE = [
  ['W', 'torch/_dynamo/convert_frame.py:844', '[0/8] torch._dynamo hit config.cache_size_limit (8)'],
  ['W', 'torch/_dynamo/convert_frame.py:844', "[0/8]    function: 'forward' (/sim/tools/model.py:141)"],
  [
    'W',
    'torch/_dynamo/convert_frame.py:844',
    "[0/8]    last reason: 0/0: tensor 'L['x']' size mismatch at index 0. expected 32, actual 17",
  ],
  ['I', 'torch/_inductor/utils.py:1137', '[0/0] Not enough SMs to use max_autotune_gemm mode'],
  ['W', 'torch/utils/checkpoint.py:92', 'None of the inputs have requires_grad=True. Gradients will be None'],
];

// ---------------------------------------------------------------------------------------------------------------
// One generated node log

function splitTemplate(tpl, text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const cut = lines.findIndex((l) => tpl.tailFrom.test(stripOuter(tpl.outer, l)));
  if (cut <= 0) throw new Error(`template ${tpl.file}: no tail line matches ${tpl.tailFrom}`);
  const head = lines.slice(0, cut);
  const tail = lines.slice(cut);
  // The template's own worker lines (repeated in the noise), minus the ones that mean "this worker ended".
  const workerRe = tpl.worker === 'bracket' ? /^\[rank\d+\] / : / \| rank \d+\/\d+ \| /;
  const workerLines = lines
    .map((l) => stripOuter(tpl.outer, l))
    .filter((l) => workerRe.test(l) && !/done, exiting/.test(l));
  return { head, tail, workerLines };
}

/**
 * Write one node's log to `file`, about `targetBytes` long.
 * @returns {Promise<number>} bytes written
 */
async function writeNodeLog(file, tpl, parts, targetBytes, rand, nodeIndex) {
  const { head, tail, workerLines } = parts;
  const outer = tpl.outer;
  const fh = await open(file, 'w');
  let written = 0;
  let chunk = [];
  let chunkBytes = 0;
  const push = (line) => {
    const s = line + '\n';
    chunk.push(s);
    chunkBytes += Buffer.byteLength(s);
  };
  const flush = async () => {
    if (chunk.length === 0) return;
    const { bytesWritten } = await fh.write(chunk.join(''));
    written += bytesWritten;
    chunk = [];
    chunkBytes = 0;
  };

  try {
    for (const l of head) push(l);

    // Clock: continues from the last instant printed in the head (or a fixed start for untimed templates).
    let t = Date.UTC(2026, 10, 29, 18, 0, 0);
    for (const l of head) for (const ms of timesOn(l)) t = Math.max(t, ms);
    const tailBytes = tail.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    const noiseBudget = Math.max(0, targetBytes - written - chunkBytes - tailBytes);
    const noiseStart = written + chunkBytes;

    const ranks = tpl.ranks;
    const localRank = (r) => ranks.indexOf(r);
    const workerPids = ranks.map((_, i) => tpl.pid + 4 + i * 4);
    const ncclTids = ranks.map((_, i) => tpl.pid + 100 + i * 13);
    const stepsPerEpoch = 1000 + int(rand, 0, 4) * 250;
    const steps = new Map(ranks.map((r) => [r, 0])); // each rank's own step counter
    let epoch = 0;
    let tq = 0; // tqdm position in the current epoch

    const outerPrefix = (rank) => {
      if (outer === 'k8s') return k8sPrefix(t, rand);
      if (outer === 'slurm') return `${rank}: `;
      return '';
    };
    // What the training script printed for `rank`, in the template's worker style.
    const workerText = (rank, msg) => {
      switch (tpl.worker) {
        case 'bracket':
          return `[rank${rank}] ${msg}`;
        case 'iso-pipe':
          return `${new Date(t).toISOString().slice(0, 23)} | rank ${rank}/${tpl.world} | ${msg}`;
        case 'tee-iso-pipe':
          return `[default${localRank(rank)}]:${new Date(t).toISOString().slice(0, 23)} | rank ${rank}/${tpl.world} | ${msg}`;
        default:
          throw new Error(`unknown worker style ${tpl.worker}`);
      }
    };
    // A line the worker printed without the training script's formatting (NCCL, warnings, tqdm).
    const rawWorker = (rank, text) => (tpl.worker === 'tee-iso-pipe' ? `[default${localRank(rank)}]:${text}` : text);
    const emit = (rank, inner) => push(outerPrefix(rank) + inner);

    let loss = 10.5 + rand();
    while (written + chunkBytes - noiseStart < noiseBudget) {
      t += Math.floor(rand() * 22);
      const rank = pick(rand, ranks);
      const lr = localRank(rank);
      let step = steps.get(rank);
      const r = rand();
      if (r < 0.52) {
        steps.set(rank, ++step);
        loss = Math.max(1.2, loss * 0.99995 + (rand() - 0.5) * 0.02);
        const lrv = 3e-4 * Math.min(1, (step + 1) / 2000) * (0.5 + 0.5 * Math.cos((step / 200000) * Math.PI));
        emit(
          rank,
          workerText(
            rank,
            `step ${step}: loss=${(loss + (rand() - 0.5) * 0.3).toFixed(4)} lr=${sci(Math.max(lrv, 1e-7))} tokens/s=${(15000 + rand() * 6000).toFixed(1)} grad_norm=${(0.3 + rand() * 1.2).toFixed(3)} step_time=${(380 + rand() * 90).toFixed(1)}ms mem=${(20 + rand() * 3).toFixed(2)}GB`,
          ),
        );
      } else if (r < 0.64) {
        const ch = int(rand, 0, 15);
        const peer = int(rand, 0, tpl.world - 1);
        const what = pick(rand, [
          () =>
            `Channel ${pad(ch)}/16 : ${rank}[${lr}] -> ${peer}[${peer % 8}] [send] via NET/IB/${int(rand, 0, 3)}/GDRDMA`,
          () =>
            `Channel ${pad(ch)}/16 : ${peer}[${peer % 8}] -> ${rank}[${lr}] [receive] via NET/IB/${int(rand, 0, 3)}/GDRDMA`,
          () => `Channel ${pad(ch)}/0 : ${rank}[${lr}] -> ${(rank + 1) % tpl.world}[${(lr + 1) % 8}] via P2P/IPC/read`,
          () => `Channel ${pad(ch)}/02 :    0   1   2   3   4   5   6   7`,
          () =>
            `Trees [${ch}] ${peer}/-1/-1->${rank}->${(rank + 1) % tpl.world} [${ch + 16}] -1/-1/-1->${rank}->${peer}`,
          () => `Connected all rings`,
          () => `Connected all trees`,
          () => `threadThresholds 8/8/64 | 64/8/64 | 512 | 512`,
          () =>
            `${int(rand, 2, 32)} coll channels, ${int(rand, 0, 32)} nvls channels, ${int(rand, 2, 32)} p2p channels, ${int(rand, 1, 4)} p2p channels per peer`,
          () => `NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.${nodeIndex % 256}.${rank}<0>`,
        ])();
        emit(
          rank,
          rawWorker(rank, `${tpl.host}:${workerPids[lr]}:${ncclTids[lr] + int(rand, 0, 3)} [${lr}] NCCL INFO ${what}`),
        );
      } else if (r < 0.72) {
        // tqdm: several carriage-return updates on one physical line, as tee captures them
        const n = int(rand, 2, 6);
        let s = '';
        for (let k = 0; k < n; k++) {
          tq = Math.min(stepsPerEpoch, tq + int(rand, 1, 5));
          const frac = tq / stepsPerEpoch;
          const rate = 2 + rand() * 0.8;
          s += `${k ? '\r' : ''}Epoch ${epoch}: ${pad(Math.floor(frac * 100), 3).replace(/^0+(?=\d)/, (z) => ' '.repeat(z.length))}%|${tqdmBar(frac)}| ${tq}/${stepsPerEpoch} [${fmtClock(tq / rate)}<${fmtClock((stepsPerEpoch - tq) / rate)}, ${rate.toFixed(2)}it/s, loss=${loss.toFixed(3)}]`;
        }
        if (tq === stepsPerEpoch) {
          tq = 0;
          epoch += 1;
        }
        emit(rank, rawWorker(rank, s));
      } else if (r < 0.78) {
        emit(
          rank,
          workerText(
            rank,
            pick(rand, [
              () =>
                `data: fetched ${int(rand, 16, 64)} batches in ${(rand() * 40).toFixed(1)}ms (queue=${int(rand, 0, 16)})`,
              () => `throughput: ${(rand() * 200 + 100).toFixed(1)} TFLOP/s, MFU=${(rand() * 20 + 35).toFixed(1)}%`,
              () =>
                `eval step ${step}: val_loss=${(loss + 0.1).toFixed(4)} ppl=${Math.exp(Math.min(loss, 20)).toFixed(2)}`,
              () =>
                `saving checkpoint to /data/ckpt/step_${step}/rank${rank}.pt (${(rand() * 900 + 100).toFixed(0)} MB)`,
              () => `grad scaler: scale=${2 ** int(rand, 10, 16)}.0 found_inf=${rand() < 0.05 ? 1 : 0}`,
            ])(),
          ),
        );
      } else if (r < 0.785 && workerLines.length > 0) {
        // The template's own worker lines, with the current time where they carry one.
        let l = pick(rand, workerLines);
        if (tpl.worker !== 'bracket') l = shiftTimes(l, t - (timesOn(l)[0] ?? t));
        const own = Number(/rank ?(\d+)/.exec(l)?.[1]);
        emit(ranks.includes(own) ? own : rank, l);
      } else if (r < 0.79) {
        for (const l of pick(rand, PY_WARNINGS)) emit(rank, rawWorker(rank, l));
      } else if (tpl.glog && r < 0.81) {
        const [level, where, msg] = pick(rand, GLOG_NOISE);
        emit(rank, rawWorker(rank, glogPrefix(level, t, rand, workerPids[lr], where) + msg));
      } else {
        emit(
          rank,
          workerText(
            rank,
            `step ${step}: loss=${loss.toFixed(4)} data_time=${(rand() * 12).toFixed(2)}ms fwd=${(rand() * 120 + 90).toFixed(1)}ms bwd=${(rand() * 240 + 180).toFixed(1)}ms opt=${(rand() * 30 + 10).toFixed(1)}ms`,
          ),
        );
      }
      if (chunkBytes >= 1 << 20) await flush();
    }

    // Tail: its timestamps (if any) moved to follow the noise, keeping their spacing.
    const tailTimes = tail.flatMap(timesOn);
    const delta = tailTimes.length > 0 ? t + 1500 - Math.min(...tailTimes) : 0;
    for (const l of tail) push(delta > 0 ? shiftTimes(l, delta) : l);
    await flush();
  } finally {
    await fh.close();
  }
  return written;
}

// ---------------------------------------------------------------------------------------------------------------
// Corpus

/** Hash of the templates, their settings and the generator's source: part of the reuse key. */
export async function templatesDigest() {
  const h = createHash('sha256').update(`v${GENERATOR_VERSION}\n`);
  h.update(await readFile(fileURLToPath(import.meta.url))); // any change to this generator counts too
  for (const tpl of TEMPLATES) {
    h.update(tpl.file).update(JSON.stringify({ ...tpl, tailFrom: String(tpl.tailFrom), name: String(tpl.name) }));
    h.update(await readFile(path.join(TEMPLATE_DIR, tpl.file)));
  }
  return h.digest('hex').slice(0, 16);
}

export async function readManifest(dataDir) {
  try {
    return JSON.parse(await readFile(path.join(dataDir, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** True when every file listed in the manifest is there with the recorded size. */
export async function corpusIntact(dataDir, manifest) {
  if (!manifest || !Array.isArray(manifest.files)) return false;
  for (const f of manifest.files) {
    try {
      if ((await stat(path.join(dataDir, manifest.logsDir, f.path))).size !== f.bytes) return false;
    } catch {
      return false;
    }
  }
  return true;
}

export function sameParams(a, b) {
  return !!a && !!b && ['totalBytes', 'files', 'seed', 'templates'].every((k) => a[k] === b[k]);
}

/**
 * Generate the corpus into `<dataDir>/<logsDir>/` and write `<dataDir>/manifest.json` last (an interrupted run
 * leaves no manifest and is regenerated next time).
 */
export async function generateCorpus({ dataDir, logsDir = 'logs', totalBytes, files, seed, log = () => {} }) {
  const params = { totalBytes, files, seed, templates: await templatesDigest() };
  const logsPath = path.join(dataDir, logsDir);
  await rm(path.join(dataDir, 'manifest.json'), { force: true });
  await rm(logsPath, { recursive: true, force: true });
  await mkdir(logsPath, { recursive: true });

  const parts = new Map();
  for (const tpl of TEMPLATES) {
    parts.set(tpl.file, splitTemplate(tpl, await readFile(path.join(TEMPLATE_DIR, tpl.file), 'utf8')));
  }

  // Sizes vary ±10% per node (seeded), scaled so they add up to the requested total.
  const sizeRand = prng(seedFor(seed, 'sizes'));
  const weights = Array.from({ length: files }, () => 0.9 + 0.2 * sizeRand());
  const wsum = weights.reduce((a, b) => a + b, 0);
  let assigned = 0;
  const targets = weights.map((w, i) => {
    const b = i === files - 1 ? totalBytes - assigned : Math.floor((totalBytes * w) / wsum);
    assigned += b;
    return b;
  });

  const out = [];
  const t0 = process.hrtime.bigint();
  let total = 0;
  for (let i = 0; i < files; i++) {
    const tpl = TEMPLATES[i % TEMPLATES.length];
    const rand = prng(seedFor(seed, i));
    const rel = tpl.name(i, rand);
    const file = path.join(logsPath, rel);
    await mkdir(path.dirname(file), { recursive: true });
    const bytes = await writeNodeLog(file, tpl, parts.get(tpl.file), targets[i], rand, i);
    total += bytes;
    out.push({ path: rel, template: tpl.file, bytes });
    if ((i + 1) % 16 === 0 || i === files - 1) {
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      log(`  generated ${i + 1}/${files} files, ${(total / 2 ** 20).toFixed(0)} MiB in ${s.toFixed(1)} s`);
    }
  }
  const manifest = {
    generator: GENERATOR_VERSION,
    params,
    logsDir,
    totalBytes: total,
    files: out,
    generatedAt: new Date().toISOString(),
  };
  await writeFile(path.join(dataDir, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  return manifest;
}
