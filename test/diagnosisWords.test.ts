import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateJob } from '../scripts/bench-job.mjs';
import { findingText } from '../src/core/diagnosisText';
import { diagnose } from '../src/core/index';
import type { JobModel } from '../src/core/model';
import { reasonText } from '../src/core/notesText';
import { analyseTexts, capturedJob, filesUnder } from './helpers';

// The diagnosis' words as a reader gets them, sentence by sentence, in English and Chinese: a limit's source
// said whole in Chinese, a cut list of late nodes that says how many more (not ", …."), and the labels
// skewscope gives missing nodes written with Chinese brackets on a Chinese page.

const EXCERPTS = path.join(__dirname, 'fixtures', 'excerpts');

function excerpt(name: string): JobModel {
  const dir = path.join(EXCERPTS, name);
  const files = filesUnder(dir).filter((f) => !f.endsWith('.json'));
  return analyseTexts(Object.fromEntries(files.map((f) => [`${name}/${f}`, readFileSync(path.join(dir, f), 'utf8')])));
}

const detailOf = (job: JobModel, lang: 'en' | 'zh', code: string) =>
  diagnose(job, lang).findings.find((f) => f.code === code)!;

describe('where a limit comes from, said in Chinese', () => {
  it('ddp-verify-params-ncclUniqueId: the assumed default of init_process_group, a whole sentence', () => {
    const job = excerpt('ddp-verify-params-ncclUniqueId');
    expect(detailOf(job, 'en', 'COMM_INIT_TIMEOUT').detail).toBe(
      'Setting up the NCCL communicator timed out after 600 s (the default — assumed, no log line shows it) on eval: a peer reached it late or could not be reached.',
    );
    expect(detailOf(job, 'zh', 'COMM_INIT_TIMEOUT').detail).toBe(
      '在 eval 上建立 NCCL 通信域时，等待 600 秒（默认值，推定：没有日志行打印它）后超时：有对端节点到达太晚或无法连接。',
    );
  });

  it('the default of a version and a backend, and a value the logs print', () => {
    const p = { reporters: 'node0', late: 'node3', limit: 600, source: 'default', version: '2.3', backend: 'c10d' };
    expect(findingText('en', 'PG_INIT_TIMEOUT', p).detail).toBe(
      'The workers of node0 waited 600 s (the default for torch 2.3, c10d — assumed, no log line shows it) in init_process_group for the workers of node3, which reached it late. The rendezvous itself had completed: the delay happened in the training script before init_process_group.',
    );
    expect(findingText('zh', 'PG_INIT_TIMEOUT', p).detail).toBe(
      'node0 的 worker 在 init_process_group 中等待了 600 秒（torch 2.3 下 c10d 后端的默认值，推定：没有日志行打印它），等待 node3 的 worker，而它们到达得太晚。rendezvous 本身已经完成：延迟发生在训练脚本调用 init_process_group 之前。',
    );
    expect(findingText('zh', 'PG_INIT_TIMEOUT', { ...p, backend: null }).detail).toContain(
      '600 秒（torch 2.3 的默认值，推定：没有日志行打印它）',
    );
    expect(findingText('zh', 'PG_INIT_TIMEOUT', { ...p, source: 'logs' }).detail).toContain('600 秒（日志中打印的值）');
  });
});

describe('a LATE_NODE finding names the latest late nodes and counts the rest', () => {
  const late = (n: number) =>
    Array.from({ length: n }, (_, k) => ({ node: `node${1000 - k}`, lagSeconds: 283.4 - k * 10.25 }));
  const p = (count: number) => ({
    node: 'node1000',
    lag: 283.4,
    count,
    first: 'node0',
    clockOffset: null,
    victims: null,
  });

  it('of 1,024 late nodes: eight by name, then "and 1016 more." — never ", …."', () => {
    const en = findingText('en', 'LATE_NODE', p(1024), late(8)).detail;
    const zh = findingText('zh', 'LATE_NODE', p(1024), late(8)).detail;
    expect(en).toBe(
      '1024 nodes launched late; by lag: node1000 (283 s), node999 (273 s), node998 (263 s), node997 (253 s), node996 (242 s), node995 (232 s), node994 (222 s), node993 (212 s) and 1016 more.',
    );
    expect(zh).toBe(
      '1024 个节点启动晚了，按落后时间：node1000（283 秒）、node999（273 秒）、node998（263 秒）、node997（253 秒）、node996（242 秒）、node995（232 秒）、node994（222 秒）、node993（212 秒），另有 1016 个。',
    );
    for (const text of [en, zh]) expect(text).not.toMatch(/…|, \.|，。/);
  });

  it('of eight or fewer: every one, and the sentence ends there', () => {
    expect(findingText('en', 'LATE_NODE', p(2), late(2)).detail).toBe(
      '2 nodes launched late; by lag: node1000 (283 s), node999 (273 s).',
    );
    expect(findingText('zh', 'LATE_NODE', p(2), late(2)).detail).toBe(
      '2 个节点启动晚了，按落后时间：node1000（283 秒）、node999（273 秒）。',
    );
    expect(findingText('en', 'LATE_NODE', p(8), late(8)).detail).toMatch(/node993 \(212 s\)\.$/);
  });

  it('on a real job of 1,024 nodes (scripts/bench-job.mjs), from the rule to the sentence', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skewscope-words-'));
    const made = generateJob(path.join(dir, 'job'), { nodes: 1024, ranks: 1, late: 20, seed: 11 });
    const job = analyseTexts(
      Object.fromEntries(readdirSync(made.dir).map((f) => [`job/${f}`, readFileSync(path.join(made.dir, f), 'utf8')])),
    );
    const en = detailOf(job, 'en', 'LATE_NODE');
    const zh = detailOf(job, 'zh', 'LATE_NODE');
    expect(en.late!.map((n) => n.node)).toEqual(made.lateNodes.slice(0, 8));
    expect(en.late!.map((n) => n.lagSeconds)).toEqual(
      made.lateNodes.slice(0, 8).map((id) => job.nodes.find((n) => n.id === id)!.lagSeconds),
    );
    const words = (lang: 'en' | 'zh') =>
      en.late!.map((n) =>
        lang === 'en' ? `${n.node} (${Math.round(n.lagSeconds!)} s)` : `${n.node}（${Math.round(n.lagSeconds!)} 秒）`,
      );
    expect(en.detail).toBe(`20 nodes launched late; by lag: ${words('en').join(', ')} and 12 more.`);
    expect(zh.detail).toBe(`20 个节点启动晚了，按落后时间：${words('zh').join('、')}，另有 12 个。`);
  });
});

