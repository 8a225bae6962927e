import { describe, expect, it } from 'vitest';
import { renderReport } from '../src/cli/report';
import { diagnose } from '../src/core/index';
import { analyseTexts, toBracket21 } from './helpers';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The seed problem: one node started minutes after the others because it was still downloading and
// unpacking data; the others died with `Socket Timeout` after 300 s in store_util.synchronize although the
// rendezvous timeout was 900 s. Reconstructed from real lines:
//  - the torchrun lines of test/fixtures/captured/torch1.13-static-rank-assignment-300s (a real static run
//    with the default 900 s timeout, node2 330 s late), printed in the 2.1–2.2 bracket format (the message
//    texts are the same in 2.1; only the prefix differs);
//  - node2's pre-launch work: the real download / checksum / tar / copy lines of the corpus's p2 capture,
//    spread over the seven minutes before node2's torchrun started (its pod came up 90 s before the others).

const CAPTURE = path.join(__dirname, 'fixtures/captured/torch1.13-static-rank-assignment-300s');
const P2 = path.join(__dirname, 'fixtures/corpus/torch1.13-capture-p2/node1.log');

function prelaunch(startMs: number, endMs: number): string {
  const lines = readFileSync(P2, 'utf8')
    .split('\n')
    .filter((l) => l && !/INFO:torch|^\S+Z\s{2}|^\S+Z $/.test(l))
    .map((l) => l.replace(/^\S+Z /, ''));
  const cut = lines.findIndex((l) => l.startsWith('data ready'));
  const work = lines.slice(0, cut + 1);
  // The script's own `date -Is` lines carry the time; place them at the start and at the end.
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  let dates = 0;
  return work
    .map((l) => (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/.test(l) ? iso(dates++ === 0 ? startMs : endMs) : l))
    .join('\n');
}

function seedFiles(): Record<string, string> {
  const read = (f: string) => readFileSync(path.join(CAPTURE, f), 'utf8');
  const node2 = toBracket21(read('node2.log'));
  const [, day, time, ms] = /^\[(\S+) (\S+),(\d+)\]/.exec(node2)!;
  const launch2 = Date.parse(`${day}T${time}.${ms}Z`);
  return {
    'node0.log': toBracket21(read('node0.log')),
    'node1.log': toBracket21(read('node1.log')),
    // The script's `date -Is` prints whole seconds: start on one, seven minutes before the launch.
    'node2.log': prelaunch(Math.ceil((launch2 - 420_000) / 1000) * 1000, launch2 - 1_000) + '\n' + node2,
  };
}

describe('the seed problem, in the 2.1 format with a 7-minute download on the late node', () => {
  const files = seedFiles();
  const job = analyseTexts(files);

  it('reads the 2.1 format with its times', () => {
    expect(files['node1.log']).toMatch(
      /^\[2026-11-29 19:28:28,510\] torch\.distributed\.launcher\.api: \[INFO\] Starting/,
    );
    expect(job.job.rdzvConfigs).toEqual({ timeout: '900' });
    expect(job.job.rdzvConfigsDefaulted).toEqual(['timeout']);
    expect(job.failure?.stage).toBe('rank-assignment');
    expect(job.failure?.lateNodes).toEqual(['node2']);
    expect(job.nodes.find((n) => n.id === 'node2')!.lagSeconds).toBeCloseTo(330, 0);
  });

  it('names the late node, its lag, the 300 s limit and both fixes (English)', () => {
    const dx = diagnose(job, 'en');
    // The report wraps long lines; read it unwrapped.
    const out = renderReport(job, dx, 'en').replace(/\n {2,}(?![$\d])/g, ' ');
    expect(out).toContain('[LATE_NODE] node2 started 330 s after node0');
    expect(out).toContain(
      'whose limit is 300 s on torch 1.13.0a0+gitunknown — that is the timeout that fired, not the 900 s rendezvous timeout',
    );
    expect(out).toContain('[PRELAUNCH_WORK] node2 spent 420 s before starting torchrun');
    expect(out).toMatch(/with work such as: download\w*, .*unpack/);
    // Fix 1: no flag raises the 300 s wait on this version — upgrade, or (not in production) patch it.
    expect(out).toContain('No --rdzv_conf key raises it');
    // Debian's own torch (its tracebacks run from /usr/lib/python3/dist-packages): no pip line that cannot work.
    expect(out).toContain('This torch is the distribution’s python3-torch (/usr/lib/python3/dist-packages)');
    expect(out).not.toContain('pip install');
    expect(out).toContain('barrier_timeout: float = 1800');
    // Fix 2: start torchrun first; move the download after init_process_group or stage the data.
    expect(out).toContain(
      'Start torchrun first; download and unpack after init_process_group, or stage data before the job',
    );
    expect(dx.whatIf?.blockedBy).toEqual({ id: 'store-sync', seconds: 300 });
  });

  it('says the same in Chinese', () => {
    const dx = diagnose(job, 'zh');
    const out = [renderReport(job, dx, 'zh'), ...dx.findings.map((f) => f.detail)].join('\n');
    expect(out).toContain('node2 比 node0 晚启动 330 秒');
    expect(out).toContain('该等待的上限是 300 秒 —— 触发的是这个超时，而不是 900 秒的 rendezvous 超时');
    expect(out).toContain('node2 在启动 torchrun 之前花了 420 秒');
    expect(out).toContain('升级到 torch 2.4 或更新版本');
    expect(out).toContain('先启动 torchrun；在 init_process_group 之后下载和解压数据，或在作业开始前准备好数据');
  });

  it('the captured Kubernetes-timestamped original gives the same diagnosis', () => {
    const orig = analyseTexts(
      Object.fromEntries(
        ['node0.log', 'node1.log', 'node2.log'].map((f) => [f, readFileSync(path.join(CAPTURE, f), 'utf8')]),
      ),
    );
    expect(orig.failure).toMatchObject({ stage: 'rank-assignment', lateNodes: ['node2'], timeoutSeconds: 300 });
  });
});
