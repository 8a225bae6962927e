import type { CatalogueEntry } from './types';

// What training scripts commonly print around init_process_group and the first step. Heuristics: many
// scripts print something like these. Words about init_process_group show torch.distributed ran (weakly);
// a step counter shows nothing of the kind.

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `Mon Mar `…: a weekday and a month together, long enough not to make every line a candidate. */
const DATE_ANCHORS = DAYS.flatMap((d) => MONTHS.map((m) => `${d} ${m} `));

export const SCRIPT: CatalogueEntry[] = [
  {
    // What `date` prints, as job scripts echo it before starting torchrun (`date`, `echo "START: $(date)"`): on
    // a torch ≤ 2.0 log whose own lines carry no time, the last such line above the launch places the node.
    id: 'date-stamp',
    kind: 'info',
    anchors: DATE_ANCHORS,
    pattern:
      '(?<when>(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \\d]?\\d \\d{2}:\\d{2}:\\d{2}(?: [AP]M)?(?: [A-Z]{2,5}| [+-]\\d{4})? \\d{4})(?!\\d)',
    samples: [
      'Mon Mar  4 10:02:17 UTC 2024',
      'START TIME: Tue Nov 12 08:41:05 CST 2024',
      '+ echo Wed Jan 15 23:59:01 2025',
      '==== gpu-k11 Thu Oct  2 09:58:44 UTC 2025 ====',
    ],
    effects: { notTorchEvidence: true, timeField: 'when', scriptClock: true },
    heuristic: true,
    versions: 'any (coreutils date in the job script)',
    source:
      'coreutils date(1) in the C locale; the same shape as mpirun --timestamp-output prints (horovod/horovod#1364)',
  },
  {
    id: 'pg-init-begin',
    kind: 'info',
    anchors: ['calling init_process_group', 'Initializing process group', 'initializing process group'],
    pattern: '(?:calling init_process_group|[Ii]nitializing process group)',
    samples: [
      "2026-11-29T18:35:54.157312292Z [rank1] worker started on node0 (local_rank=1); calling init_process_group('gloo')",
    ],
    effects: { entersStage: 'pg-init' },
    heuristic: true,
    once: true,
    versions: 'any (training script output)',
    source: 'the training script',
  },
  {
    id: 'pg-init-done',
    kind: 'pg-ready',
    anchors: ['init_process_group done', 'init_process_group finished', 'process group initialized'],
    pattern: '(?:init_process_group (?:done|finished)|process group initialized)',
    samples: ['2026-11-29T18:35:54.269878476Z [rank0] init_process_group done after 0.10s: world_size=8 rank=0'],
    heuristic: true,
    once: true,
    versions: 'any (training script output)',
    source: 'the training script',
  },
  {
    // The first training-step line of the run (a resumed job starts at step N, so any number counts).
    id: 'first-step',
    kind: 'first-step',
    anchors: ['step', 'Step', 'iter', 'Iter'],
    pattern:
      '\\b(?:[Ss]tep|[Ii]ter(?:ation)?)\\b[ \\t]{0,4}[:=#]?[ \\t]{0,4}\\[?(?<step>\\d{1,12})(?:[ \\t]{0,4}/[ \\t]{0,4}\\d{1,12})?\\]?(?![\\d.])',
    samples: ['[rank0] step 1: all_reduce sum=36 (expected 36)'],
    effects: { notTorchEvidence: true },
    heuristic: true,
    once: true,
    versions: 'any (training script output)',
    source: 'the training script',
  },
  {
    // pytorch/examples' ProgressMeter (ImageNet, and the many scripts copied from it): `Epoch: [12][ 50/1563]`.
    id: 'epoch-progress',
    kind: 'first-step',
    anchors: ['Epoch: ['],
    // torchelastic's own ImageNet example puts the instance before it: `Instance: [i-0a1…] Epoch: [0][ 0/1563]`.
    pattern: '(?:^|\\s)Epoch: \\[(?<epoch>\\d{1,9})\\]\\[ {0,12}(?<step>\\d{1,12})/\\d{1,12}\\]',
    samples: [
      'Instance: [i-0b71c2d9e3f4a5b6c] Epoch: [0][   0/1563]\tTime  4.502 ( 4.502)\tData  3.177 ( 3.177)',
      'Epoch: [12][ 50/1563]  Time  0.110 ( 0.126)    Data  0.081 ( 0.081)    Loss 2.5804e+00 (2.6696e+00)    Acc@1  43.75 ( 38.48)   Acc@5  68.75 ( 62.93)',
    ],
    effects: { notTorchEvidence: true },
    heuristic: true,
    once: true,
    versions: 'any (pytorch/examples imagenet main.py ProgressMeter)',
    source:
      'pytorch/examples imagenet/main.py; shape from a torchelastic 0.2 thread (excerpt te02-new-node-detected-restart-healthy)',
  },
  {
    // Hugging Face Trainer's log of a step: `{'loss': 2.1184, 'grad_norm': …}`.
    id: 'trainer-loss',
    kind: 'first-step',
    anchors: ["{'loss': "],
    pattern: "\\{'loss': (?<loss>[\\d.eE+-]{1,30})",
    samples: ["{'loss': 2.1184, 'grad_norm': 1.072, 'learning_rate': 9.9e-06, 'epoch': 0.01}"],
    effects: { notTorchEvidence: true },
    heuristic: true,
    once: true,
    versions: 'any (transformers Trainer)',
    source: 'transformers Trainer logging',
  },
];
