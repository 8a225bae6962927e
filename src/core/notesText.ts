import { labelValues, zhSpacing, type Lang } from './i18n';
import { HEAD_RUNS, RUN_HEAD, RUN_TAIL, TAIL_RUNS } from './extract/keep';
import type { Note, NoteCode, Reason, ReasonCode, Values } from './model';

// The words of the analysis' notes and reasons, in English and Simplified Chinese. The job model carries codes
// with values; every view (CLI, dashboard, share link, Markdown) words them here, in the reader's language.

type V = Values;
const s = (x: V[string] | undefined): string =>
  x === null || x === undefined ? '?' : Array.isArray(x) ? x.join(', ') : String(x);
/** The same in Chinese prose: a list is joined with 、. */
const z = (x: V[string] | undefined): string => (Array.isArray(x) ? x.join('、') : s(x));
const n = (x: V[string] | undefined): number => (typeof x === 'number' ? x : Number(x));
const secs = (x: V[string] | undefined) => {
  const v = n(x);
  return Number.isFinite(v) ? `${Math.abs(v) >= 10 ? Math.round(v) : Math.round(v * 10) / 10} s` : '?';
};
const secsZh = (x: V[string] | undefined) => secs(x).replace(/ s$/, ' 秒');
const where = (v: V) => `${s(v.file)}:${s(v.line)}`;
/** A count with thousands separators (a left-out count runs to millions). */
const num = (x: V[string] | undefined) => (Number.isFinite(n(x)) ? n(x).toLocaleString('en-US') : '?');
const nodesOf = (v: V, and: string) => `${s(v.nodes)}${n(v.moreNodes) > 0 ? `${and}${num(v.moreNodes)}` : ''}`;
/** What an `events-not-kept` note counts, each part said only when there is some. */
const EN_PARTS: [string, (x: string) => string][] = [
  ['runs', (x) => `: ${x} runs of torchrun in the middle of the log`],
  ['rounds', (x) => `${x} rendezvous rounds`],
  ['restarts', (x) => `${x} restarts`],
  ['failures', (x) => `${x} failure lines`],
];
const ZH_PARTS: [string, (x: string) => string][] = [
  ['runs', (x) => `：日志中间的 ${x} 次 torchrun 运行`],
  ['rounds', (x) => `${x} 轮 rendezvous`],
  ['restarts', (x) => `${x} 次重启`],
  ['failures', (x) => `${x} 行失败信息`],
];
function notKeptParts(v: V, parts: [string, (x: string) => string][], first: string, sep: string): string {
  let out = '';
  for (const [key, say] of parts) {
    if (!(n(v[key]) > 0)) continue;
    const text = say(num(v[key]));
    out += key === 'runs' ? text : `${out === '' ? first : sep}${text}`;
  }
  return out;
}
const limitName: Record<string, string> = {
  'store-sync': 'the store synchronize wait',
  'rdzv-timeout': 'timeout',
  'join-timeout': 'join_timeout',
  'read-timeout': 'read_timeout',
  'last-call-timeout': 'last_call_timeout',
  'pg-init': 'the process-group timeout',
  'exit-barrier': 'the exit barrier',
  'hccl-connect': 'HCCL_CONNECT_TIMEOUT',
};
const limitNameZh: Record<string, string> = {
  'store-sync': 'store synchronize 等待',
  'pg-init': '进程组超时',
  'exit-barrier': '退出屏障',
};
const lim = (x: V[string] | undefined) => limitName[s(x)] ?? s(x);
const limZh = (x: V[string] | undefined) => limitNameZh[s(x)] ?? lim(x);

