import type { CatalogueEntry } from './types';

// Ascend: HCCL (CANN's collective library) and its error codes, as torch_npu jobs print them. Values and
// the HCCL_CONNECT_TIMEOUT / HCCL_EXEC_TIMEOUT knobs: docs/pytorch-log-formats.md §6 (CANN docs).

export const HCCL: CatalogueEntry[] = [
  {
    id: 'hccl-link-timeout',
    kind: 'failure',
    anchors: ['wait socket establish timeout'],
    pattern:
      'wait socket establish timeout, role\\[(?<role>\\d+)\\] rank\\[(?<rank>\\d+)\\] timeout\\[(?<secs>\\d+)(?: s)?\\]',
    samples: [
      '[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', limit: { field: 'secs', unit: 's' } },
    versions: 'CANN 5.x–9.x (HCCL_CONNECT_TIMEOUT)',
    source: 'HCCL hccl_socket_manager.cc',
  },
  {
    id: 'hccl-ei0006',
    kind: 'failure',
    anchors: ['EI0006'],
    pattern:
      'EI0006:?\\s*(?:\\[PID: \\d+\\]\\s*)?(?:\\d{4}-\\d\\d-\\d\\d-\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\.\\d{3}\\s*)?(?<detail>.*)$',
    samples: [
      'EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary' },
    versions: 'CANN (HCCL_CONNECT_TIMEOUT)',
    source: 'HCCL error report EI0006',
  },
];
