import { t } from '../i18n/translate';
import type { AdviceId } from './advice';
import { labelValues, zhSpacing, type Lang } from './i18n';
import { LIST_NUMBERS } from './findings/types';
import type { NodeLagged } from './model';

// Every sentence the diagnosis says, in English and Simplified Chinese. Rules in findings.ts pick the code
// and the numbers; the words are here, so the CLI, the dashboard and the share view say the same thing.

export type FindingCode =
  | 'LATE_NODE'
  | 'HOST_NODE_LATE'
  | 'SKEW_EXCEEDS_STORE_SYNC'
  | 'SKEW_EXCEEDS_RDZV_TIMEOUT'
  | 'SKEW_RISK'
  | 'PRELAUNCH_WORK'
  | 'NODE_LOG_MISSING'
  | 'CLOCK_OFFSET'
  | 'TZ_MISMATCH'
  | 'PG_INIT_TIMEOUT'
  | 'COMM_INIT_TIMEOUT'
  | 'NOT_A_STARTUP_PROBLEM'
  | 'EXIT_BARRIER_TIMEOUT'
  | 'STORE_UNREACHABLE'
  | 'UNCLASSIFIED_FAILURE'
  | 'NO_TIMESTAMPS'
  | 'RUN_ID_MISMATCH'
  | 'RESTARTS'
  | 'MIXED_JOBS'
  | 'WORKER_COUNT_EXCEEDS'
  | 'STORE_BARRIER_WAIT'
  | 'WORKER_CRASH'
  | 'RESTART_STORE_REUSED'
  | 'ROUND_STORE_REUSED';

export type P = Record<string, string | number | null>;

interface Text {
  title: (p: P) => string;
  detail: (p: P) => string;
}

const s = (x: string | number | null | undefined) => (x === null || x === undefined ? '?' : String(x));
const secs = (x: string | number | null | undefined) =>
  x === null || x === undefined ? '?' : `${typeof x === 'number' ? round(x) : x} s`;
const secsZh = (x: string | number | null | undefined) => secs(x).replace(/ s$/, ' 秒');
/** Seconds as people read them: whole above 10, one decimal below. */
const round = (x: number) => (Math.abs(x) >= 10 ? String(Math.round(x)) : String(Math.round(x * 10) / 10));
/** Where a limit's value comes from, said every time a limit is: printed, inferred, or an assumed default. */
const srcEn = (p: P) =>
  p.source === 'logs'
    ? 'as the logs print it'
    : p.source === 'inferred'
      ? 'inferred from how long the nodes waited; the logs do not print it'
      : p.source === 'default'
        ? `the default${p.version ? ` for torch ${s(p.version)}` : ''}${p.backend ? `, ${s(p.backend)}` : ''} — assumed, no log line shows it`
        : 'source unknown';
const srcZh = (p: P) =>
  p.source === 'logs'
    ? '日志中打印的值'
    : p.source === 'inferred'
      ? '根据节点等待的时长推断；日志中没有打印'
      : p.source === 'default'
        ? `${defaultOfZh(p)}，推定：没有日志行打印它`
        : '来源未知';
/** Whose default a limit is: `torch 2.3 下 c10d 后端的默认值`, `torch 2.3 的默认值`, or just `默认值`. */
const defaultOfZh = (p: P) =>
  p.version && p.backend
    ? `torch ${s(p.version)} 下 ${s(p.backend)} 后端的默认值`
    : p.version
      ? `torch ${s(p.version)} 的默认值`
      : p.backend
        ? `${s(p.backend)} 后端的默认值`
        : '默认值';

