import { t } from '../i18n/translate';
import type { FailureStage, Verdict } from './model';

// User-facing words for what the core decides, in English and Simplified Chinese. The CLI and the
// dashboard both read these, so a stage is named the same way everywhere.

export type Lang = 'en' | 'zh';

export const LANGS: Lang[] = ['en', 'zh'];

interface Words {
  verdict: Record<Verdict, string>;
  stage: Record<FailureStage, string>;
  ui: Record<string, string>;
}

const en: Words = {
  verdict: {
    failed: 'FAILED',
    healthy: 'HEALTHY',
    incomplete: 'INCOMPLETE',
    'not-torchrun': 'NO TORCHRUN LOGS',
  },
  stage: {
    'store-connect': 'connecting to the TCPStore (the store host was not reachable in time)',
    'rendezvous-connection': 'connecting to the c10d rendezvous store',
    'rendezvous-timeout': 'waiting in the rendezvous for all nodes (rendezvous timeout)',
    'rendezvous-closed': 'the rendezvous was closed by another node',
    'rank-assignment': 'rank assignment after the rendezvous (the agents exchanging their ranks through the store)',
    'pg-init': 'init_process_group (the workers setting up their process group)',
    'comm-init': 'communicator setup (NCCL/HCCL connect)',
    'collective-timeout': 'a collective timed out during training (not a startup problem)',
    'exit-barrier': 'the exit barrier (agents waiting for each other to finish)',
    'worker-error': 'a worker process failed',
    other: 'an error outside the known startup stages',
  },
  ui: {
    job: 'Job',
    torch: 'torch',
    backend: 'backend',
    nodes: 'nodes',
    nproc: 'processes per node',
    skew: 'launch skew',
    stage: 'Failed in',
    reportedBy: 'Reported by',
    lateNodes: 'Late node(s)',
    causedBy: 'Caused by',
    timeout: 'Timeout that fired',
    why: 'Why',
    evidence: 'Evidence',
    node: 'node',
    groupRank: 'group rank',
    launch: 'launch',
    lag: 'lag',
    failure: 'failure',
    missing: 'Missing nodes (no log provided)',
    notes: 'Notes',
    files: 'Files not used',
    unknown: 'unknown',
    none: 'none',
    seconds: 's',
    noFiles: 'No log files found in the given paths.',
    rdzvConfigs: 'rdzv_configs',
    findings: 'Findings',
    whatToChange: 'What to change',
    goesInScript: 'In the training script',
    goesInTorchrun: 'In the torchrun command of every node',
    whatIfOk: 'What if: with a rendezvous limit of {t} s every node would have made it, with {spare} s to spare.',
    whatIfShort: 'What if: with a rendezvous limit of {t} s the last node would still be {short} s too late.',
    whatIfBlocked:
      'What if: a rendezvous limit of {t} s would not have been enough: the {limit} s rank-assignment wait of this torch version does not move with it.',
    storeHost: 'hosts the rendezvous store',
    limits: 'Limits in force',
    skewAmong: 'unknown ({s} s among the {placed} of {total} nodes with times)',
    fromLogs: 'printed in the logs',
    fromInferred: 'inferred from the elapsed time',
    fromDefault: 'default, assumed: no log shows it',
    restarts: 'Restarts',
    missingLikely: 'likely culprit: a node without a log',
  },
};

