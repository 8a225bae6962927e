import type { CatalogueEntry } from './types';

// Python tracebacks and the facts they reveal. Frames are read by the extractor (they classify the
// exception below them); the exception line itself is the catch-all failure, after every specific entry.

/**
 * A frame in a Rich traceback box (accelerate, typer, lightning's CLI): `│ /path/file.py:81 in fn │`, or, when
 * the path is long, the path on one line and `│ in fn │` on the next. The extractor reads frames with it.
 */
export const RICH_FRAME_PATTERN =
  '│ (?:(?<path>[^\\s│]{1,1000}\\.py):(?<lineno>\\d{1,9})(?: in (?<fn>[\\w<>]{1,200}))?|in (?<fn2>[\\w<>]{1,200})) {0,300}│';
/** The line a Rich box marks as the one running (`❱ 81 │ torch.distributed.barrier()`). */
export const RICH_CURRENT_PATTERN = '❱ {0,4}\\d{1,9} │(?<code>.{1,400})│ {0,8}$';

/** A py-spy dump's thread header: `Thread 31877 (active): "MainThread"`. */
export const PYSPY_THREAD_PATTERN =
  '^Thread (?:0x[0-9A-Fa-f]{4,16}|\\d{1,10}) \\((?:active|idle)(?:\\+gil)?\\)(?:: "[^"]{0,200}")?$';
/** A py-spy frame: `    all_gather_object (torch/distributed/distributed_c10d.py:3036)`. */
export const PYSPY_FRAME_PATTERN = '^ {2,8}(?<fn>[\\w<>.]{1,200}) \\((?<path>[^()\\s]{1,1000}):(?<lineno>\\d{1,9})\\)$';

export const TRACEBACK: CatalogueEntry[] = [
  {
    id: 'torch-version-entry-point',
    kind: 'fact',
    anchors: ["load_entry_point('torch=="],
    pattern: "load_entry_point\\('torch==(?<version>[^']+)'",
    samples: ["    sys.exit(load_entry_point('torch==1.13.0a0+gitunknown', 'console_scripts', 'torchrun')())"],
    effects: { facts: { torchVersion: 'version' } },
    versions: '1.13–2.6 (console-script wrapper in tracebacks)',
    source: 'the torchrun console script',
  },
  {
    id: 'torch-version-stated',
    kind: 'fact',
    anchors: ['PyTorch version:', 'torch version:', 'torch.__version__', 'Torch version:'],
    pattern:
      '(?:PyTorch|[Tt]orch) version:? {0,4}=? {0,4}(?<version>\\d+\\.\\d+(?:\\.\\d+)?[\\w.+-]{0,40})|torch\\.__version__ {0,4}[=:] {0,4}[\'"]?(?<version2>\\d+\\.\\d+(?:\\.\\d+)?[\\w.+-]{0,40})',
    samples: ['PyTorch version: 2.1.2+cu121'],
    effects: { facts: { torchVersion: 'version' }, notTorchEvidence: true },
    versions: 'any (collect_env, scripts)',
    source: 'collect_env / the training script',
  },
  {
    id: 'traceback-start',
    kind: 'traceback',
    anchors: ['Traceback (most recent call last)'],
    pattern: 'Traceback \\(most recent call last\\)',
    samples: ['Traceback (most recent call last):'],
    versions: 'Python',
    source: 'Python',
  },
  {
    // A thread of a py-spy dump (`py-spy dump -p PID`, the usual look into a hung rank): its frames follow,
    // innermost first, as `fn (path:line)`.
    id: 'pyspy-thread',
    kind: 'traceback',
    anchors: [' (active): "', ' (idle): "', ' (active+gil): "'],
    pattern: PYSPY_THREAD_PATTERN,
    samples: ['Thread 31877 (active): "MainThread"', 'Thread 0x7F3A2C1B4740 (idle): "Thread-1"'],
    versions: 'py-spy ≥ 0.3',
    source: 'benfred/py-spy dump output; shape: excerpt set 15 (a two-node DeepEP hang)',
  },
  {
    // A py-spy frame in torch.distributed (only these are looked at: they tell where the rank waits).
    id: 'pyspy-frame',
    kind: 'frame',
    anchors: [' (torch/distributed/'],
    pattern: PYSPY_FRAME_PATTERN,
    samples: ['    all_gather_object (torch/distributed/distributed_c10d.py:3036)'],
    versions: 'py-spy ≥ 0.3',
    source: 'benfred/py-spy dump output; shape: excerpt set 15 (a two-node DeepEP hang)',
  },
  {
    id: 'traceback-frame',
    kind: 'frame',
    anchors: ['File "'],
    // faulthandler's dumps print `line N in fn` (no comma), innermost call first.
    pattern: 'File "(?<path>[^"]+)", line (?<lineno>\\d+),? in (?<fn>[\\w<>]+)',
    samples: [
      '  File "/usr/lib/python3/dist-packages/torch/distributed/elastic/agent/server/api.py", line 709, in run',
      '  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/elastic/agent/server/api.py", line 906 in _exit_barrier',
    ],
    versions: 'Python',
    source: 'Python',
  },
  {
    id: 'rich-frame',
    kind: 'frame',
    anchors: ['│ '],
    pattern: RICH_FRAME_PATTERN,
    samples: [
      // huggingface/accelerate issue threads, behind pdsh's host prefix.
      '10.77.201.171: │ /home/setup/.local/lib/python3.8/site-packages/accelerate/utils/other.py:81  │',
      '10.77.201.171: │ in wait_for_everyone                                                         │',
      '│ /srv/train/run.py:212 in main                                                                  │',
    ],
    versions: 'Python (rich.traceback)',
    source: 'Textualize/rich traceback rendering',
  },
  {
    // A CUDA call that failed in a worker (a kernel's illegal memory access, the GPU out of memory): the worker
    // died on its own GPU's error wherever it was — that node is the cause of what the others then waited for.
    id: 'cuda-error',
    kind: 'failure',
    anchors: ['Error: CUDA error: ', 'Error: CUDA out of memory'],
    pattern:
      '(?:^|[\\s:>|\\]])(?<exc>(?:[A-Za-z_]\\w{0,60}\\.){0,4}(?:RuntimeError|OutOfMemoryError|AcceleratorError)): (?<err>CUDA (?:error: .{1,200}|out of memory\\..{0,300}))$',
    samples: [
      'RuntimeError: CUDA error: an illegal memory access was encountered',
      'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 3; 79.15 GiB total capacity; 76.02 GiB already allocated)',
    ],
    effects: { stage: 'worker-error', role: 'primary', localFault: true, notTorchEvidence: true },
    versions: 'PyTorch (c10/cuda, the CUDA caching allocator)',
    source: 'c10/cuda/CUDAException.h (C10_CUDA_CHECK), c10/cuda/CUDACachingAllocator.cpp; shape: excerpt set 14',
  },
  {
    // Any other exception line at the end of a traceback (e.g. the Debian 1.13 `AttributeError` crash).
    id: 'python-exception',
    kind: 'failure',
    anchors: ['Error: ', 'Exception: '],
    pattern:
      '(?:^|[\\s:>|\\]])(?<exc>(?:[A-Za-z_]\\w{0,60}\\.){0,8}[A-Za-z_]\\w{0,60}(?:Error|Exception)): (?<detail>.+)$',
    samples: ["AttributeError: 'NoneType' object has no attribute 'get'"],
    effects: {
      stage: 'other',
      role: 'primary',
      refine: 'frames',
      userCodeStage: 'worker-error',
      notTorchEvidence: true,
    },
    versions: 'Python',
    source: 'Python',
  },
];