const EN: Record<FindingCode, Text> = {
  RUN_ID_MISMATCH: {
    title: () => `The nodes used different rendezvous ids: they could never meet`,
    detail: (p) =>
      `The agents joined rendezvous ${s(p.ids)}. Only nodes with the same --rdzv_id meet; each group waited for the others until its timeout. This is not skew: no timeout is long enough.`,
  },
  LATE_NODE: {
    title: (p) =>
      p.commGap !== null && p.commGap !== undefined
        ? `${s(p.node)} reached the communicator ${secs(p.commGap)} after ${s(p.commFirst)}`
        : Number(p.count) > 1
          ? `${s(p.count)} nodes started late; the latest, ${s(p.node)}${p.lag !== null ? `, ${secs(p.lag)} after ${s(p.first)}` : ''}`
          : p.lag !== null
            ? `${s(p.node)} started ${secs(p.lag)} after ${s(p.first)}`
            : `${s(p.node)} arrived late`,
    detail: (p) =>
      (p.commGap !== null && p.commGap !== undefined
        ? `${s(p.node)}'s communicator setup ran out ${secs(p.commGap)} after ${s(p.commFirst)}'s${p.lag !== null ? `, although it launched torchrun only ${secs(p.lag)} after the first node` : ''}: what it did between launch and the communicator (loading data or a model, a slow import) made it late. ${Number(p.count) > 1 ? s(p.lateList) : ''}`.trimEnd()
        : Number(p.count) > 1
          ? s(p.lateList)
          : p.lag !== null
            ? `${s(p.node)} launched torchrun ${secs(p.lag)} after the first node (${s(p.first)}).`
            : `${s(p.node)} reached the rendezvous after the others had given up; its log carries no time, so its lag cannot be measured.`) +
      (p.clockOffset !== null
        ? ` Its clock reads ${secs(p.clockOffset)} away from the others at the rendezvous they all left together: its lag includes that offset; check its clock (chrony/NTP).`
        : '') +
      (p.victims
        ? ` The nodes that reported the failure (${s(p.victims)}) were waiting for it: the error shows up on the nodes that waited, not on the one that was late.`
        : ''),
  },
  HOST_NODE_LATE: {
    title: (p) => `The store host ${s(p.node)} was the late node`,
    detail: (p) =>
      `${s(p.node)} hosts the TCPStore (${s(p.role)})${p.lag !== null ? ` and launched ${secs(p.lag)} after the first node` : ''}. When it starts late, the other nodes do not wait in the rendezvous: they fail to connect to it once their connect deadline runs out — ${s(p.limitName)} = ${secs(p.limit)} (${srcEn(p)}), the limit that fired. The store host's own later timeout is a consequence. Raise ${s(p.limitName)} on every node (the same --rdzv_conf everywhere), or start the host first.`,
  },
  SKEW_EXCEEDS_STORE_SYNC: {
    title: () => `The 300 s rank-assignment wait fired, not the rendezvous timeout`,
    detail: (p) =>
      `${p.late ? `${s(p.late)} joined ${p.skew !== null ? `${secs(p.skew)} ` : ''}after ${s(p.first)}` : p.missing ? `No node whose log is here was late; ${s(p.missing)}, whose log is missing, is the likely one they waited for` : 'Which node came late is not known'}; ${s(p.waiters)} waited in rank assignment (store_util.synchronize), whose limit is 300 s on torch ${s(p.version)} — that is the timeout that fired, not the ${secs(p.rdzvLimit)} rendezvous timeout. No --rdzv_conf key raises it: it is hard-coded up to torch 2.3 and gone from 2.4.`,
  },
  SKEW_EXCEEDS_RDZV_TIMEOUT: {
    title: (p) =>
      p.missing
        ? `The rendezvous limit (${s(p.key)} = ${secs(p.limit)}) ran out waiting for a node with no log`
        : `The rendezvous limit (${s(p.key)} = ${secs(p.limit)}) was shorter than the skew`,
    detail: (p) =>
      p.missing
        ? `The ${s(p.backend)} rendezvous waits ${s(p.key)} = ${secs(p.limit)} (${srcEn(p)}). The nodes whose logs were given started ${p.skew !== null ? `within ${secs(p.skew)} of each other, well inside it` : 'inside it'}; ${s(p.reporters)} gave up waiting for ${s(p.missing)}, whose log is missing: it started more than ${secs(p.limit)} after them, or never started. A longer limit helps only in the first case — its log (or its job step's) tells which.`
        : `The ${s(p.backend)} rendezvous waits ${s(p.key)} = ${secs(p.limit)} (${srcEn(p)})${p.skew !== null ? `, but the nodes started up to ${secs(p.skew)} apart` : ''}; ${s(p.reporters)} gave up before ${p.late ? s(p.late) : 'the late node'} arrived.` +
          (p.ignoredTimeout
            ? ` Note: the c10d backend ignores timeout=${s(p.ignoredTimeout)}; it reads join_timeout.`
            : ''),
  },
  SKEW_RISK: {
    title: (p) => `Launch skew of ${secs(p.skew)} is close to the ${secs(p.limit)} limit`,
    detail: (p) =>
      p.outcome === 'incomplete'
        ? `The logs stop before the outcome, with the nodes started ${secs(p.skew)} apart against a ${s(p.limitName)} of ${secs(p.limit)}${p.survived ? ': past it, so the start most likely failed after these logs end' : ''}.`
        : `The job survived, but its nodes started ${secs(p.skew)} apart against a ${s(p.limitName)} of ${secs(p.limit)}${p.survived ? ' — already past it; it survived only because this version does not enforce it here' : ''}. A slightly later node would fail the start.`,
  },
  PRELAUNCH_WORK: {
    title: (p) => `${s(p.node)} spent ${secs(p.seconds)} before starting torchrun`,
    detail: (p) =>
      `${s(p.node)}'s log begins ${secs(p.seconds)} before its torchrun launch${p.activity ? `, with work such as: ${s(p.activity)}` : ''}. Work done before torchrun starts delays the rendezvous for every node.`,
  },
  NODE_LOG_MISSING: {
    title: (p) =>
      Number(p.count) > 1
        ? `No log for ${s(p.count)} nodes (${s(p.missing)}${Number(p.count) > 64 ? ', …' : ''})`
        : `No log for ${s(p.missing)}`,
    detail: (p) =>
      `The job had ${s(p.expected)} nodes${p.formed ? ' (the world that formed)' : ''} but logs for ${s(p.present)} were given. ` +
      (p.likely
        ? 'No node present was late: the node whose log is missing is the likely culprit.'
        : p.formed
          ? 'The world formed without a problem; the missing logs change nothing in the verdict.'
          : 'A node whose log was not provided could be the culprit.'),
  },
  CLOCK_OFFSET: {
    title: (p) => `${s(p.node)}'s clock is ${secs(p.offset)} off`,
    detail: (p) =>
      `All agents leave the rendezvous at nearly the same instant, yet ${s(p.node)} logged it ${secs(p.offset)} (±${s(p.bound)} s) away from the others. Its times are shifted by that much${p.applied ? ' and were corrected' : '; lags shown for it include the offset unless corrected (--correct-clocks)'}.`,
  },
  TZ_MISMATCH: {
    title: (p) => `${s(p.node)} logs in another time zone (${s(p.hours)} h)`,
    detail: (p) =>
      `${s(p.node)}'s times are ${s(p.hours)} h away from the others at the rendezvous: a time-zone difference, not skew. It was corrected before computing lags.`,
  },
  PG_INIT_TIMEOUT: {
    title: (p) => `init_process_group timed out (${secs(p.limit)})`,
    detail: (p) =>
      `The workers of ${s(p.reporters)} waited ${secs(p.limit)} (${srcEn(p)}) in init_process_group for ${s(p.late) !== '?' ? `the workers of ${s(p.late)}` : 'the others'}, which reached it late. The rendezvous itself had completed: the delay happened in the training script before init_process_group.`,
  },
  COMM_INIT_TIMEOUT: {
    title: (p) => `Communicator setup (${s(p.lib)}) timed out`,
    detail: (p) =>
      `Setting up the ${s(p.lib)} communicator timed out${p.limit !== null ? ` after ${secs(p.limit)} (${srcEn(p)})` : ''} on ${s(p.reporters)}: ${p.late ? `${s(p.late)} reached it late or could not be reached` : 'a peer reached it late or could not be reached'}.`,
  },
  NOT_A_STARTUP_PROBLEM: {
    title: () => `A collective timed out during training — not a startup problem`,
    detail: (p) =>
      `The watchdog caught a collective (SeqNum ${s(p.seq)}) that ran past ${secs(p.limit)}. With that many collectives done, the job had started; this is a hang or a slow rank during training, and rendezvous settings will not help.`,
  },
  EXIT_BARRIER_TIMEOUT: {
    title: () => `Agents waited 300 s for each other at the exit barrier`,
    detail: (p) =>
      `${s(p.reporters)} finished and waited the 300 s exit barrier for nodes that did not finish in time. One node ended much later than the others, or hung at the end.`,
  },
  STORE_UNREACHABLE: {
    title: (p) => `The store at ${s(p.endpoint)} could not be reached`,
    detail: (p) =>
      `${s(p.reporters)} could not connect to the rendezvous store at ${s(p.endpoint)}${p.limit !== null ? ` within ${secs(p.limit)} (${srcEn(p)})` : ''}. Either its host started late${p.missing ? ` — its log is not among those given (${s(p.missing)})` : ' (no log of it shows it up)'} or the address is wrong or blocked.`,
  },
  WORKER_CRASH: {
    title: (p) => `A worker on ${s(p.nodes)} failed with its own error${p.error ? `: ${s(p.error)}` : ''}`,
    detail: (p) =>
      `${s(p.nodes)}'s worker stopped on its own error, not on a timeout${p.waiters ? `; ${s(p.waiters)} then waited for its ranks${p.waitStage ? ` (${s(p.waitStage)})` : ''}${p.limit !== null ? ` until their limit of ${secs(p.limit)} (${srcEn(p)}) ran out` : ' until their limit ran out'}` : ''}. Those timeouts are consequences and no node was late: raising a limit or starting nodes together changes nothing. Fix the error in ${s(p.nodes)}'s worker (the first evidence line).`,
  },
  RESTART_STORE_REUSED: {
    title: () => `Every restart failed in init_process_group: the workers reused the agent's store`,
    detail: (p) =>
      `${p.cause ? `The first failure was ${s(p.cause)}'s worker${p.firstStage ? ` (${s(p.firstStage)})` : ''}; ` : ''}${s(p.nodes)} then restarted (${s(p.attempts)} attempts), and every later attempt died in init_process_group at once, on a connect error, not a timeout. ${p.shown ? 'The agents print `use_agent_store: True`: ' : `In torch ${s(p.version)} (2.5 and later) `}the workers reuse the agent's rendezvous TCPStore across attempts, and the restarted ones read what the previous attempt left in it, so no restart could succeed. Fix the first failure; and so that restarts can recover, set TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 on every node.`,
  },
  ROUND_STORE_REUSED: {
    title: (p) =>
      `${p.joined ? `${s(p.joined)} joined a running job` : 'A node joined a running job'}; the new round never assigned ranks`,
    detail: (p) =>
      `${s(p.nodes)} detected a new node and met again in a new rendezvous round, but its rank assignment never completed${p.limit !== null ? `: the agents waited ${secs(p.limit)} (${srcEn(p)}) for keys that never came` : ''}. ${p.shown ? 'The agents print `use_agent_store: True`: ' : `In torch ${s(p.version)} (2.5 and later) `}they keep the first round's rendezvous TCPStore, and rank 0 does not publish it again for the new round. No node was late and no limit would have helped. Set TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 on every node so each round builds its own store, or start every node before the world forms (min_nodes = max_nodes).`,
  },
  UNCLASSIFIED_FAILURE: {
    title: (p) => `Failed outside the startup stages: ${s(p.error)}`,
    detail: (p) =>
      `${s(p.reporters)} failed with ${s(p.error)}. This is not a timeout between nodes; the evidence lines show where it was raised.` +
      (p.lowConfidence
        ? ' The log ends inside the traceback: the exception itself is not in the text, so this is read from its frames (low confidence).'
        : ''),
  },
  NO_TIMESTAMPS: {
    title: () => `These logs carry no usable timestamps`,
    detail: (p) =>
      p.partial
        ? `The torchrun lines here carry no time, although some other lines do; launch times and skew cannot be measured from them. The verdict and stage still come from the text.`
        : `torchrun lines here have no time (torch ≤ 2.0 at default settings, or Slurm/plain captures), so launch times and skew cannot be measured; the verdict and stage still come from the text.`,
  },
  RESTARTS: {
    title: (p) => `${s(p.nodes)} restarted: ${s(p.attempts)} attempts`,
    detail: (p) =>
      `The agents restarted their worker groups ${s(p.restarts)} time(s)${p.stages ? ` after failures in ${s(p.stages)}` : ''}${p.left !== null ? `; ${s(p.left)} of ${s(p.max)} restarts were left at the last one` : ''}. ${p.lastFormed ? 'The last attempt formed the world.' : 'The last attempt did not form the world.'} Each attempt meets in its own rendezvous round: skew is measured per attempt${p.lastSkew !== null ? ` (the last one's nodes started within ${secs(p.lastSkew)} of each other${p.worstSkew !== null && p.worstSkew !== p.lastSkew ? `; the widest, attempt ${s(p.worstAttempt)}, ${secs(p.worstSkew)}` : ''})` : ''}.`,
  },
  MIXED_JOBS: {
    title: (p) => `These logs come from ${s(p.runs)} different runs`,
    detail: (p) =>
      `The files name different ${p.by === 'run-id' ? 'rendezvous ids' : 'rendezvous endpoints'}: ${s(p.groups)}. Their nodes were not paired with each other; analyse one run at a time.`,
  },
  WORKER_COUNT_EXCEEDS: {
    title: (p) => `More workers (${s(p.workers)}) than the world size (${s(p.world)}) at the store barrier`,
    detail: (p) =>
      `The store-based barrier counted ${s(p.workers)} workers for a world of ${s(p.world)}${p.key ? ` (key ${s(p.key)})` : ''}: keys left in the store by an earlier run, or the job launched twice on the same store.`,
  },
  STORE_BARRIER_WAIT: {
    title: () => `Ranks waited at the store barrier of init_process_group`,
    detail: (p) =>
      `${s(p.waits)} wait(s) at the store-based barrier${p.seconds !== null ? `, the longest ${secs(p.seconds)}` : ''}, with ${s(p.joined)} of ${s(p.world)} workers joined${p.timeout ? `, against a timeout of ${s(p.timeout)}` : ''}. The job got through; a later rank would have to arrive within that timeout.`,
  },
};

const ZH: Record<FindingCode, Text> = {
  RUN_ID_MISMATCH: {
    title: () => `各节点使用了不同的 rendezvous id：它们永远无法会合`,
    detail: (p) =>
      `各 agent 加入的 rendezvous 分别是 ${s(p.ids)}。只有 --rdzv_id 相同的节点才会会合；每组都在等待其他节点直到超时。这不是启动时间差问题：多长的超时都不够。`,
  },
  LATE_NODE: {
    title: (p) =>
      p.commGap !== null && p.commGap !== undefined
        ? `${s(p.node)} 比 ${s(p.commFirst)} 晚 ${secsZh(p.commGap)} 到达通信域建链`
        : Number(p.count) > 1
          ? `${s(p.count)} 个节点启动晚了；最晚的是 ${s(p.node)}${p.lag !== null ? `，比 ${s(p.first)} 晚 ${secsZh(p.lag)}` : ''}`
          : p.lag !== null
            ? `${s(p.node)} 比 ${s(p.first)} 晚启动 ${secsZh(p.lag)}`
            : `${s(p.node)} 迟到`,
    detail: (p) =>
      (p.commGap !== null && p.commGap !== undefined
        ? `${s(p.node)} 的通信域建链比 ${s(p.commFirst)} 晚 ${secsZh(p.commGap)} 超时${p.lag !== null ? `，而它的 torchrun 只比第一个节点晚 ${secsZh(p.lag)} 启动` : ''}：它在启动之后、建链之前所做的事（加载数据或模型、缓慢的 import）让它迟到了。${Number(p.count) > 1 ? s(p.lateList) : ''}`
        : Number(p.count) > 1
          ? s(p.lateList)
          : p.lag !== null
            ? `${s(p.node)} 的 torchrun 比第一个节点（${s(p.first)}）晚 ${secsZh(p.lag)} 启动。`
            : `${s(p.node)} 在其他节点放弃之后才到达 rendezvous；它的日志没有时间戳，无法计算落后时间。`) +
      (p.clockOffset !== null
        ? `在所有节点同时离开的 rendezvous 时刻，它的时钟与其他节点相差 ${secsZh(p.clockOffset)}：它的落后时间包含这个偏差；请检查它的时钟（chrony/NTP）。`
        : '') +
      (p.victims ? `报错的节点（${s(p.victims)}）是在等待它：错误出现在等待的节点上，而不是迟到的节点上。` : ''),
  },
  HOST_NODE_LATE: {
    title: (p) => `迟到的是 store 主机 ${s(p.node)}`,
    detail: (p) =>
      `${s(p.node)} 承载 TCPStore（${s(p.role)}）${p.lag !== null ? `，比第一个节点晚 ${secsZh(p.lag)} 启动` : ''}。它启动晚时，其他节点不会在 rendezvous 中等待，而是在连接期限用完后连接失败 —— 触发的是 ${s(p.limitName)} = ${secsZh(p.limit)}（${srcZh(p)}）。store 主机自己之后的超时是后果。在所有节点上调大 ${s(p.limitName)}（所有节点使用相同的 --rdzv_conf），或先启动 store 主机。`,
  },
  SKEW_EXCEEDS_STORE_SYNC: {
    title: () => `触发的是 300 秒的 rank 分配等待，而不是 rendezvous 超时`,
    detail: (p) =>
      `${p.late ? `${s(p.late)} 比 ${s(p.first)} 晚${p.skew !== null ? ` ${secsZh(p.skew)}` : ''}加入` : p.missing ? `日志中的节点都没有迟到；没有日志的 ${s(p.missing)} 最可能是它们在等待的节点` : '不知道是哪个节点迟到'}；${s(p.waiters)} 在 rank 分配（store_util.synchronize）中等待，torch ${s(p.version)} 中该等待的上限是 300 秒 —— 触发的是这个超时，而不是 ${secsZh(p.rdzvLimit)}的 rendezvous 超时。任何 --rdzv_conf 参数都无法调大它：在 torch 2.3 及以前它是写死的，2.4 起已移除。`,
  },
  SKEW_EXCEEDS_RDZV_TIMEOUT: {
    title: (p) =>
      p.missing
        ? `rendezvous 期限（${s(p.key)} = ${secsZh(p.limit)}）在等待一个没有日志的节点时耗尽`
        : `rendezvous 期限（${s(p.key)} = ${secsZh(p.limit)}）短于启动时间差`,
    detail: (p) =>
      p.missing
        ? `${s(p.backend)} rendezvous 等待 ${s(p.key)} = ${secsZh(p.limit)}（${srcZh(p)}）。提供了日志的节点${p.skew !== null ? `启动时间相差在 ${secsZh(p.skew)} 以内，远小于该期限` : '都在期限内启动'}；${s(p.reporters)} 等待 ${s(p.missing)} 时放弃了，而它的日志缺失：它要么比其他节点晚了超过 ${secsZh(p.limit)}才启动，要么根本没有启动。只有前一种情况调大期限才有用 —— 它的日志（或它的作业步骤的日志）能说明是哪一种。`
        : `${s(p.backend)} rendezvous 等待 ${s(p.key)} = ${secsZh(p.limit)}（${srcZh(p)}）${p.skew !== null ? `，但各节点启动时间最多相差 ${secsZh(p.skew)}` : ''}；${s(p.reporters)} 在 ${p.late ? s(p.late) : '迟到的节点'} 到达之前就放弃了。` +
          (p.ignoredTimeout ? `注意：c10d 后端会忽略 timeout=${s(p.ignoredTimeout)}，它读取的是 join_timeout。` : ''),
  },
  SKEW_RISK: {
    title: (p) => `启动时间差 ${secsZh(p.skew)} 接近 ${secsZh(p.limit)} 的上限`,
    detail: (p) =>
      p.outcome === 'incomplete'
        ? `日志在结果出现之前就结束了；节点启动时间相差 ${secsZh(p.skew)}，而 ${s(p.limitName)} 为 ${secsZh(p.limit)}${p.survived ? '：已经超过，启动很可能在日志结束之后失败' : ''}。`
        : `作业成功了，但节点启动时间相差 ${secsZh(p.skew)}，而 ${s(p.limitName)} 为 ${secsZh(p.limit)}${p.survived ? ' —— 已经超过；只是因为该版本在此处不强制执行才得以幸存' : ''}。再晚一点的节点就会导致启动失败。`,
  },
  PRELAUNCH_WORK: {
    title: (p) => `${s(p.node)} 在启动 torchrun 之前花了 ${secsZh(p.seconds)}`,
    detail: (p) =>
      `${s(p.node)} 的日志比它的 torchrun 启动早 ${secsZh(p.seconds)}${p.activity ? `，期间在做：\`${s(p.activity)}\`` : ''}。torchrun 启动前的工作会推迟所有节点的 rendezvous。`,
  },
  NODE_LOG_MISSING: {
    title: (p) =>
      Number(p.count) > 1
        ? `缺少 ${s(p.count)} 个节点的日志：${s(p.missing)}${Number(p.count) > 64 ? '，…' : ''}`
        : `缺少 ${s(p.missing)} 的日志`,
    detail: (p) =>
      `作业有 ${s(p.expected)} 个节点${p.formed ? '（实际组成的 world）' : ''}，但只提供了 ${s(p.present)} 个节点的日志。` +
      (p.likely
        ? '日志中的节点都没有迟到：缺少日志的节点最可能是元凶。'
        : p.formed
          ? 'world 已正常组成；缺少的日志不影响结论。'
          : '未提供日志的节点可能就是元凶。'),
  },
  CLOCK_OFFSET: {
    title: (p) => `${s(p.node)} 的时钟偏差 ${secsZh(p.offset)}`,
    detail: (p) =>
      `所有 agent 几乎在同一时刻离开 rendezvous，但 ${s(p.node)} 记录的时间与其他节点相差 ${secsZh(p.offset)}（±${s(p.bound)} 秒）。它的时间整体偏移了这么多${p.applied ? '，已校正' : '；除非校正（--correct-clocks），它的落后时间包含该偏差'}。`,
  },
  TZ_MISMATCH: {
    title: (p) => `${s(p.node)} 使用了另一个时区（${s(p.hours)} 小时）`,
    detail: (p) =>
      `在 rendezvous 时刻，${s(p.node)} 的时间与其他节点相差 ${s(p.hours)} 小时：这是时区差异，不是启动时间差。计算落后时间前已校正。`,
  },
  PG_INIT_TIMEOUT: {
    title: (p) => `init_process_group 超时（${secsZh(p.limit)}）`,
    detail: (p) =>
      `${s(p.reporters)} 的 worker 在 init_process_group 中等待了 ${secsZh(p.limit)}（${srcZh(p)}），等待${s(p.late) !== '?' ? ` ${s(p.late)} 的 worker` : '其他节点'}，而它们到达得太晚。rendezvous 本身已经完成：延迟发生在训练脚本调用 init_process_group 之前。`,
  },
  COMM_INIT_TIMEOUT: {
    title: (p) => `通信域（${s(p.lib)}）建立超时`,
    detail: (p) =>
      `在 ${s(p.reporters)} 上建立 ${s(p.lib)} 通信域时${p.limit !== null ? `，等待 ${secsZh(p.limit)}（${srcZh(p)}）后` : ''}超时：${p.late ? `${s(p.late)} 到达太晚或无法连接` : '有对端节点到达太晚或无法连接'}。`,
  },
  NOT_A_STARTUP_PROBLEM: {
    title: () => `训练过程中集合通信超时 —— 不是启动问题`,
    detail: (p) =>
      `watchdog 捕获到一个运行超过 ${secsZh(p.limit)} 的集合通信（SeqNum ${s(p.seq)}）。已经完成了这么多次集合通信，说明作业已经启动；这是训练中的卡住或慢 rank，调整 rendezvous 参数没有帮助。`,
  },
  EXIT_BARRIER_TIMEOUT: {
    title: () => `agent 在退出屏障互相等待了 300 秒`,
    detail: (p) =>
      `${s(p.reporters)} 已结束，并在 300 秒的退出屏障中等待未能按时结束的节点。某个节点结束得晚得多，或在结尾卡住。`,
  },
  STORE_UNREACHABLE: {
    title: (p) => `无法连接位于 ${s(p.endpoint)} 的 store`,
    detail: (p) =>
      `${s(p.reporters)}${p.limit !== null ? `在 ${secsZh(p.limit)}（${srcZh(p)}）内` : ''}无法连接 ${s(p.endpoint)} 上的 rendezvous store。要么它的主机启动晚了${p.missing ? `（它的日志不在所提供的日志中：${s(p.missing)}）` : '（没有日志表明它已启动）'}，要么地址错误或被阻断。`,
  },
  WORKER_CRASH: {
    title: (p) => `${s(p.nodes)} 上的一个 worker 因自身错误退出${p.error ? `：\`${s(p.error)}\`` : ''}`,
    detail: (p) =>
      `${s(p.nodes)} 的 worker 是因为自身的错误而停止的，不是超时${p.waiters ? `；随后 ${s(p.waiters)} 一直等待它的 rank${p.waitStage ? `（${s(p.waitStage)}）` : ''}${p.limit !== null ? `，直到 ${secsZh(p.limit)}的期限（${srcZh(p)}）耗尽` : '，直到期限耗尽'}` : ''}。这些超时只是后果，并没有节点迟到：调大期限或让节点同时启动都无济于事。请修复 ${s(p.nodes)} 上 worker 的这个错误（第一条证据行）。`,
  },
  RESTART_STORE_REUSED: {
    title: () => `每次重启都在 init_process_group 中失败：worker 复用了 agent 的 store`,
    detail: (p) =>
      `${p.cause ? `最先的失败是 ${s(p.cause)} 的 worker${p.firstStage ? `（${s(p.firstStage)}）` : ''}；` : ''}${s(p.nodes)} 随后重启（共 ${s(p.attempts)} 次尝试），之后的每次尝试都立即在 init_process_group 中因连接错误失败，而不是超时。${p.shown ? 'agent 打印了 `use_agent_store: True`：' : `在 torch ${s(p.version)}（2.5 及以后）中，`}worker 在各次尝试之间复用 agent 的 rendezvous TCPStore，重启后的 worker 读到了上一次尝试留下的内容，所以没有一次重启能成功。请修复最先的失败；为了让重启能够恢复，请在每个节点上设置 TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1。`,
  },
  ROUND_STORE_REUSED: {
    title: (p) =>
      `${p.joined ? `${s(p.joined)} 加入了正在运行的作业` : '有节点加入了正在运行的作业'}；新一轮从未完成 rank 分配`,
    detail: (p) =>
      `${s(p.nodes)} 检测到新节点后在新一轮 rendezvous 中重新汇合，但这一轮的 rank 分配从未完成${p.limit !== null ? `：agent 为永远不会出现的键等待了 ${secsZh(p.limit)}（${srcZh(p)}）` : ''}。${p.shown ? 'agent 打印了 `use_agent_store: True`：' : `在 torch ${s(p.version)}（2.5 及以后）中，`}它们沿用第一轮的 rendezvous TCPStore，而 rank 0 不会为新一轮重新发布它。没有节点迟到，调大期限也无济于事。请在每个节点上设置 TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1，让每一轮建立自己的 store；或者在 world 形成之前启动所有节点（min_nodes = max_nodes）。`,
  },
  UNCLASSIFIED_FAILURE: {
    title: (p) => `在启动阶段之外失败：\`${s(p.error)}\``,
    detail: (p) =>
      `${s(p.reporters)} 因 \`${s(p.error)}\` 失败。这不是节点之间的超时；证据行显示了出错的位置。` +
      (p.lowConfidence ? '日志在 traceback 中间就结束了：文本中没有异常本身，这是根据调用栈判断的（置信度低）。' : ''),
  },
  NO_TIMESTAMPS: {
    title: () => `这些日志没有可用的时间戳`,
    detail: (p) =>
      p.partial
        ? `这里的 torchrun 日志行没有时间（虽然其他一些行有）；无法据此测量启动时间和时间差。结论和失败阶段仍然来自文本。`
        : `这里的 torchrun 日志行没有时间（torch ≤ 2.0 默认设置，或 Slurm/纯文本采集），因此无法测量启动时间和时间差；结论和失败阶段仍然来自文本。`,
  },
  RESTARTS: {
    title: (p) => `${s(p.nodes)} 重启过：共 ${s(p.attempts)} 次尝试`,
    detail: (p) =>
      `agent 重启了 worker 组 ${s(p.restarts)} 次${p.stages ? `，起因是 ${s(p.stages)} 阶段的失败` : ''}${p.left !== null ? `；最后一次重启时还剩 ${s(p.left)}/${s(p.max)} 次` : ''}。${p.lastFormed ? '最后一次尝试组成了 world。' : '最后一次尝试没有组成 world。'}每次尝试都在自己的 rendezvous 轮次中会合：启动时间差按每次尝试分别计算${p.lastSkew !== null ? `（最后一次尝试中各节点的启动相差在 ${secsZh(p.lastSkew)}以内${p.worstSkew !== null && p.worstSkew !== p.lastSkew ? `；相差最大的是第 ${s(p.worstAttempt)} 次尝试，${secsZh(p.worstSkew)}` : ''}）` : ''}。`,
  },
  MIXED_JOBS: {
    title: (p) => `这些日志来自 ${s(p.runs)} 次不同的运行`,
    detail: (p) =>
      `这些文件中的 ${p.by === 'run-id' ? 'rdzv_id' : 'rdzv_endpoint'} 不同：${s(p.groups)}。它们的节点没有被互相配对；请每次分析一次运行。`,
  },
  WORKER_COUNT_EXCEEDS: {
    title: (p) => `store barrier 中的 worker 数（${s(p.workers)}）多于 world_size（${s(p.world)}）`,
    detail: (p) =>
      `store-based barrier 为大小为 ${s(p.world)} 的 world 统计到 ${s(p.workers)} 个 worker${p.key ? `（键 ${s(p.key)}）` : ''}：store 中残留了之前运行的键，或者作业在同一个 store 上启动了两次。`,
  },
  STORE_BARRIER_WAIT: {
    title: () => `各 rank 在 init_process_group 的 store barrier 中等待过`,
    detail: (p) =>
      `在 store-based barrier 中等待了 ${s(p.waits)} 次${p.seconds !== null ? `，最长 ${secsZh(p.seconds)}` : ''}，已加入 ${s(p.joined)}/${s(p.world)} 个 worker${p.timeout ? `，超时为 ${s(p.timeout)}` : ''}。作业顺利通过；更晚的 rank 必须在该超时内到达。`,
  },
};