const zh: Words = {
  verdict: {
    failed: '失败',
    healthy: '正常',
    incomplete: '不完整',
    'not-torchrun': '未发现 torchrun 日志',
  },
  stage: {
    'store-connect': '连接 TCPStore（未能及时连上 store 主机）',
    'rendezvous-connection': '连接 c10d rendezvous store',
    'rendezvous-timeout': '在 rendezvous 中等待所有节点（rendezvous 超时）',
    'rendezvous-closed': 'rendezvous 已被其他节点关闭',
    'rank-assignment': 'rendezvous 之后的 rank 分配（agent 通过 store 交换各自的 rank）',
    'pg-init': 'init_process_group（worker 建立进程组）',
    'comm-init': '通信域建立（NCCL/HCCL 建链）',
    'collective-timeout': '训练过程中集合通信超时（不是启动问题）',
    'exit-barrier': '退出屏障（agent 互相等待结束）',
    'worker-error': 'worker 进程出错',
    other: '已知启动阶段之外的错误',
  },
  ui: {
    job: '作业',
    torch: 'torch',
    backend: '后端',
    nodes: '节点数',
    nproc: '每节点进程数',
    skew: '启动时间差',
    stage: '失败阶段',
    reportedBy: '报错节点',
    lateNodes: '迟到节点',
    causedBy: '起因节点',
    timeout: '触发的超时',
    why: '原因',
    evidence: '证据',
    node: '节点',
    groupRank: 'group rank',
    launch: '启动时间',
    lag: '落后',
    failure: '失败',
    missing: '缺失的节点（未提供日志）',
    notes: '说明',
    files: '未使用的文件',
    unknown: '未知',
    none: '无',
    seconds: '秒',
    noFiles: '在给定路径中没有找到日志文件。',
    rdzvConfigs: 'rdzv_configs',
    findings: '发现',
    whatToChange: '需要修改的地方',
    goesInScript: '写在训练脚本中',
    goesInTorchrun: '写在每个节点的 torchrun 命令中',
    whatIfOk: '假设：rendezvous 期限为 {t} 秒时，所有节点都能赶上，还有 {spare} 秒余量。',
    whatIfShort: '假设：rendezvous 期限为 {t} 秒时，最后一个节点仍会迟到 {short} 秒。',
    whatIfBlocked:
      '假设：把 rendezvous 期限设为 {t} 秒也不够：该 torch 版本中 {limit} 秒的 rank 分配等待不会随之改变。',
    storeHost: '承载 rendezvous store',
    limits: '生效的期限',
    skewAmong: '未知（有时间的 {placed}/{total} 个节点之间为 {s} 秒）',
    fromLogs: '日志中已打印',
    fromInferred: '根据经过的时间推断',
    fromDefault: '默认值，推定：没有日志显示它',
    restarts: '重启',
    missingLikely: '最可能的元凶：缺少日志的节点',
  },
};

export const WORDS: Record<Lang, Words> = { en, zh };

export function words(lang: Lang): Words {
  return WORDS[lang] ?? en;
}

/** The labels job/world.ts gives a node whose log is missing: `node4 (group_rank 4)`, `unnamed node 1 of 4`. */
const BY_RANK = /^(“?)(\S.{0,200}?) \(group_rank (\d{1,7})\)(”?)$/;
const UNNAMED = /^(“?)unnamed node (\d{1,7}) of (\d{1,7})(”?)$/;

/**
 * One label of a node whose log is missing, in the reader's language: `node4（group_rank 4）`, `未命名节点 1/4`
 * (the words are the i18n layer's, src/i18n/<lang>/core.ts). Names the logs give (`node4`, `group_rank 4`) and
 * any other text stay as they are; a label a share link quotes as data keeps its quotes.
 */
export function missingLabel(lang: Lang, label: string): string {
  if (lang === 'en') return label;
  const unnamed = UNNAMED.exec(label);
  if (unnamed) return `${unnamed[1]}${t(lang, 'node.missingUnnamed', { k: unnamed[2]!, n: unnamed[3]! })}${unnamed[4]}`;
  const byRank = BY_RANK.exec(label);
  if (byRank) return `${byRank[1]}${t(lang, 'node.missingByRank', { name: byRank[2]!, rank: byRank[3]! })}${byRank[4]}`;
  return label;
}

/**
 * The labels of missing nodes wherever they stand in a value (alone, or in a list joined with ", " as core
 * joins them), in the reader's language. Everything else in the value stays as it is.
 */
export function nodeLabels(lang: Lang, text: string): string {
  if (lang === 'en' || !/group_rank|unnamed node/.test(text)) return text;
  return text
    .split(', ')
    .map((part) => missingLabel(lang, part))
    .join(', ');
}

/**
 * Chinese sets no space against a full-width bracket: a label ending in `）` put between spaces by a sentence
 * (`等待 node3（group_rank 3） 时`) reads `等待 node3（group_rank 3）时`. Other text is left as it is.
 */
export function zhSpacing(lang: Lang, text: string): string {
  return lang === 'zh' ? text.replace(/ +(?=（)|(?<=）) +(?=[^\s!-~])/g, '') : text;
}

/** nodeLabels over every string of a record of values (a finding's numbers, a note's values). */
export function labelValues<T extends Record<string, unknown>>(lang: Lang, values: T): T {
  if (lang === 'en') return values;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values))
    out[k] =
      typeof v === 'string'
        ? nodeLabels(lang, v)
        : Array.isArray(v)
          ? v.map((x) => (typeof x === 'string' ? nodeLabels(lang, x) : x))
          : v;
  return out as T;
}
