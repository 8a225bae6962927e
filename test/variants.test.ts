import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteText } from '../src/core/notesText';
import { diagnose } from '../src/core/index';
import { CAPTURED, analyseTexts, corpusText, filesUnder, mapLines, toBracket21 } from './helpers';

// The shapes real posted logs take (../shared/docs/real-world-variants.md), made from real corpus logs by
// the transformation each shape describes: collectors in another zone, pdsh and Slurm interleaving,
// collapsed tracebacks, padding, CRLF, the 2.1 bracket format, a missing node, and logs of other programs.

const S2 = 'torch2.6-s2_static_timeout30_node3_late';
const s2 = () => Object.fromEntries([0, 1, 2, 3].map((i) => [`node${i}.log`, corpusText(S2, `node${i}.log`)]));

function expectS2(job: ReturnType<typeof analyseTexts>, late = 'node3') {
  expect(job.verdict).toBe('failed');
  expect(job.failure?.stage).toBe('rendezvous-timeout');
  expect(job.failure?.lateNodes).toEqual([late]);
  expect(job.skewSeconds).toBeGreaterThan(43);
  expect(job.skewSeconds).toBeLessThan(47);
}

describe('real-world variants of real logs', () => {
  it('the plain files', () => {
    expectS2(analyseTexts(s2()));
  });

  it('a collector stamping its local time (UTC+8) and host before PyTorch’s own UTC glog time', () => {
    const files = Object.fromEntries(
      Object.entries(s2()).map(([name, text]) => {
        const host = name.replace('.log', '');
        // The collector saw each line 8 h ahead (its zone) and ~2 ms later.
        let last = '2026-11-30 02:29:55.000';
        return [
          `collected/${name}`,
          mapLines(text, (l) => {
            const m =
              /^[IWE](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(l) ??
              /^\[[IWE](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(l);
            if (m) {
              const d = new Date(
                Date.UTC(
                  2026,
                  Number(m[1]) - 1,
                  Number(m[2]),
                  Number(m[3]) + 8,
                  Number(m[4]),
                  Number(m[5]),
                  Number(m[6]) + 2,
                ),
              );
              last = d.toISOString().replace('T', ' ').slice(0, 23);
            }
            return `${last}  ${host} ${l}`;
          }),
        ];
      }),
    );
    const job = analyseTexts(files);
    expectS2(job);
    expect(job.nodes.map((n) => n.hostname ?? n.id).sort()).toEqual(['node0', 'node1', 'node2', 'node3']);
  });

  it('pdsh: all nodes interleaved in one file, told apart by `host: ` labels', () => {
    const per = Object.entries(s2()).map(([name, text]) =>
      text.split('\n').map((l) => `${name.replace('.log', '')}: ${l}`),
    );
    const merged: string[] = [];
    for (let i = 0; per.some((p) => i < p.length); i++)
      for (const p of per) if (i < p.length && p[i] !== 'node0: ' && p[i]) merged.push(p[i]!);
    const job = analyseTexts({ 'pdsh-all.log': merged.join('\n') + '\n' });
    expect(job.nodes).toHaveLength(4);
    expectS2(job, job.nodes.find((n) => n.id.endsWith('node3'))!.id);
  });

  it('Slurm srun -l: one file, `N: ` labels', () => {
    const lines = Object.entries(s2()).flatMap(([name, text]) => {
      const n = name.replace(/\D/g, '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => `${n}: ${l}`);
    });
    const job = analyseTexts({ 'slurm-4242.out': lines.join('\n') + '\n' });
    expect(job.nodes.map((n) => n.id)).toEqual(['slurm-4242:0', 'slurm-4242:1', 'slurm-4242:2', 'slurm-4242:3']);
    expectS2(job, 'slurm-4242:3');
  });

  it('a traceback collapsed onto one line still classifies the 300 s rank-assignment wait', () => {
    const sc = 'torch1.13-s6r_static_store_barrier_300s_rerun';
    const node0 = corpusText(sc, 'node0.log');
    const at = node0.indexOf('Traceback (most recent call last)');
    const collapsed = node0.slice(0, at) + node0.slice(at).replace(/\n(?!$)/g, ' ');
    const job = analyseTexts({
      'node0.log': collapsed,
      'node1.log': corpusText(sc, 'node1.log'),
      'node2.log': corpusText(sc, 'node2.log'),
    });
    expect(job.failure?.stage).toBe('rank-assignment');
    expect(job.failure?.reportedBy).toEqual(['node0', 'node1']);
    expect(job.failure?.timeoutSeconds).toBe(300);
  });

  it("a web page's paragraph (newlines and runs of blanks collapsed) still reads each message on its one line", () => {
    // A hosted app's status panel or a rendered comment (excerpt set 12, a Hugging Face Space): the agent's
    // `failed (exitcode: 1)`, its traceback and the ChildFailedError block, all on one line.
    const dir = path.join(CAPTURED, 'torch1.13-c10d-crash-before-pg-init');
    const files = Object.fromEntries(
      filesUnder(dir)
        .filter((f) => f.endsWith('.log'))
        .map((f) => [f, readFileSync(path.join(dir, f), 'utf8').replace(/host {6}: node0/g, 'host      : gpu-c03')]),
    );
    const bare = analyseTexts(files);
    const node0 = files['node0.log']!;
    const at = node0.indexOf('ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode');
    expect(at).toBeGreaterThan(0);
    const paragraph = node0.slice(at).replace(/\s+/g, ' ').trim();
    const job = analyseTexts({ ...files, 'node0.log': `${node0.slice(0, at)}${paragraph}\n` });
    const ids = (j: typeof job) => j.nodes.find((n) => n.hostname === 'gpu-c03')?.events.map((e) => e.id);
    expect(ids(bare)).toContain('child-failed');
    expect(ids(job)).toEqual(expect.arrayContaining(['worker-failed', 'child-failed']));
    expect([job.verdict, job.failure?.stage, job.failure?.lateNodes]).toEqual([
      bare.verdict,
      bare.failure?.stage,
      bare.failure?.lateNodes,
    ]);
  });

  it('CRLF endings, right padding to 308 columns and blank lines between all lines change nothing', () => {
    const files = Object.fromEntries(
      Object.entries(s2()).map(([n, t]) => [
        n,
        mapLines(t, (l) => l.padEnd(308, ' ') + '\r\n').replace(/\n(?=.)/g, '\n\r\n'),
      ]),
    );
    expectS2(analyseTexts(files));
  });

  it('the 2.1–2.2 bracket format (every line of a message prefixed) with the 300 s path', () => {
    const sc = 'torch1.13-capture-k2b';
    const convert = (text: string) => toBracket21(text);
    const files = {
      'trainjob-master-0.log': convert(corpusText(sc, 'trainjob-master-0.log')),
      'trainjob-worker-0.log': convert(corpusText(sc, 'trainjob-worker-0.log')),
      'trainjob-worker-1.log': convert(corpusText(sc, 'trainjob-worker-1.log')),
    };
    expect(files['trainjob-master-0.log']).toContain(
      '] torch.distributed.launcher.api: [INFO]   rdzv_backend     : static',
    );
    const job = analyseTexts(files);
    expect(job.failure?.stage).toBe('rank-assignment');
    expect(job.failure?.lateNodes).toEqual(['trainjob-worker-1']);
    expect(job.job.rdzvConfigs).toEqual({ timeout: '30' });
    expect(job.job.torchVersion).toBe('1.13.0a0+gitunknown'); // stated in the traceback; the prefix alone would say 2.1–2.2
    expect(job.skewSeconds).toBeGreaterThan(343);
    expect(job.skewSeconds).toBeLessThan(347);
  });

  it('a missing node: the world size names it, and the store host’s count of who joined makes it the culprit — missing, not late', () => {
    const files = s2();
    delete files['node3.log'];
    const job = analyseTexts(files);
    expect(job.missingNodes).toEqual(['node3 (group_rank 3)']);
    expect(job.failure?.stage).toBe('rendezvous-timeout');
    // Missing is not late: no node present is blamed. node0 (the store host) counted 3/4 clients joined — itself,
    // node1 and node2, whose logs are here — so the one node without a log is the one that never joined.
    expect(job.failure?.lateNodes).toEqual([]);
    expect(job.failure?.reasoning.map((r) => r.code)).toContain('joined-count-missing');
    expect(job.failure?.absent).toEqual(['node3']);
    const dx = diagnose(job);
    expect(dx.findings.map((f) => f.code)).not.toContain('LATE_NODE');
    const missing = dx.findings.find((f) => f.code === 'NODE_LOG_MISSING')!;
    expect(missing.severity).toBe('warning');
    expect(missing.numbers).toMatchObject({ missing: 'node3 (group_rank 3)', likely: 1 });
  });

  it('a log from another program is not diagnosed as torchrun', () => {
    const other = [
      '03/12/2024 08:22:45 - INFO - transformers.trainer - ***** Running training *****',
      'Epoch 1/3: 100%|██████████| 782/782 [00:41<00:00, 18.9it/s, loss=0.31]',
      'I0807 20:59:57.533000 140145133409408 elasticdl/python/master/main.py:91] Starting master',
      'srun: error: node17: task 3: Exited with exit code 1',
      '[rank0] step 100: loss=2.31 lr=3.0e-4',
      'downloading checkpoint from s3://bucket/ckpt.pt',
      'ValueError: could not convert string to float: "n/a"',
    ].join('\n');
    const job = analyseTexts({ 'train.log': other });
    expect(job.verdict).toBe('not-torchrun');
    expect(job.nodes).toHaveLength(0);
    expect(job.files[0]!.problem?.code).toBe('not-a-log');
  });

  it('binary and empty files are reported while the rest is analysed', () => {
    const bin = new Uint8Array(10_000).map((_, i) => (i * 7) % 256);
    const job = analyseTexts({ ...s2(), 'core.dump': bin, 'empty.log': '' });
    expectS2(job);
    const problems = Object.fromEntries(job.files.filter((f) => f.problem).map((f) => [f.file, f.problem!.code]));
    expect(problems).toEqual({ 'core.dump': 'binary', 'empty.log': 'empty' });
  });

  it('a 50 MB line is cut, not held, and the log around it still parses', () => {
    const text = corpusText(S2, 'node0.log');
    const cut = text.indexOf('\n') + 1;
    const huge = 'x'.repeat(50 * 1024 * 1024);
    const job = analyseTexts({ ...s2(), 'node0.log': text.slice(0, cut) + huge + '\n' + text.slice(cut) }, 1 << 20);
    expectS2(job);
  });
});

describe('logs that end early', () => {
  it('nodes still waiting in the rendezvous when the logs stop: incomplete, and says why', () => {
    const cut = Object.fromEntries(
      Object.entries(s2()).map(([n, t]) => [n, t.slice(0, t.indexOf("Rendezvous'ing worker group") + 40)]),
    );
    const job = analyseTexts(cut);
    expect(job.verdict).toBe('incomplete');
    expect(job.failure).toBeNull();
    expect(job.notes.map((n) => noteText('en', n)).join(' ')).toMatch(/neither progress past rendezvous nor a failure/);
    expect(job.skewSeconds).toBeGreaterThan(43);
    const risk = diagnose(job).findings.find((f) => f.code === 'SKEW_RISK')!;
    expect(risk.detail).toMatch(/^The logs stop before the outcome.*past it, so the start most likely failed/);
  });
});

describe('a traceback quoted in a JSON report on one line', () => {
  it('is read line by line, and its frames classify the error', async () => {
    const { readFileSync } = await import('node:fs');
    const json = readFileSync(`${__dirname}/fixtures/errorjson/error.json`, 'utf8').trim();
    const log = `2026-11-29T19:31:07.000Z worker error report: ${json}\n`;
    const job = analyseTexts({ 'node1.log': log });
    const ev = job.nodes[0]!.events.find((e) => e.id === 'socket-timeout')!;
    expect(ev.stage).toBe('rank-assignment');
    expect(ev.time).toBe('2026-11-29T19:31:07.000Z');
  });
});

describe('several nodes in one file', () => {
  it('each node gets its own first step, and lines after the last node appeared are still read', () => {
    const lines: string[] = [];
    for (const n of [0, 1, 2, 3])
      lines.push(`${n}: [rank${n}] init_process_group done after 1.0s: world_size=4 rank=${n}`);
    for (let step = 1; step <= 3000; step++)
      for (const n of [0, 1, 2, 3]) lines.push(`${n}: [rank${n}] step ${step}: loss=2.31`);
    lines.push('2: RuntimeError: Socket Timeout');
    const job = analyseTexts({ 'slurm-77.out': lines.join('\n') + '\n' });
    expect(job.nodes).toHaveLength(4);
    for (const n of job.nodes) expect(n.events.filter((e) => e.kind === 'first-step')).toHaveLength(1);
    // Read after 3,000 steps: a store wait of the running job, not a startup stage.
    expect(job.nodes.find((n) => n.id === 'slurm-77:2')!.failureStage).toBe('collective-timeout');
  });
});
