import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobModel, Note } from '../src/core/model';
import { noteText } from '../src/core/notesText';
import { statedDurations } from '../src/core/timeline';
import { analyse, extractAll } from './fuzz/harness';
import { CORPUS } from './helpers';

// Numbers read from log lines are untrusted (issue 13, item 5). Each case takes a real run of the corpus and
// changes one number field of a real line to a value no job has — the shapes a damaged, concatenated or forged
// log takes — then runs everything a drop goes through (job, diagnosis, timeline, Markdown, a share link made
// and read back; test/fuzz/harness.ts). Nothing may throw, nothing may be sized by the value or built into a
// Date from it, and the value is kept as the line's text and flagged (`number-refused`).

function scenario(name: string): Record<string, string> {
  const dir = path.join(CORPUS, name);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.log'))
      .map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]),
  );
}

/** Replace the first match of `re` in `file`, failing loudly when the real line is not there. */
function edit(files: Record<string, string>, file: string, re: RegExp, to: string): Record<string, string> {
  const text = files[file]!;
  expect(re.test(text), `${file} has ${re}`).toBe(true);
  return { ...files, [file]: text.replace(re, to) };
}

function run(files: Record<string, string>): JobModel {
  const enc = new TextEncoder();
  // Small chunks: the number may straddle a chunk boundary, as in a worker.
  return analyse(
    extractAll(
      Object.entries(files).map(([name, t]) => ({ name, bytes: enc.encode(t) })),
      613,
    ),
  ).job;
}

const refused = (job: JobModel): Note[] => job.notes.filter((n) => n.code === 'number-refused');

// Kubernetes-captured torch 1.13, static rendezvous, 4 nodes × 2 (launch config block, rendezvous result block).
const K1 = 'torch1.13-capture-k1';
// torch 2.6 glog prefixes, static rendezvous with a 30 s timeout, node3 late (connect timeouts, the master's wait).
const S2 = 'torch2.6-s2_static_timeout30_node3_late';
// torch 2.6 c10d with TORCH_LOGS=distributed: "… as rank N in a world of size 4."
const S12 = 'torch2.6-s12_c10d_healthy_torch_logs_distributed';

describe('a declared world size no job has is refused, never allocated', () => {
  it('max_nodes : 4294967296 in the launch config', () => {
    const base = run(scenario(K1));
    const job = run(edit(scenario(K1), 'trainjob-master-0.log', /max_nodes(\s+): 4/, 'max_nodes$1: 4294967296'));
    // The other nodes' configs say 4: the refused value is skipped, not taken as a missing 4,294,967,292 nodes.
    expect(job.job.maxNodes).toBe(4);
    expect(job.missingCount).toBe(base.missingCount);
    expect(job.verdict).toBe(base.verdict);
    expect(refused(job)).toEqual([
      {
        code: 'number-refused',
        values: { file: 'trainjob-master-0.log', line: 8, what: 'max_nodes', value: '4294967296' },
      },
    ]);
    expect(noteText('en', refused(job)[0]!)).toBe(
      'trainjob-master-0.log:8 prints max_nodes = “4294967296”, beyond any real job: the value was not used.',
    );
  });

  it('min_nodes : 99999999999999999999 (past 2⁶⁴) in every node’s launch config', () => {
    let files = scenario(K1);
    for (const f of Object.keys(files))
      files = edit(files, f, /min_nodes(\s+): 4/, 'min_nodes$1: 99999999999999999999');
    const job = run(files);
    expect(job.job.minNodes).toBeNull();
    expect(job.nodes).toHaveLength(4);
    expect(refused(job).map((n) => n.values.value)).toEqual(['99999999999999999999']);
  });

  it('group_world_size=10000000 in the rendezvous result', () => {
    const job = run(edit(scenario(K1), 'trainjob-worker-1.log', /group_world_size=4/, 'group_world_size=10000000'));
    expect(job.worldFormed?.nodes).toBe(4);
    expect(job.missingNodes.length).toBeLessThanOrEqual(64);
    expect(refused(job).map((n) => [n.values.what, n.values.value])).toEqual([['group_world_size', '10000000']]);
  });

  it('"in a world of size 10000000" (c10d round join, TORCH_LOGS=distributed)', () => {
    const job = run(edit(scenario(S12), 'node2.log', /in a world of size 4\./, 'in a world of size 10000000.'));
    expect(job.job.worldNodes).toBe(4);
    expect(job.missingCount).toBe(0);
    expect(refused(job).map((n) => n.values.what)).toEqual(['world']);
  });

  it('nnodes × nproc_per_node past a count is no world size', () => {
    let files = scenario(K1);
    for (const f of Object.keys(files))
      files = edit(
        edit(
          edit(files, f, /min_nodes(\s+): 4/, 'min_nodes$1: 1000000'),
          f,
          /max_nodes(\s+): 4/,
          'max_nodes$1: 1000000',
        ),
        f,
        /nproc_per_node(\s+): 2/,
        'nproc_per_node$1: 1000000',
      );
    files = Object.fromEntries(
      Object.entries(files).map(([f, t]) => [f, t.replace(/global_world_sizes=\[8, 8\]/, '')]),
    );
    const job = run(files);
    expect(job.job.maxNodes).toBe(1000000);
    expect(job.job.worldSize === null || job.job.worldSize <= 1_000_000).toBe(true);
  });

  it('group_rank=9999999 names no rank', () => {
    const job = run(edit(scenario(K1), 'trainjob-worker-1.log', /group_rank=2/, 'group_rank=9999999'));
    expect(job.nodes.find((n) => n.id === 'trainjob-worker-1')!.groupRank).toBeNull();
    expect(refused(job).map((n) => n.values.what)).toEqual(['group_rank']);
  });

  it('a node rank in a file name past any job (trainjob-worker-99999999999999999999.log)', () => {
    const files = scenario(K1);
    files['trainjob-worker-99999999999999999999.log'] = files['trainjob-worker-2.log']!;
    delete files['trainjob-worker-2.log'];
    const job = run(files);
    const node = job.nodes.find((n) => n.id === 'trainjob-worker-99999999999999999999')!;
    // The log's own group_rank=3 names it; the name's number is no rank.
    expect(node.groupRank).toBe(3);
    expect(node.identity.filter((h) => h.kind === 'node-rank').map((h) => h.value)).toEqual(['3']);
  });

  it('restart_count=9999999 in the rendezvous result', () => {
    const job = run(edit(scenario(K1), 'trainjob-worker-0.log', /restart_count=0/, 'restart_count=9999999'));
    expect(job.nodes.flatMap((n) => n.attempts).every((a) => a.index <= 1_000_000)).toBe(true);
    expect(refused(job).map((n) => [n.values.what, n.values.value])).toEqual([['restart_count', '9999999']]);
  });
});

