import { describe, expect, it } from 'vitest';
import { analyseTexts } from './helpers';

// A hung rank's stack as `py-spy dump -p PID` prints it (the shape of excerpt set 15's DeepEP hang): each
// thread's header, then its frames innermost first as `fn (path:line)`. The frames through torch.distributed
// show where the rank waits, as a faulthandler dump's do.

const dump = (frames: string[]) =>
  [
    'root@ep-node0:/ws# py-spy dump -p 31877',
    'Process 31877: /usr/bin/python3 train.py',
    'Python v3.10.12 (/usr/bin/python3.10)',
    '',
    'Thread 31877 (active): "MainThread"',
    ...frames.map((f) => `    ${f}`),
    'Thread 32090 (idle): "Thread-1"',
    '    wait (threading.py:324)',
    '    run (tqdm/_monitor.py:60)',
    '',
  ].join('\n');

describe('py-spy dumps', () => {
  it('places a rank waiting in init_process_group and reads nothing as failed', () => {
    const job = analyseTexts({
      'node0.log': dump([
        '_store_based_barrier (torch/distributed/distributed_c10d.py:1612)',
        'init_process_group (torch/distributed/distributed_c10d.py:1527)',
        'wrapper (torch/distributed/c10d_logger.py:81)',
        'main (train.py:41)',
        '<module> (train.py:88)',
      ]),
    });
    expect(job.verdict).toBe('incomplete');
    const dumped = job.nodes[0]!.events.find((e) => e.id === 'stack-dump');
    expect(dumped?.stage).toBe('pg-init');
  });

  it('counts a hang in a torch.distributed call as a torch job, and a dump of another program as none', () => {
    const hung = analyseTexts({
      'node0.log': dump(['all_gather_object (torch/distributed/distributed_c10d.py:3036)', 'main (train.py:41)']),
    });
    expect(hung.verdict).toBe('incomplete');
    const other = analyseTexts({ 'node0.log': dump(['poll (selectors.py:469)', 'serve (app/server.py:12)']) });
    expect(other.verdict).toBe('not-torchrun');
  });
});