interface AdviceText {
  title: (v: P) => string;
  reason: (v: P) => string;
  caveat?: (v: P) => string;
}

const ADVICE_EN: Record<AdviceId, AdviceText> = {
  'same-rdzv-id': {
    title: (v) =>
      v.id
        ? `Give every node the same --rdzv_id (${s(v.id)}, the one most nodes used)`
        : 'Give every node the same --rdzv_id',
    reason: () =>
      'Put it in the torchrun command of every node. Use one value known to all nodes before they start (the Slurm job id, the Kubernetes job name), not one generated per node.',
  },
  'rdzv-conf': {
    title: (v) => `Raise the rendezvous limit to ${s(v.value)}`,
    reason: (v) =>
      v.backend === 'c10d'
        ? `The c10d backend waits join_timeout (not timeout) for all nodes, and clients wait read_timeout for the store host. ${s(v.seconds)} s covers the observed skew with margin.`
        : `The ${s(v.backend)} backend waits timeout for all nodes (and clients wait as long to reach the store host). ${s(v.seconds)} s covers the observed skew with margin.`,
    caveat: (v) =>
      v.form === 'env'
        ? 'Run it on every node before torchrun (or put it in the job script): torchrun reads PET_RDZV_CONF when its command has no --rdzv_conf. Every key goes in this one value, the same on every node.'
        : 'Put it in place of the --rdzv_conf in the torchrun command of every node, with every key in that one flag: a second --rdzv_conf replaces the first. The same value on every node.',
  },
  'upgrade-torch': {
    title: () => 'Upgrade to torch 2.4 or newer',
    reason: (v) =>
      `${
        v.install === 'distro'
          ? 'This torch is the distribution’s python3-torch (/usr/lib/python3/dist-packages), which `pip` cannot upgrade: install torch ≥ 2.4 in a virtual environment (`python3 -m venv`), or use a release that ships it (Debian 13 has 2.6). '
          : v.install === 'pip'
            ? ''
            : 'Upgrade it the way it was installed (`pip`, `conda` or the distribution’s package). '
      }From 2.4 the rank assignment no longer runs the 300 s synchronize; it then waits as long as the rendezvous timeout (--rdzv_conf timeout=${s(v.seconds)}).`,
  },
  'patch-synchronize': {
    title: (v) => `Temporary: raise synchronize's 300 s default to ${s(v.seconds)} in the installed torch`,
    reason: () => `On torch ≤ 2.3 the only way to wait longer than 300 s in rank assignment without upgrading.`,
    caveat: () =>
      'Not for production: it edits site-packages on every node, is lost on reinstall, is invisible to anyone reading the job, and in 1.13 the raised value stays as the agent store timeout for later operations, so real failures are detected later.',
  },
  'stage-data': {
    title: () => 'Start torchrun first; download and unpack after init_process_group, or stage data before the job',
    reason: () =>
      'Work a node does before its torchrun starts makes every other node wait in the rendezvous. Inside the training script after init_process_group it costs nothing at startup (or do it in an init container / prolog before all nodes start).',
  },
  'start-host-first': {
    title: () => 'Start the store host first',
    reason: () =>
      'node_rank 0 (static) or the rendezvous endpoint host (c10d) runs the store every other node connects to; schedule it first (Kubernetes: the master pod; Slurm: the first task), or give clients a longer connect deadline.',
  },
  'pg-timeout': {
    title: (v) => `Give init_process_group a longer timeout (${s(v.seconds)} s), or move the slow work after it`,
    reason: (v) =>
      `Workers wait in init_process_group for every rank; per-rank work before it (data loading, downloads, compilation) delays all ranks. The line goes in the training script, which needs \`import datetime\`${v.backend ? '' : '; before torch 2.0, name the backend as its first argument'}.`,
  },
  'hccl-timeouts': {
    title: (v) => `Raise HCCL_CONNECT_TIMEOUT to ${s(v.seconds)}`,
    reason: () =>
      'HCCL waits HCCL_CONNECT_TIMEOUT (default 120 s, max 7200) for links between NPUs; set it to the same value on all nodes before torchrun starts (HCCL_EXEC_TIMEOUT likewise if execution waits).',
  },
  'nccl-debug': {
    title: () => 'Debug the hang, not the startup',
    reason: () =>
      'Run with NCCL_DEBUG=INFO and TORCH_NCCL_DUMP_ON_TIMEOUT=1 (flight recorder) to see which rank stopped issuing collectives.',
  },
  'better-logs': {
    title: (v) => `Capture times next time: ${s(v.env)}, and a timestamp on every line`,
    reason: () =>
      "Run it on every node before torchrun: with LOGLEVEL=INFO the rendezvous milestones are printed. A timestamp on every line lets skew be measured: read pods with `kubectl logs --timestamps`, or pipe the output through `ts '[%Y-%m-%d %H:%M:%.S]'` (from `moreutils`); torch ≥ 2.1 formats carry one already.",
  },
  'clock-sync': {
    title: () => 'Synchronise the nodes’ clocks (chrony/NTP) or log in UTC',
    reason: () => 'Clock offsets between nodes distort the measured skew.',
  },
  'collect-logs': {
    title: () => 'Add the missing nodes’ logs',
    reason: () =>
      'The late node is often the one whose log is missing; with every node the diagnosis can name it and its lag.',
  },
  'no-shared-store': {
    title: () => 'Give each attempt and round its own store: TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1',
    reason: () =>
      'Set it in the environment of every node before torchrun starts. Each attempt and each rendezvous round then builds a fresh store for its workers, so a restart or a new round does not read what the previous one left.',
  },
  'check-endpoint': {
    title: (v) => `Check that ${s(v.endpoint)} resolves and is reachable from every node`,
    reason: () => 'A wrong or unresolvable master address fails the same way as a late store host.',
  },
};

