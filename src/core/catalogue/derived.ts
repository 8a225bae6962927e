import type { CatalogueEntry } from './types';

// Events the extractor derives from a log's structure rather than from one line's text. No line matches
// them (no anchors); they are here so their meaning lives in one place like every other event's.

export const DERIVED: CatalogueEntry[] = [
  {
    // Where torch is installed, from the first traceback frame through torch.distributed (`…/site-packages`):
    // says how to upgrade it. Derived from the frame the traceback reader parsed, so the line stays a frame.
    id: 'torch-install-path',
    kind: 'fact',
    anchors: [],
    pattern: '(?!)',
    samples: [],
    effects: { facts: { torchPath: 'path' } },
    versions: 'Python',
    source: 'Python tracebacks (Debian python3-torch, pip wheels in venvs and conda envs)',
  },
  {
    // The paste ends inside a traceback through torch/distributed/run.py or the elastic agent.
    id: 'agent-traceback-cut',
    kind: 'failure',
    anchors: [],
    pattern: '(?!)',
    samples: [],
    effects: { stage: 'other', role: 'primary', tornDown: true },
    versions: 'any',
    source: 'a traceback through torchrun whose exception line is past the end of the log',
  },
  {
    // One thread of a faulthandler dump whose frames sit in a startup phase: the process was waiting there.
    id: 'stack-dump',
    kind: 'info',
    anchors: [],
    pattern: '(?!)',
    samples: [],
    effects: { waitsInItsStage: true, shown: true },
    versions: 'Python (faulthandler)',
    source:
      'faulthandler dump_traceback: `Current thread 0x… (most recent call first):`, frames `File "…", line N in fn`',
  },
  {
    // The paste ends inside a traceback of user code: a worker crashed, the exception is not in the text.
    id: 'worker-traceback-cut',
    kind: 'failure',
    anchors: [],
    pattern: '(?!)',
    samples: [],
    effects: { stage: 'worker-error', role: 'primary', notTorchEvidence: true },
    versions: 'any',
    source: 'a traceback whose exception line is past the end of the log',
  },
];