const NOTES_EN: Record<NoteCode, (v: V) => string> = {
  text: (v) => s(v.text),
  'year-from-line': (v) => `Timestamps without a year took their year from a dated line (${where(v)}).`,
  'year-from-child-failed': (v) =>
    `Timestamps without a year took their year from ChildFailedError's time (${where(v)}).`,
  'year-from-mtime': () => 'Timestamps without a year took their year from the files’ modification time.',
  'year-assumed': (v) => `Timestamps without a year were placed in ${s(v.year)} (nothing in the logs states the year).`,
  'zone-learned': (v) =>
    `${s(v.node)}: its own log times run ${s(v.hours)} h from the collector's UTC time; corrected.`,
  'zone-assumed': () => 'Log times carry no time zone; all nodes were read as being in the same zone (shown as UTC).',
  'set-by-hand': (v) => `Year or time zone set by hand for ${s(v.files)}.`,
  'tz-corrected': (v) =>
    `${s(v.node)}: its clock reads ${s(v.hours)} h from the others — a time-zone difference, corrected.`,
  'clock-corrected': (v) => `${s(v.node)}: clock offset of ${secs(v.seconds)} (±${secs(v.bound)}) corrected.`,
  'launch-derived': (v) =>
    `${s(v.node)}: launch time derived from ${where(v)} minus the ${secs(v.waited)} it says it waited.`,
  'launch-script-clock': (v) =>
    `${s(v.node)}: its torchrun lines carry no time; placed at the time its job script printed at ${where(v)}, before torchrun started (torchrun started then or later).`,
  'decoding-cleaned': (v) =>
    `Reading ${num(v.files)} file${n(v.files) > 1 ? 's' : ''} mended the text: ${[
      n(v.cutLines) ? `${num(v.cutLines)} line${n(v.cutLines) > 1 ? 's' : ''} cut at the line limit` : '',
      n(v.invalidBytes)
        ? `${num(v.invalidBytes)} byte${n(v.invalidBytes) > 1 ? 's' : ''} that were not UTF-8 shown as �`
        : '',
      n(v.nulBytes) ? `${num(v.nulBytes)} NUL byte${n(v.nulBytes) > 1 ? 's' : ''} skipped (padding)` : '',
      n(v.transcoded) ? `${num(v.transcoded)} read as UTF-16` : '',
    ]
      .filter(Boolean)
      .join('; ')}.`,
  'launch-clock-below': (v) =>
    `${s(v.node)}: its torchrun lines carry no time; placed at the first timed line just after its launch, ${where(v)} (torchrun started then or a little before).`,
  'launch-partial': (v) =>
    `Launch times are known for ${s(v.placed)} of ${s(v.total)} nodes (${s(v.unplaced)} printed no usable time): the job's skew cannot be measured, only that among those ${s(v.placed)}.`,
  'launch-unknown': () =>
    'No launch time could be placed: these logs carry no timestamps on torchrun lines (torch ≤ 2.0 at default settings). Capture with `kubectl logs --timestamps`, `LOGLEVEL=INFO` on torch ≥ 2.1, or pipe through a timestamping tool.',
  'times-derived': () => 'Some times were derived from durations stated in the text, not read from timestamps.',
  'no-progress': () =>
    'The logs show torchrun starting but neither progress past rendezvous nor a failure; they may end early.',
  'agents-in-stream': (v) =>
    `${s(v.node)}: its log holds ${s(v.agents)} torchrun agents without line labels (srun without -l, or two agents on one host); they are counted as ${s(v.agents)} nodes.`,
  'limit-inferred': (v) =>
    `${lim(v.limit)}: the logs do not print it, and its default (${secs(v.assumed)}) cannot be what fired — ${s(v.node)} failed ${secs(v.elapsed)} after its launch — so the limit is taken as about ${secs(v.elapsed)}.`,
  'limit-assumed': (v) =>
    `${lim(v.limit)} = ${secs(v.seconds)} is the default for ${v.version ? `torch ${s(v.version)}` : 'this version'}; no log line prints it (assumed).`,
  'number-refused': (v) =>
    `${where(v)} prints ${s(v.what)} = “${s(v.value)}”, beyond any real job: the value was not used.`,
  'events-not-kept': (v) =>
    `${nodesOf(v, ' and ')}: ${num(v.events)} events were not kept${v.file ? ` (${s(v.file)}, lines ${num(v.from)}–${num(v.to)})` : ''}${notKeptParts(v, EN_PARTS, ': ', ', ')}. Each log keeps its first ${HEAD_RUNS} and last ${TAIL_RUNS} runs whole, and a run of more events its first ${RUN_HEAD} and last ${RUN_TAIL}: this diagnosis reads those, not what lies between.`,
};