const ADVICE_ZH: Record<AdviceId, AdviceText> = {
  'same-rdzv-id': {
    title: (v) => (v.id ? `给所有节点相同的 --rdzv_id（${s(v.id)}，多数节点使用的值）` : '给所有节点相同的 --rdzv_id'),
    reason: () =>
      '写进每个节点的 torchrun 命令。使用所有节点启动前都知道的同一个值（Slurm 作业 id、Kubernetes 作业名），而不是每个节点各自生成的值。',
  },
  'rdzv-conf': {
    title: (v) => `把 rendezvous 期限调大为 ${s(v.value)}`,
    reason: (v) =>
      v.backend === 'c10d'
        ? `c10d 后端等待所有节点的时间由 join_timeout（而不是 timeout）决定，客户端等待 store 主机的时间由 read_timeout 决定。${s(v.seconds)} 秒可以覆盖观测到的启动时间差并留有余量。`
        : `${s(v.backend)} 后端等待所有节点的时间由 timeout 决定（客户端连接 store 主机也等待同样长）。${s(v.seconds)} 秒可以覆盖观测到的启动时间差并留有余量。`,
    caveat: (v) =>
      v.form === 'env'
        ? '在每个节点上、torchrun 启动前执行（或写进作业脚本）：torchrun 的命令中没有 --rdzv_conf 时会读取 PET_RDZV_CONF。所有参数都放在这一个值里，所有节点相同。'
        : '用它替换每个节点 torchrun 命令中的 --rdzv_conf，所有参数写在这一个参数里：第二个 --rdzv_conf 会覆盖第一个。所有节点使用相同的值。',
  },
  'upgrade-torch': {
    title: () => '升级到 torch 2.4 或更新版本',
    reason: (v) =>
      `${
        v.install === 'distro'
          ? '这里的 torch 是发行版的 python3-torch（/usr/lib/python3/dist-packages），无法用 `pip` 升级：请在虚拟环境（`python3 -m venv`）中安装 torch ≥ 2.4，或使用自带该版本的发行版（Debian 13 带 2.6）。'
          : v.install === 'pip'
            ? ''
            : '按原来的安装方式升级（`pip`、`conda` 或发行版软件包）。'
      }从 2.4 起，rank 分配不再执行 300 秒的 synchronize；之后它的等待时间等于 rendezvous 的 timeout（--rdzv_conf timeout=${s(v.seconds)}）。`,
  },
  'patch-synchronize': {
    title: (v) => `临时办法：把已安装 torch 中 synchronize 的 300 秒默认值改为 ${s(v.seconds)}`,
    reason: () => `在 torch ≤ 2.3 上，不升级的情况下让 rank 分配等待超过 300 秒的唯一办法。`,
    caveat: () =>
      '不适用于生产环境：需要修改每个节点的 site-packages，重装后丢失，阅读作业配置的人也看不到；而且在 1.13 中调大的值会一直作为 agent store 的超时，真正的故障会更晚被发现。',
  },
  'stage-data': {
    title: () => '先启动 torchrun；在 init_process_group 之后下载和解压数据，或在作业开始前准备好数据',
    reason: () =>
      '节点在 torchrun 启动之前做的工作会让其他所有节点在 rendezvous 中等待。放到训练脚本的 init_process_group 之后就不影响启动（或在所有节点启动前用 init container / prolog 完成）。',
  },
  'start-host-first': {
    title: () => '先启动 store 主机',
    reason: () =>
      'node_rank 0（static）或 rendezvous endpoint 所在主机（c10d）运行着其他节点要连接的 store；让它最先启动（Kubernetes：master pod；Slurm：第一个 task），或给客户端更长的连接期限。',
  },
  'pg-timeout': {
    title: (v) => `给 init_process_group 更长的超时（${s(v.seconds)} 秒），或把耗时工作移到它之后`,
    reason: (v) =>
      `worker 在 init_process_group 中等待所有 rank；在它之前的逐 rank 工作（数据加载、下载、编译）会拖慢所有 rank。这一行写在训练脚本中，需要 \`import datetime\`${v.backend ? '' : '；torch 2.0 之前还要把后端名作为第一个参数'}。`,
  },
  'hccl-timeouts': {
    title: (v) => `把 HCCL_CONNECT_TIMEOUT 调大到 ${s(v.seconds)}`,
    reason: () =>
      'HCCL 建链等待 HCCL_CONNECT_TIMEOUT（默认 120 秒，最大 7200）；在 torchrun 启动前在所有节点设置相同的值（如果执行阶段也在等待，HCCL_EXEC_TIMEOUT 同理）。',
  },
  'nccl-debug': {
    title: () => '排查训练卡住，而不是启动',
    reason: () =>
      '使用 NCCL_DEBUG=INFO 和 TORCH_NCCL_DUMP_ON_TIMEOUT=1（flight recorder）运行，查看哪个 rank 停止了集合通信。',
  },
  'better-logs': {
    title: (v) => `下次采集时间信息：${s(v.env)}，并给每行加时间戳`,
    reason: () =>
      "在每个节点上、torchrun 启动前执行：设置 LOGLEVEL=INFO 会打印 rendezvous 各阶段。每行带时间戳才能测量启动时间差：用 `kubectl logs --timestamps` 读取 pod 日志，或把输出通过 `ts '[%Y-%m-%d %H:%M:%.S]'`（`moreutils` 软件包）管道；torch ≥ 2.1 的日志格式已自带时间戳。",
  },
  'clock-sync': {
    title: () => '同步各节点时钟（chrony/NTP）或统一使用 UTC 记录日志',
    reason: () => '节点间的时钟偏差会扭曲测得的启动时间差。',
  },
  'collect-logs': {
    title: () => '补充缺失节点的日志',
    reason: () => '迟到的节点往往就是缺少日志的那个；提供所有节点后才能指出它以及它落后多少。',
  },
  'no-shared-store': {
    title: () => '让每次尝试和每一轮使用自己的 store：TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1',
    reason: () =>
      '在 torchrun 启动前，在每个节点的环境中设置它。这样每次尝试、每一轮 rendezvous 都会为 worker 建立新的 store，重启或新一轮不会读到上一次留下的内容。',
  },
  'check-endpoint': {
    title: (v) => `检查 ${s(v.endpoint)} 能否在每个节点上解析并连通`,
    reason: () => '错误或无法解析的 master 地址与 store 主机迟到的表现相同。',
  },
};