describe('a stated duration or offset no Date can hold is refused (the RangeError: Invalid time value)', () => {
  it('connect timeout "timed out after 99999999999999999999ms"', () => {
    let files = scenario(S2);
    files = edit(files, 'node3.log', /timed out after 30000ms/g, 'timed out after 99999999999999999999ms');
    const job = run(files);
    // The catalogue's pattern bounds the field's width, so the line is no connect timeout at all: no limit of 10¹⁷ s.
    expect(job.failure?.limit?.seconds ?? 0).toBeLessThan(366 * 24 * 3600);
    expect(JSON.stringify(job.failure?.limit ?? null)).not.toContain('e+');
  });

  it('the master\'s wait "Timed out after 99999999999999999999 seconds waiting for clients"', () => {
    const files = edit(
      scenario(S2),
      'node0.log',
      /Timed out after 31 seconds waiting for clients/,
      'Timed out after 99999999999999999999 seconds waiting for clients',
    );
    const job = run(files);
    for (const n of job.nodes) if (n.launchTime) expect(Date.parse(n.launchTime)).toBeGreaterThan(Date.UTC(2026, 0));
    expect(refused(job).some((n) => n.values.value === '99999999999999999999')).toBe(true);
  });

  it("rdzv_configs {'timeout': '1e308'} is not a limit in force, and the advice does not keep it", () => {
    const job = run(edit(scenario(K1), 'trainjob-master-0.log', /'timeout': '30'/, "'timeout': '1e308'"));
    expect(job.job.rdzvConfigs?.timeout).toBe('1e308');
    expect(refused(job).map((n) => [n.values.what, n.values.value])).toEqual([['timeout', '1e308']]);
  });

  it('the timeline reads no duration past a year from a line', () => {
    expect(statedDurations('Timed out after 99999999999999999999 seconds waiting for clients.')).toEqual([]);
    expect(statedDurations('timeout=1e308s')).toEqual([]);
    expect(statedDurations('Timed out after 31 seconds waiting for clients.')[0]!.seconds).toBe(31);
  });

  it('a year 9999 stamp is no time zone of 7973 years, and year 0000 is no clock', () => {
    for (const year of ['9999', '0000']) {
      const files = scenario(K1);
      files['trainjob-worker-2.log'] = files['trainjob-worker-2.log']!.replace(/^2026-/gm, `${year}-`);
      const job = run(files);
      expect(job.clockOffsets.filter((o) => o.kind === 'time-zone')).toEqual([]);
      expect(job.nodes.find((n) => n.id === 'trainjob-worker-2')!.launchTime).toBeNull();
    }
  });

  it('a zone of +99:99 or +01:75 is no zone: the line counts as untimed', () => {
    for (const zone of ['+99:99', '+01:75']) {
      const files = scenario(K1);
      files['trainjob-worker-2.log'] = files['trainjob-worker-2.log']!.replace(/Z /g, `${zone} `);
      const job = run(files);
      expect(job.nodes.find((n) => n.id === 'trainjob-worker-2')!.launchTime).toBeNull();
    }
  });

  it('an error.json timestamp of 1e300 gives no clock', () => {
    const doc = JSON.parse(readFileSync(path.join(__dirname, 'fixtures/errorjson/error.json'), 'utf8'));
    doc.message.extraInfo.timestamp = '1e300';
    const job = run({ 'node1_logdir/job_x1y2z3w4/attempt_0/0/error.json': JSON.stringify(doc) });
    expect(job.verdict).toBe('failed');
    expect(job.nodes[0]!.events.every((e) => e.time === null)).toBe(true);
  });
});

describe('counts the findings show are the line’s text when they are absurd', () => {
  it('a store barrier worker count of 99999999999999999999 is printed as such, not as 1e+20', () => {
    const dir = path.join(__dirname, 'fixtures/excerpts/store-barrier-waiting-worker-count-gt-world');
    const text = readFileSync(path.join(dir, 'metaseq_350m.log'), 'utf8').replace(
      'worker_count=3',
      'worker_count=99999999999999999999',
    );
    const job = run({ 'metaseq_350m.log': text });
    expect(JSON.stringify(job)).not.toContain('e+20');
  });

  it('[rank99999999999999999]: prefixes name no lane', () => {
    const files = scenario(K1);
    files['trainjob-worker-1.log'] = files['trainjob-worker-1.log']!.replace(
      /^(\S+Z )(?=\[W socket)/gm,
      '$1[rank99999999999999999]: ',
    );
    expect(() => run(files)).not.toThrow();
  });
});