const NOTES_ZH: Record<NoteCode, (v: V) => string> = {
  text: (v) => s(v.text),
  'year-from-line': (v) => `没有年份的时间戳取自带日期的日志行（${where(v)}）。`,
  'year-from-child-failed': (v) => `没有年份的时间戳取自 ChildFailedError 的时间（${where(v)}）。`,
  'year-from-mtime': () => '没有年份的时间戳取自文件的修改时间。',
  'year-assumed': (v) => `没有年份的时间戳按 ${z(v.year)} 年处理（日志中没有年份）。`,
  'zone-learned': (v) => `${z(v.node)}：它自己的日志时间与采集器的 UTC 时间相差 ${z(v.hours)} 小时，已校正。`,
  'zone-assumed': () => '日志时间没有时区；所有节点都按同一时区处理（显示为 UTC）。',
  'set-by-hand': (v) => `以下文件的年份或时区为手动设置：${z(v.files)}。`,
  'tz-corrected': (v) => `${z(v.node)}：时钟与其他节点相差 ${z(v.hours)} 小时，是时区差异，已校正。`,
  'clock-corrected': (v) => `${z(v.node)}：已校正 ${secsZh(v.seconds)}（±${secsZh(v.bound)}）的时钟偏差。`,
  'launch-derived': (v) => `${z(v.node)}：启动时间由 ${where(v)} 的时间减去其声明的等待时长 ${secsZh(v.waited)} 推算。`,
  'launch-script-clock': (v) =>
    `${z(v.node)}：torchrun 的日志行没有时间；按作业脚本在 ${where(v)} 打印的时间定位，该时间早于 torchrun 启动（torchrun 在此时或之后启动）。`,
  'decoding-cleaned': (v) =>
    `读取 ${num(v.files)} 个文件时修补了文本：${[
      n(v.cutLines) ? `${num(v.cutLines)} 行超过行长上限被截断` : '',
      n(v.invalidBytes) ? `${num(v.invalidBytes)} 个非 UTF-8 字节显示为 �` : '',
      n(v.nulBytes) ? `跳过 ${num(v.nulBytes)} 个 NUL 字节（填充）` : '',
      n(v.transcoded) ? `${num(v.transcoded)} 个按 UTF-16 读取` : '',
    ]
      .filter(Boolean)
      .join('；')}。`,
  'launch-clock-below': (v) =>
    `${z(v.node)}：torchrun 的日志行没有时间；按其启动之后紧接着的第一条带时间的行 ${where(v)} 定位（torchrun 在此时或稍早启动）。`,
  'launch-partial': (v) =>
    `${z(v.total)} 个节点中只有 ${z(v.placed)} 个的启动时间已知（${z(v.unplaced)} 没有可用的时间）：无法测量整个作业的启动时间差，只能测量这 ${z(v.placed)} 个节点之间的。`,
  'launch-unknown': () =>
    '无法确定启动时间：这些日志的 torchrun 行没有时间戳（torch ≤ 2.0 默认设置）。下次请用 `kubectl logs --timestamps`、torch ≥ 2.1 的 `LOGLEVEL=INFO`，或通过加时间戳的工具采集。',
  'times-derived': () => '部分时间是根据文本中声明的时长推算的，而不是读取自时间戳。',
  'no-progress': () => '日志显示 torchrun 已启动，但既没有越过 rendezvous 的进展，也没有失败；日志可能提前结束了。',
  'agents-in-stream': (v) =>
    `${z(v.node)}：它的日志中有 ${z(v.agents)} 个没有行标签的 torchrun agent（srun 未加 -l，或一台主机上两个 agent）；按 ${z(v.agents)} 个节点计算。`,
  'limit-inferred': (v) =>
    `${limZh(v.limit)}：日志中没有打印它，且它的默认值（${secsZh(v.assumed)}）不可能是触发的那个 —— ${z(v.node)} 在启动 ${secsZh(v.elapsed)} 后就失败了 —— 因此按约 ${secsZh(v.elapsed)} 计。`,
  'limit-assumed': (v) =>
    `${limZh(v.limit)} = ${secsZh(v.seconds)} 是${v.version ? ` torch ${z(v.version)} ` : '该版本'}的默认值；没有日志行打印它（推定）。`,
  'number-refused': (v) => `${where(v)} 打印的 ${z(v.what)} = “${z(v.value)}” 超出任何真实作业的范围：未采用该值。`,
  'events-not-kept': (v) =>
    `${nodesOf(v, ' 及另外 ')}：有 ${num(v.events)} 个事件未保留${v.file ? `（${z(v.file)}，第 ${num(v.from)}–${num(v.to)} 行）` : ''}${notKeptParts(v, ZH_PARTS, '：', '，')}。每个日志完整保留最前 ${HEAD_RUNS} 次和最后 ${TAIL_RUNS} 次运行，事件更多的运行保留其最前 ${RUN_HEAD} 个和最后 ${RUN_TAIL} 个：本诊断只读取这些，不含其间的内容。`,
};

