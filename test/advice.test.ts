import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import { rebuildAdvice } from '../src/share/advice';
import { analyseTexts } from './helpers';

// Commands that run as shown (issue 11, item 6): one line, no placeholder inside it, no comment; `python3`;
// the upgrade the install the logs show allows; a flag the user typed is replaced rather than shadowed.

/** A 2.6 two-node static job that timed out in the rendezvous, its traceback printed from `home`. */
function job(home: string, launch: string) {
  const node = (rank: number, t: string) =>
    [
      `+ ${launch} --node_rank=${rank} train.py`,
      `[W1201 10:0${t}:00.000000000 socket.cpp:204] [c10d] The hostname of the client socket cannot be retrieved. err=-3`,
      'Traceback (most recent call last):',
      '  File "/usr/bin/torchrun", line 33, in <module>',
      `  File "${home}/torch/distributed/run.py", line 919, in main`,
      `  File "${home}/torch/distributed/elastic/rendezvous/static_tcp_rendezvous.py", line 62, in next_rendezvous`,
      'torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.',
      '',
    ].join('\n');
  return analyseTexts({ 'node0.log': node(0, '0'), 'node1.log': node(1, '5') }, 997, Date.UTC(2026, 11, 1));
}

const LAUNCH = 'torchrun --nnodes=2 --nproc-per-node=2 --master-addr=10.1.0.4 --master-port=29500';

describe('advice commands', () => {
  it('read where torch is installed from the traceback', () => {
    expect(job('/srv/venv/lib/python3.11/site-packages', LAUNCH).job.torchInstall).toEqual({
      kind: 'pip',
      path: '/srv/venv/lib/python3.11/site-packages',
    });
    expect(job('/usr/lib/python3/dist-packages', LAUNCH).job.torchInstall?.kind).toBe('distro');
    // A system-wide pip on Debian installs under /usr/local: pip can upgrade it.
    expect(job('/usr/local/lib/python3.11/dist-packages', LAUNCH).job.torchInstall?.kind).toBe('pip');
  });

  it('contain no placeholder and no comment', () => {
    for (const home of ['/srv/venv/lib/python3.11/site-packages', '/usr/lib/python3/dist-packages']) {
      const j = job(home, LAUNCH);
      for (const f of diagnose(j, 'en').findings)
        for (const a of f.advice) {
          if (a.command === null) continue;
          expect(a.command, a.id).not.toMatch(/…|\.\.\.|#|<[a-z]/);
          expect(a.command, a.id).not.toMatch(/\bpython\s+-/);
          expect(a.goesIn, a.id).not.toBeNull();
        }
    }
  });

  it('export PET_RDZV_CONF when the command line set no --rdzv_conf, replace the flag when it did', () => {
    const exported = diagnose(job('/srv/venv/lib/python3.11/site-packages', LAUNCH), 'en')
      .findings.flatMap((f) => f.advice)
      .find((a) => a.id === 'rdzv-conf')!;
    expect(exported).toMatchObject({ command: 'export PET_RDZV_CONF="timeout=1800"', goesIn: 'shell' });
    expect(exported.caveat).toContain('PET_RDZV_CONF');
    const typed = diagnose(job('/srv/venv/lib/python3.11/site-packages', `${LAUNCH} --rdzv-conf=timeout=60`), 'en')
      .findings.flatMap((f) => f.advice)
      .find((a) => a.id === 'rdzv-conf')!;
    expect(typed).toMatchObject({ command: '--rdzv_conf="timeout=1800"', goesIn: 'torchrun' });
  });

  it('rebuild from a link only with the values core would give', () => {
    expect(rebuildAdvice('upgrade-torch', { seconds: 1800, install: 'pip' })?.command).toBe(
      "python3 -m pip install --upgrade 'torch>=2.4'",
    );
    expect(rebuildAdvice('upgrade-torch', { seconds: 1800, install: 'distro' })?.command).toBeNull();
    expect(rebuildAdvice('pg-timeout', { seconds: 3600, backend: 'hccl' })?.command).toBe(
      'dist.init_process_group("hccl", timeout=datetime.timedelta(seconds=3600))',
    );
    expect(rebuildAdvice('pg-timeout', { seconds: 3600, backend: 'curl' })).toBeNull();
    expect(rebuildAdvice('same-rdzv-id', { id: 'job7' })?.command).toBe('--rdzv_id=job7');
    expect(rebuildAdvice('same-rdzv-id', { id: '$(reboot)' })).toBeNull();
  });
});
