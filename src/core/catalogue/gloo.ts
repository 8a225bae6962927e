import type { CatalogueEntry } from './types';

// gloo (third_party/gloo, the CPU backend): its transport errors come up as RuntimeErrors with the gloo
// source file in brackets. Horovod vendors gloo too and prints the same errors, so a gloo line is torch
// evidence only in a stream that shows no other program (weakEvidence; `horovod-log` marks Horovod's).

export const GLOO: CatalogueEntry[] = [
  {
    // Horovod's own C++ log lines and the paths of its vendored gloo store: the gloo and NCCL lines of this
    // stream are Horovod's, not PyTorch's (horovodrun has its own rendezvous and HOROVOD_GLOO_TIMEOUT_SECONDS).
    id: 'horovod-log',
    kind: 'info',
    anchors: ['horovod/common/', 'HOROVOD_GLOO_TIMEOUT_SECONDS'],
    pattern: '(?:horovod/common/[\\w/]{1,80}\\.(?:cc|h):\\d{1,6}|HOROVOD_GLOO_TIMEOUT_SECONDS)',
    samples: [
      '[1]<stdout>:[2024-02-07 11:20:41.338211: D horovod/common/gloo/gloo_context.cc:60] local_ rendezvous started for rank=1, size=4',
      '  what():  [/tmp/pip-install-x1/horovod_0a1b/horovod/common/gloo/http_store.cc:57] Wait timeout after 30 seconds for key(s): 0. You may want to increase the timeout via HOROVOD_GLOO_TIMEOUT_SECONDS',
    ],
    effects: { foreign: true, notTorchEvidence: true },
    versions: 'Horovod ≥ 0.18 (gloo controller)',
    source:
      'horovod/common/gloo/gloo_context.cc, http_store.cc; shapes: horovod/horovod#1364, #1459, ray-project/ray#25866',
  },
  {
    // Inside init_process_group (connectFullMesh) or the first broadcast it is setup; later a collective in training.
    id: 'gloo-timeout',
    kind: 'failure',
    anchors: ['for recv operation to complete', 'for send operation to complete'],
    pattern: 'Timed out waiting (?<ms>\\d+)ms for (?<op>recv|send) operation to complete',
    samples: [
      'RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete',
    ],
    effects: {
      comm: 'gloo',
      weakEvidence: true,
      stage: 'collective-timeout',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init', 'comm-init'],
      limit: { field: 'ms', unit: 'ms' },
    },
    versions: 'gloo in torch 1.x–2.x',
    source: 'third_party/gloo/gloo/transport/tcp/unbound_buffer.cc',
  },
  {
    id: 'gloo-no-address',
    kind: 'failure',
    anchors: ['Unable to find address for'],
    pattern: 'Unable to find address for:? (?<host>\\S+)',
    samples: [
      'RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:127] rp != nullptr. Unable to find address for: gpu-b12.cluster',
    ],
    effects: { comm: 'gloo', weakEvidence: true, stage: 'pg-init', role: 'primary', immediate: true },
    versions: 'gloo in torch 1.x–2.x',
    source: 'third_party/gloo/gloo/transport/tcp/device.cc; shape from msr-fiddle/pipedream#32',
  },
  {
    // connectFullMesh: a pair to another rank could not be connected while the process group was created.
    id: 'gloo-connect-failed',
    kind: 'failure',
    anchors: ['Gloo connectFullMesh failed', 'pair.cc:'],
    pattern:
      '(?:Gloo connectFullMesh failed|\\[[^\\]]{0,200}gloo/transport/tcp/pair\\.cc:\\d{1,6}\\] connect \\[?(?<peer>[^\\]\\s]{1,64})\\]?:(?<port>\\d{1,5}): (?<err>.{1,120}))',
    samples: [
      'RuntimeError: [/opt/conda/conda-bld/pytorch_1682343967769/work/third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.7.92.18]:27731: Connection refused',
      'RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error',
    ],
    effects: {
      comm: 'gloo',
      weakEvidence: true,
      stage: 'pg-init',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init', 'comm-init'],
      immediate: true,
    },
    versions: 'gloo in torch 1.x–2.x',
    source: 'third_party/gloo/gloo/transport/tcp/pair.cc',
  },
  {
    id: 'gloo-peer-closed',
    kind: 'error',
    anchors: ['Connection closed by peer'],
    pattern: 'Connection closed by peer \\[?(?<peer>[^\\]\\s]+)\\]?:(?<port>\\d+)',
    samples: [
      'RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.0.4.11]:37863',
    ],
    effects: {
      comm: 'gloo',
      weakEvidence: true,
      stage: 'other',
      role: 'consequence',
      refine: 'frames',
      primaryInPhase: ['pg-init', 'comm-init'],
      store: 'lost',
      immediate: true,
    },
    versions: 'gloo in torch 1.x–2.x',
    source: 'third_party/gloo/gloo/transport/tcp/pair.cc',
  },
];