const REASONS_EN: Record<ReasonCode, (v: V) => string> = {
  text: (v) => s(v.text),
  'host-up-others-late': (v) =>
    `The store host ${s(v.host)} was up and waiting (${s(v.hostStage)}); ${s(v.nodes)} could not reach it because it had already given up — ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'they' : s(v.nodes)} arrived late.`,
  'pg-waiters-late-arrival': (v) =>
    `${s(v.waiters)} timed out in init_process_group waiting for the others; ${s(v.nodes)} reached init_process_group only after that and found the store gone.`,
  'first-failure-in-time': (v) =>
    `Several nodes failed differently; the first failure in time was ${s(v.stage)} on ${s(v.node)}.`,
  'most-reported-stage': (v) =>
    `Nodes failed in different stages and the logs lack the times to order them; ${s(v.stage)} was reported by the most nodes (${s(v.count)}).`,
  'host-absent': (v) =>
    `Nodes failed to connect to the store host${v.host ? ` ${s(v.host)}` : ''}, whose log was not given (${s(v.missing)}): it started late or not at all.`,
  'host-silent': (v) =>
    `Nodes failed to connect to the store on ${s(v.host)}, which left no failure of its own in the logs: it started late or not at all.`,
  'failed-before-joining': (v) =>
    `${s(v.nodes)} failed before joining the rendezvous (its agent could not even create its store client); ${s(v.waiters)} waited for it until their limit ran out.`,
  'same-error-everywhere': (v) =>
    `The workers of every node (${s(v.nodes)}) failed with the same error (${s(v.error)}): the cause is what the nodes share — the launch flags, the script, the environment — not one node.`,
  'duplicate-node-rank': (v) =>
    `${s(v.nodes)} were all launched with node rank ${s(v.rank)}, so no node took rank ${s(v.missing)} and the others waited for it: one of them was given the wrong --node-rank (a misconfiguration, not a late node).`,
  'host-late-by-launch': (v) => `${s(v.host)} launched ${secs(v.lag)} after the first node.`,
  'host-late-consequence': (v) =>
    `The other nodes timed out connecting to the store on ${s(v.host)} (node_rank 0 / the rendezvous endpoint), so the store host was the late one; its own later failure (${s(v.hostStage)}) is a consequence.`,
  'store-key-names-node': (v) =>
    `${s(v.waiter)} waited for store key ${s(v.key)}, which ${n(v.group) ? 'node' : 'rank'} ${s(v.rank)} on ${s(v.node)} writes: ${s(v.node)} was late.`,
  'late-by-launch': (v) => `By launch times, ${s(v.nodes)} started ${secs(v.lag)} after the first node.`,
  'missing-likely': (v) =>
    `No node present in the logs was late, and ${s(v.missing)} sent no log: a node whose log was not provided is the likely culprit.`,
  'launch-times-outrank-text': (v) =>
    `${s(v.nodes)} reached the store only after the others gave up, but their launch times are on time; the launch times name ${s(v.late)} instead.`,
  'joined-count': (v) => `${s(v.joined)} of ${s(v.expected)} nodes joined before the limit.`,
  'host-not-served': (v) =>
    `All ${s(v.nodes)} nodes of the job are in the logs and every one failed to connect to the store at ${s(v.host)}: none of them served it. An agent hosts the c10d store only when the endpoint is its own host name or address — check the endpoint (and that its port is open), not a late node.`,
  'name-unresolved': (v) =>
    `The store host's name ${s(v.host)} did not resolve on the clients, so no connection was ever tried: the name is wrong or missing from DNS / /etc/hosts — or, on Kubernetes, its pod did not exist yet. Nothing shows whether that host was late.`,
  'node-down': (v) =>
    `The scheduler reports that ${s(v.nodes)} went down (a node failure): that node is the cause of what the others then waited for, not a late start.`,
  'closed-on-arrival': (v) =>
    `${s(v.nodes)} found the rendezvous already closed, and no log here shows the round that closed it: either other nodes formed it and left (their logs are not here), or an earlier run used the same rendezvous id (--rdzv_id) on this store. Give each run its own id.`,
  'joined-count-missing': (v) =>
    `The store host counted ${s(v.joined)} of ${s(v.expected)} clients joined; every client whose log is here is among them, so the one${n(v.expected) - n(v.joined) > 1 ? 's' : ''} that never joined ${n(v.expected) - n(v.joined) > 1 ? 'are' : 'is'} ${s(v.missing)}, whose log was not given.`,
  'entered-after-give-up': (v) =>
    `The ranks of ${s(v.nodes)} reached ${s(v.stage)} only after ${s(v.waiters)} had given up waiting in it (${secs(v.lag)} after the first node's ranks): ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'they were' : 'it was'} late to it, whatever ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'their' : 'its'} launch time.`,
  'still-connecting': (v) =>
    `${s(v.nodes)} ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'were' : 'was'} still retrying to connect to the store when ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'their logs end' : 'its log ends'}: ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'they' : 'it'} never reached it (inferred: no final connect error is in the text).`,
  'local-fault': (v) =>
    `A CUDA call under NCCL failed on ${s(v.nodes)} itself (its GPU or driver): that node is the cause, not a late peer.`,
  'never-launched': (v) =>
    `${s(v.nodes)} never started torchrun (its job step failed before the launch); ${s(v.waiters)} waited for it until their limit ran out.`,
  'worker-crash': (v) =>
    `A worker on ${s(v.nodes)} failed with its own error; ${s(v.waiters)} then waited for its ranks (${s(v.stage)}) until their limit ran out — a consequence, not a late node.`,
  'restart-cause': (v) =>
    `The first failure was a worker of ${s(v.nodes)} (${s(v.stage)}); the agents restarted, and the restarts failed in turn.`,
  'silent-straggler': (v) =>
    `${s(v.nodes)} ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'show' : 'shows'} no failure of ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'their' : 'its'} own and never got past the rendezvous while ${s(v.waiters)} timed out waiting: ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'they' : 'it'} joined too late (inferred: the logs carry no times).`,
  'host-inferred': (v) =>
    `${s(v.host)} is the store host: it waited in the rendezvous (${s(v.hostStage)}) while every other node failed to reach the store.`,
  'host-gone': (v) =>
    `${s(v.nodes)} had reached the store and lost it when its host gave up waiting (${s(v.hostStage)}); ${s(v.late)} arrived after that.`,
  'mixed-run': (v) => `Of the runs in these logs, ${s(v.run)} failed; the others are left out of this analysis.`,
  'loopback-endpoint': (v) =>
    `The rendezvous endpoint ${s(v.host)} is a loopback address, yet the logs show the job on several machines: each node reaches only itself there, so the others can never meet the store host. Give every node the host's real name or address (on Debian-style hosts \`hostname --ip-address\` returns 127.0.1.1) — not a late node.`,
  'bad-address': (v) =>
    `The address the nodes tried, ${s(v.host)}, is not a host name (it reads as the number ${s(v.resolved)}): the address given to torchrun or to MASTER_ADDR is wrong, not a node late.`,
  'arrived-after-close': (v) =>
    `${s(v.nodes)} found the rendezvous already closed: ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'they' : 'it'} arrived after the others had formed their round and left.`,
  'failed-later': (v) =>
    `${s(v.nodes)} failed more than the connect timeout (${secs(v.limit)}${n(v.assumed) ? ', its default — assumed, no line prints it' : ''}) after the first node did: ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'they' : 'it'} reached the communicator late.`,
  'waits-for-rank': (v) =>
    `${s(v.waiter)} waited for rank ${s(v.rank)}, which runs on ${s(v.node)}${n(v.inferred) === 2 ? ` (inferred from its group rank, with ${s(v.nproc)} workers per node)` : n(v.inferred) ? ' (inferred: no log names its ranks, and it is the only node that could hold it)' : ''}: ${s(v.node)} reached it late.`,
  'run-id-odd': (v) =>
    `${s(v.nodes)} used the rendezvous id ${s(v.id)} while the others used ${s(v.others)}: ${Array.isArray(v.nodes) && v.nodes.length > 1 ? 'they' : 'it'} could never meet them.`,
};

