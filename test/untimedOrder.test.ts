import { describe, expect, it } from 'vitest';
import { analyseTexts } from './helpers';

// An untimed line takes the time of the timed line above it: a lower bound, not when it happened. A rule that
// names the node whose failure came later (communicator setup failing further apart than its timeout) must not
// read a lower bound as "first". Lines shaped like excerpt set 7's two Ascend nodes (torch 2.1 bracket prefix,
// torch_npu's HCCL watchdog at SeqNum 1): node-b loads a checkpoint for 38 minutes before its first broadcast.

const banner = (t: string) => [
  `[2025-12-08 ${t}] torch.distributed.run: [WARNING] `,
  `[2025-12-08 ${t}] torch.distributed.run: [WARNING] *****************************************`,
  `[2025-12-08 ${t}] torch.distributed.run: [WARNING] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. `,
  `[2025-12-08 ${t}] torch.distributed.run: [WARNING] *****************************************`,
];
const watchdog = (rank: number, ran: number) =>
  `[rank${rank}]:[E compiler_depend.ts:2143] [Rank ${rank}] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=1, OpType=BROADCAST, Timeout(ms)=1800000) ran for ${ran} milliseconds before timing out.`;
const exit = (t: string, pid: number) =>
  `[2025-12-08 ${t}] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -6) local_rank: 0 (pid: ${pid}) of binary: /usr/bin/python3`;

const nodeA = [...banner('03:00:12,330'), watchdog(0, 1800437), watchdog(1, 1800437), exit('03:31:11,100', 22018)];
const nodeB = [...banner('03:00:13,114'), '[rank8] resuming: loading /nfs/ckpt/iter_0042000 ...', watchdog(8, 1800102)];

describe('untimed failures are lower bounds', () => {
  it('a failure with no time of its own does not make the other node the later one', () => {
    const job = analyseTexts({ 'node-a.log': nodeA.join('\n') + '\n', 'node-b.log': nodeB.join('\n') + '\n' });
    expect(job.verdict).toBe('failed');
    expect(job.failure?.stage).toBe('comm-init');
    // node-b's watchdog line sits under its launch banner only: it happened at 03:00:13 or (much) later.
    expect(job.failure?.lateNodes).not.toContain('node-a');
  });

  it('once the later failure has a time (its agent reports the exit), the node that failed later is named', () => {
    const timedB = [...nodeB, exit('04:08:22,004', 30911)];
    const job = analyseTexts({ 'node-a.log': nodeA.join('\n') + '\n', 'node-b.log': timedB.join('\n') + '\n' });
    expect(job.failure?.lateNodes).toEqual(['node-b']);
  });

  it('an error raised at once (EJ0001: HCCP could not start) is no wait: the node that waited is not "later"', () => {
    // Excerpt set 7's pair: ascend-n2's ranks fail at once (a leftover process holds the devices), ascend-n1's
    // wait for them and time out (EI0006) 142 s later — more than the 120 s connect timeout apart.
    const n1 = [
      ...banner('20:31:05,441'),
      '[rank0]: RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64',
      '[rank0]: EI0006: [PID: 118204] 2025-12-08-20:33:38.300.766 Getting socket times out. Reason: 1. The remote does not initiate a connect request. some NPUs in the cluster are abnormal.',
      exit('20:33:40,600', 118204),
    ];
    const n2 = [
      ...banner('20:31:06,102'),
      '[rank8]: RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64',
      '[rank8]: EJ0001: [PID: 9929] 2025-12-08-20:31:16.200.174 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.',
      exit('20:31:17,900', 9929),
    ];
    const job = analyseTexts({ 'ascend-n1.log': n1.join('\n') + '\n', 'ascend-n2.log': n2.join('\n') + '\n' });
    expect(job.failure?.stage).toBe('comm-init');
    expect(job.failure?.lateNodes).not.toContain('ascend-n1');
  });
});
