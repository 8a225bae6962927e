import type { CatalogueEntry } from './types';

// gloo (third_party/gloo, the CPU backend): its transport errors come up as RuntimeErrors with the gloo
// source file in brackets.

export const GLOO: CatalogueEntry[] = [
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
    effects: { comm: 'gloo', stage: 'pg-init', role: 'primary' },
    versions: 'gloo in torch 1.x–2.x',
    source: 'third_party/gloo/gloo/transport/tcp/device.cc; shape from msr-fiddle/pipedream#32',
  },
  {
    id: 'gloo-peer-closed',
    kind: 'error',
    anchors: ['Connection closed by peer'],
    pattern: 'Connection closed by peer \\[?(?<peer>[^\\]\\s]+)\\]?:(?<port>\\d+)',
    samples: [
      'RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.0.4.11]:37863',
    ],
    effects: { comm: 'gloo', stage: 'other', role: 'consequence', refine: 'frames', store: 'lost' },
    versions: 'gloo in torch 1.x–2.x',
    source: 'third_party/gloo/gloo/transport/tcp/pair.cc',
  },
];