const REASONS_ZH: Record<ReasonCode, (v: V) => string> = {
  text: (v) => s(v.text),
  'host-up-others-late': (v) =>
    `store 主机 ${z(v.host)} 已启动并在等待（${z(v.hostStage)}）；${z(v.nodes)} 连不上它是因为它已经放弃了 —— ${z(v.nodes)} 迟到了。`,
  'pg-waiters-late-arrival': (v) =>
    `${z(v.waiters)} 在 init_process_group 中等待其他节点超时；${z(v.nodes)} 在那之后才到达 init_process_group，发现 store 已关闭。`,
  'first-failure-in-time': (v) => `多个节点以不同方式失败；时间上最早的失败是 ${z(v.node)} 上的 ${z(v.stage)}。`,
  'most-reported-stage': (v) =>
    `各节点失败在不同阶段，且日志缺少排序所需的时间；报告 ${z(v.stage)} 的节点最多（${z(v.count)} 个）。`,
  'host-absent': (v) =>
    `各节点连接 store 主机${v.host ? ` ${z(v.host)}` : ''}失败，而它的日志没有提供（${z(v.missing)}）：它启动晚了或根本没有启动。`,
  'host-silent': (v) =>
    `各节点连接 ${z(v.host)} 上的 store 失败，而它的日志中没有自己的失败：它启动晚了或根本没有启动。`,
  'host-late-by-launch': (v) => `${z(v.host)} 比第一个节点晚 ${secsZh(v.lag)} 启动。`,
  'host-late-consequence': (v) =>
    `其他节点连接 ${z(v.host)}（node_rank 0 / rendezvous endpoint）上的 store 超时，所以迟到的是 store 主机；它自己之后的失败（${z(v.hostStage)}）是后果。`,
  'store-key-names-node': (v) =>
    `${z(v.waiter)} 在等待 store 键 ${z(v.key)}，该键由 ${z(v.node)} 上的 ${n(v.group) ? '节点' : 'rank'} ${z(v.rank)} 写入：${z(v.node)} 迟到了。`,
  'late-by-launch': (v) => `按启动时间，${z(v.nodes)} 比第一个节点晚 ${secsZh(v.lag)} 启动。`,
  'missing-likely': (v) => `日志中的节点都没有迟到，而 ${z(v.missing)} 没有提供日志：缺少日志的节点最可能是元凶。`,
  'launch-times-outrank-text': (v) =>
    `${z(v.nodes)} 在其他节点放弃之后才连上 store，但它们的启动时间是准时的；按启动时间，迟到的是 ${z(v.late)}。`,
  'joined-count': (v) => `${z(v.expected)} 个节点中有 ${z(v.joined)} 个在期限前加入。`,
  'host-not-served': (v) =>
    `作业的全部 ${z(v.nodes)} 个节点都在日志中，而且每个都连不上 ${z(v.host)} 上的 store：没有节点在提供它。只有当 endpoint 是某个 agent 自己的主机名或地址时，它才会托管 c10d store —— 请检查 endpoint（以及端口是否开放），而不是迟到的节点。`,
  'name-unresolved': (v) =>
    `客户端无法解析 store 主机名 ${z(v.host)}，因此根本没有尝试连接：主机名错误，或 DNS / /etc/hosts 中没有它 —— 在 Kubernetes 上也可能是它的 pod 当时还不存在。日志无法说明该主机是否迟到。`,
  'node-down': (v) => `调度器报告 ${z(v.nodes)} 宕机（节点故障）：其他节点随后所等待的正是它，而不是启动晚了。`,
  'closed-on-arrival': (v) =>
    `${z(v.nodes)} 发现 rendezvous 已经关闭，而这里没有日志显示关闭它的那一轮：要么是其他节点组成了那一轮并已离开（它们的日志不在这里），要么是之前的一次运行在同一个 store 上用了相同的 rendezvous id（--rdzv_id）。请让每次运行使用自己的 id。`,
  'joined-count-missing': (v) =>
    `store 主机统计到 ${z(v.expected)} 个客户端中有 ${z(v.joined)} 个加入；日志中的每个客户端都在其中，所以从未加入的是没有提供日志的 ${z(v.missing)}。`,
  'entered-after-give-up': (v) =>
    `${z(v.nodes)} 的 rank 直到 ${z(v.waiters)} 放弃等待之后才进入 ${z(v.stage)}（比第一个节点的 rank 晚 ${secsZh(v.lag)}）：无论启动时间如何，它到得太晚了。`,
  'still-connecting': (v) =>
    `${z(v.nodes)} 的日志结束时仍在重试连接 store：它从未连上（推断：文本中没有最终的连接错误）。`,
  'local-fault': (v) =>
    `${z(v.nodes)} 本机在 NCCL 中的 CUDA 调用失败（它的 GPU 或驱动）：原因在这个节点本身，而不是迟到的对端。`,
  'never-launched': (v) =>
    `${z(v.nodes)} 根本没有启动 torchrun（它的作业步骤在启动前就失败了）；${z(v.waiters)} 一直等待它，直到期限用完。`,
  'worker-crash': (v) =>
    `${z(v.nodes)} 上的 worker 因自身错误失败；${z(v.waiters)} 随后一直等待它的 rank（${z(v.stage)}），直到期限用完 —— 这是后果，不是节点迟到。`,
  'restart-cause': (v) => `最先的失败是 ${z(v.nodes)} 的 worker（${z(v.stage)}）；agent 随后重启，而重启又相继失败。`,
  'silent-straggler': (v) =>
    `${z(v.nodes)} 没有自己的失败，也从未越过 rendezvous，而 ${z(v.waiters)} 等待超时：它加入得太晚了（推断：日志没有时间）。`,
  'failed-before-joining': (v) =>
    `${z(v.nodes)} 在加入 rendezvous 之前就失败了（它的 agent 连 store 客户端都无法创建）；${z(v.waiters)} 一直等它，直到期限用完。`,
  'same-error-everywhere': (v) =>
    `每个节点（${z(v.nodes)}）的 worker 都因同一个错误失败（${z(v.error)}）：原因在节点共有的东西 —— 启动参数、脚本、环境 —— 而不在某一个节点。`,
  'duplicate-node-rank': (v) =>
    `${z(v.nodes)} 都以 node rank ${z(v.rank)} 启动，因此没有节点取得 rank ${z(v.missing)}，其他节点一直在等它：其中一个的 --node-rank 配错了（是配置错误，不是节点迟到）。`,
  'host-inferred': (v) =>
    `${z(v.host)} 是 store 主机：它在 rendezvous 中等待（${z(v.hostStage)}），而其他节点都连不上 store。`,
  'host-gone': (v) =>
    `${z(v.nodes)} 已连上 store，又在 store 主机放弃等待（${z(v.hostStage)}）时失去了连接；${z(v.late)} 是在那之后才到达的。`,
  'mixed-run': (v) => `这些日志中的多次运行里，失败的是 ${z(v.run)}；其他运行不在本次分析之内。`,
  'loopback-endpoint': (v) =>
    `rendezvous endpoint ${z(v.host)} 是回环地址，而日志显示作业运行在多台机器上：每个节点在这个地址上只能连到自己，其他节点永远见不到 store 主机。请给所有节点使用 store 主机真实的主机名或地址（在 Debian 类系统上 \`hostname --ip-address\` 会返回 127.0.1.1）—— 这不是节点迟到。`,
  'bad-address': (v) =>
    `各节点尝试连接的地址 ${z(v.host)} 不是主机名（会被解析为数字 ${z(v.resolved)}）：传给 torchrun 或 MASTER_ADDR 的地址有误，而不是节点迟到。`,
  'arrived-after-close': (v) => `${z(v.nodes)} 发现 rendezvous 已关闭：它在其他节点组成轮次并离开之后才到达。`,
  'failed-later': (v) =>
    `${z(v.nodes)} 的失败比第一个节点晚了超过建链超时（${secsZh(v.limit)}${n(v.assumed) ? '，为默认值，推定：没有日志行打印它' : ''}）：它到达通信域太晚。`,
  'waits-for-rank': (v) =>
    `${z(v.waiter)} 在等待 rank ${z(v.rank)}，它运行在 ${z(v.node)} 上${n(v.inferred) === 2 ? `（由它的 group rank 推断，每个节点 ${z(v.nproc)} 个 worker）` : n(v.inferred) ? '（推断：没有日志写明它的 rank，而它是唯一可能持有该 rank 的节点）' : ''}：${z(v.node)} 到达太晚。`,
  'run-id-odd': (v) =>
    `${z(v.nodes)} 使用的 rendezvous id 是 ${z(v.id)}，而其他节点使用 ${z(v.others)}：它们永远无法会合。`,
};

export function noteText(lang: Lang, note: Note): string {
  return zhSpacing(lang, (lang === 'zh' ? NOTES_ZH : NOTES_EN)[note.code](labelValues(lang, note.values)));
}

export function reasonText(lang: Lang, reason: Reason): string {
  return zhSpacing(lang, (lang === 'zh' ? REASONS_ZH : REASONS_EN)[reason.code](labelValues(lang, reason.values)));
}

export const NOTE_CODES = Object.keys(NOTES_EN) as NoteCode[];
export const REASON_CODES = Object.keys(REASONS_EN) as ReasonCode[];