describe('the labels of missing nodes on a Chinese page', () => {
  const job = capturedJob('torch2.6-static-never-starts');

  it('NODE_LOG_MISSING: "node3 (group_rank 3)" in English, "node3（group_rank 3）" in Chinese', () => {
    expect(job.missingNodes).toEqual(['node3 (group_rank 3)']);
    expect(detailOf(job, 'en', 'NODE_LOG_MISSING').title).toBe('No log for node3 (group_rank 3)');
    expect(detailOf(job, 'zh', 'NODE_LOG_MISSING').title).toBe('缺少 node3（group_rank 3）的日志');
  });

  it('inside a sentence: full-width brackets, no space against them', () => {
    const en = detailOf(job, 'en', 'SKEW_EXCEEDS_RDZV_TIMEOUT').detail;
    const zh = detailOf(job, 'zh', 'SKEW_EXCEEDS_RDZV_TIMEOUT').detail;
    expect(en).toContain('gave up waiting for node3 (group_rank 3), whose log is missing');
    expect(zh).toContain('等待 node3（group_rank 3）时放弃了，而它的日志缺失');
    expect(zh).not.toMatch(/[()]/);
  });

  it('several: each label worded, the title not bracketed twice', () => {
    const p = {
      missing: 'node4 (group_rank 4), node5 (group_rank 5)',
      count: 2,
      expected: 6,
      present: 4,
      likely: null,
      formed: null,
    };
    expect(findingText('en', 'NODE_LOG_MISSING', p).title).toBe(
      'No log for 2 nodes (node4 (group_rank 4), node5 (group_rank 5))',
    );
    // (The list keeps core's ", " between names: joining node lists the Chinese way is for core to do.)
    const zh = findingText('zh', 'NODE_LOG_MISSING', p).title;
    expect(zh).toMatch(/^缺少 2 个节点的日志：node4（group_rank 4）.{1,2}node5（group_rank 5）$/);
    expect(zh).not.toMatch(/[()]|（[^）]*（/);
  });
});

describe('lists in Chinese sentences', () => {
  it('joins node lists with 、 in zh and with commas in en', () => {
    const reason = {
      code: 'never-launched' as const,
      values: { nodes: ['node2', 'node3'], waiters: ['node0', 'node1'] },
    };
    expect(reasonText('zh', reason)).toContain('node2、node3');
    expect(reasonText('zh', reason)).not.toContain('node2, node3');
    expect(reasonText('en', reason)).toContain('node2, node3');
  });

  it("joins a finding's lists of names with 、 in zh, and leaves its free text alone", () => {
    const p = {
      nodes: 'node0, node1',
      attempts: 2,
      restarts: 1,
      stages: 'rendezvous-timeout, pg-init',
      left: null,
      max: 3,
      lastFormed: 1,
      lastSkew: null,
      worstSkew: null,
      worstAttempt: null,
    };
    expect(findingText('zh', 'RESTARTS', p).title).toBe('node0、node1 重启过：共 2 次尝试');
    expect(findingText('zh', 'RESTARTS', p).detail).toContain('rendezvous-timeout、pg-init 阶段');
    expect(findingText('en', 'RESTARTS', p).title).toBe('node0, node1 restarted: 2 attempts');
    const crash = findingText('zh', 'WORKER_CRASH', {
      nodes: 'node2',
      waiters: 'node0, node1',
      error: 'ValueError: a, b',
      limit: null,
      exitcode: 1,
    });
    expect(crash.title).toContain('`ValueError: a, b`');
    expect(crash.detail).toContain('随后 node0、node1 一直等待');
  });
});