/**
 * A finding's title and detail in `lang`. `late` is LATE_NODE's list of the latest late nodes with their lags
 * (Finding.late), worded by the i18n layer; without it (a share link whose list could not be read) the list
 * `numbers.worst` holds is shown as the text it is.
 */
export function findingText(
  lang: Lang,
  code: FindingCode,
  p: P,
  late: readonly NodeLagged[] = [],
): { title: string; detail: string } {
  const words = (lang === 'zh' ? ZH : EN)[code];
  // A copy: in English labelValues gives back the finding's own numbers.
  const v: P = { ...labelValues(lang, p) };
  if (lang !== 'en')
    for (const k of LIST_NUMBERS)
      if (typeof v[k] === 'string') v[k] = (v[k] as string).split(', ').join(t(lang, 'list.sep'));
  if (code === 'LATE_NODE') v.lateList = lateList(lang, p, late);
  return { title: zhSpacing(lang, words.title(v)), detail: zhSpacing(lang, words.detail(v)) };
}

/** `10 nodes launched late; by lag: node10 (267 s), …, node4 (97 s) and 2 more.` — or in Chinese. */
function lateList(lang: Lang, p: P, late: readonly NodeLagged[]): string {
  const count = Number(p.count);
  const named = late.length
    ? late.map((n) =>
        n.lagSeconds === null
          ? t(lang, 'late.entryNoTime', { node: n.node })
          : t(lang, 'late.entry', { node: n.node, lag: (lang === 'zh' ? secsZh : secs)(n.lagSeconds) }),
      )
    : p.worst !== null && p.worst !== undefined
      ? String(p.worst).split(', ')
      : [];
  const list = named.join(t(lang, 'list.sep'));
  const more = Number.isFinite(count) ? count - named.length : 0;
  return more > 0
    ? t(lang, 'late.listMore', { count: s(p.count), list, more: String(more) })
    : t(lang, 'late.list', { count: s(p.count), list });
}

export function adviceText(lang: Lang, id: AdviceId, v: P): { title: string; reason: string; caveat: string | null } {
  const words = (lang === 'zh' ? ADVICE_ZH : ADVICE_EN)[id];
  return { title: words.title(v), reason: words.reason(v), caveat: words.caveat ? words.caveat(v) : null };
}

/** Every code, for the docs page and its test. */
export const FINDING_CODES = Object.keys(EN) as FindingCode[];
