import { effectsOf } from '../../catalogue';
import type { ClockOffset, FailureStage, JobFacts, LogEvent, Reason } from '../../model';
import { endpointHost, hostFromNodeId } from '../../identity';
import { lastRound } from '../attempts';
import { parseIntList } from '../facts';
import { loopbackEndpoint, sameHost } from './address';
import { isConnectFailure, type StageChoice } from './stage';
import { CONNECT_STAGES, type NodeView } from './view';

// Who caused it, from the evidence in order: the store host when clients could not reach it; the node a
// waited-for store key belongs to; launch times on consistent clocks; and only then the text's "arrived after
// the others gave up". A node without a log is missing, never late; it is named as the likely culprit only
// when no node present was late.

/** Lags under this are ordinary start-up jitter, not a late node. */
export const LATE_MIN_S = 10;

export interface Culprits {
  late: Set<string>;
  reasons: Reason[];
  /** No node present was late and some are missing: the missing one is the likely culprit. */
  missingLikely: boolean;
  /** Missing nodes the text names as the ones that never came (a joined count that only they account for). */
  absent: string[];
}

/** `/default_pg/0//cpu//0/4` → rank 4; `…/torchelastic/role_info/2` → group rank 2. */
function waitedRanks(keys: string): { key: string; rank: number; group: boolean }[] {
  const out: { key: string; rank: number; group: boolean }[] = [];
  for (const key of keys.split(/,\s{0,4}/).slice(0, 4096)) {
    const role = /torchelastic\/role_info\/(\d{1,7})$/.exec(key);
    if (role) out.push({ key, rank: Number(role[1]), group: true });
    const pg = /\/default_pg\/.*\/(\d{1,7})$/.exec(key);
    if (pg) out.push({ key, rank: Number(pg[1]), group: false });
  }
  return out;
}

/** The node whose group rank holds global rank `rank` when each node runs `nproc` workers, if only one does. */
function byGroupRank(views: NodeView[], rank: number, nproc: number | null): NodeView | undefined {
  if (!nproc || nproc < 1) return undefined;
  const group = Math.floor(rank / nproc);
  const owners = views.filter((w) => w.node.groupRank === group && w.node.globalRanks.length === 0);
  return owners.length === 1 ? owners[0] : undefined;
}

/** The node's last round shows it entered the rendezvous and never got past it. */
function stuckInRendezvous(v: NodeView): boolean {
  const round = lastRound(v.events);
  return round.some((e) => e.kind === 'rendezvous-begin') && !round.some((e) => e.kind === 'rendezvous-complete');
}

export interface CulpritInput {
  views: NodeView[];
  own: Map<string, LogEvent>;
  stage: FailureStage;
  choice: StageChoice;
  host: NodeView | null;
  facts: JobFacts;
  offsets: ClockOffset[];
  missing: string[];
  missingNames: (string | null)[];
  /** Nodes whose worker crashed in the first attempt, when the agents restarted after it. */
  restartCause: { nodes: string[]; stage: FailureStage } | null;
  /** The limit the failing nodes waited, when the logs state it (or it is inferred): null when only assumed. */
  statedLimitSeconds: number | null;
  /** The limit assumed from the defaults when none is stated. */
  assumedLimitSeconds: number | null;
}

/** A lag this far below the limit that fired could not have made the others give up. */
const BELOW_LIMIT = 0.8;

/**
 * The owner of a waited-for key was there after all: it was waiting in the same stage itself, or (agent keys)
 * it had reached the store in the round the key belongs to.
 */
function wasThere(owner: NodeView, ownFailure: LogEvent | undefined, stage: FailureStage | undefined): boolean {
  if (ownFailure && ownFailure.stage === stage && !isConnectFailure(ownFailure)) return true;
  return stage === 'rank-assignment' && lastRound(owner.events).some((e) => effectsOf(e.id).store !== undefined);
}

/**
 * When no log says which node holds the waited-for rank: the waiter's own ranks rule it out (its prefixes show
 * other ranks, and a rank does not wait for its own id), and a node that was waiting in the same stage itself
 * was there. If exactly one node is left, the rank can only be on it; with two or more, nothing is named.
 */
function onlyPossibleOwner(
  views: NodeView[],
  waiter: NodeView,
  rank: number,
  own: Map<string, LogEvent>,
  stage: FailureStage,
): NodeView | null {
  if (waiter.node.globalRanks.length === 0 || waiter.node.globalRanks.includes(rank)) return null;
  const left = views.filter(
    (w) =>
      w !== waiter &&
      (w.node.globalRanks.length === 0 || w.node.globalRanks.includes(rank)) &&
      (w.node.groupRank === null || rank !== 0 || w.node.groupRank === 0) &&
      own.get(w.node.id)?.stage !== stage,
  );
  return left.length === 1 ? left[0]! : null;
}

/** `9 (local_rank: 1)`, as the agent reports one of its workers. */
const WORKER_RANK = /^(\d{1,9}) \(local_rank: (\d{1,6})\)/;

/**
 * The node's first global rank, from a worker its agent reports (`rank : 9 (local_rank: 1)`): torchrun gives each
 * node one block of global ranks, so a worker's global rank less its local rank is where the block starts —
 * the node of global rank 0 is known even when no rendezvous line lists its ranks (torch 1.x at default level).
 */
function firstGlobalRank(v: NodeView): number | null {
  for (const e of v.events) {
    const field = effectsOf(e.id).workerRankField;
    const m = field === undefined ? null : WORKER_RANK.exec(e.fields[field]?.trim() ?? '');
    if (m) return Number(m[1]) - Number(m[2]);
  }
  return null;
}

/** The store host's name as a client tried it and never resolved (gai errors in the client's last round). */
function unresolvedName(views: NodeView[], host: NodeView): string | null {
  for (const v of views) {
    if (v === host) continue;
    const e = lastRound(v.events).find((y) => effectsOf(y.id).nameUnresolved && y.fields.host);
    if (e) return e.fields.host!;
  }
  return null;
}

/**
 * Nodes whose ranks first entered `stage` after the earliest waiter failed in it, with the waiters and how
 * long after the first node's ranks they entered it (s); null when no such node or the times are not known.
 */
function enteredAfterGiveUp(
  views: NodeView[],
  own: Map<string, LogEvent>,
  stage: FailureStage,
): { nodes: string[]; waiters: string[]; lag: number } | null {
  const waiters: string[] = [];
  let gaveUp = Infinity;
  for (const v of views) {
    const e = own.get(v.node.id);
    const t = e && e.stage === stage && e.role === 'primary' ? v.timeOf(e) : null;
    if (t === null) continue;
    waiters.push(v.node.id);
    gaveUp = Math.min(gaveUp, t);
  }
  if (!waiters.length) return null;
  const entered = new Map<string, number>();
  for (const v of views) {
    const e = lastRound(v.events).find((y) => effectsOf(y.id).entersStage === stage && v.timeOf(y) !== null);
    if (e) entered.set(v.node.id, v.timeOf(e)!);
  }
  const nodes = [...entered].filter(([id, t]) => t > gaveUp && !waiters.includes(id)).map(([id]) => id);
  if (!nodes.length) return null;
  let first = Infinity;
  let last = -Infinity;
  for (const [id, t] of entered) {
    first = Math.min(first, t);
    if (nodes.includes(id)) last = Math.max(last, t);
  }
  return { nodes, waiters, lag: Math.round((last - first) / 1000) };
}

/** Nodes a scheduler line says went down: those with a log here, and the names of those without. */
function downNodes(views: NodeView[]): { names: string[]; present: string[]; absent: string[] } {
  const names = new Set<string>();
  for (const v of views)
    for (const e of v.events) {
      const field = effectsOf(e.id).nodeDown;
      // A host, or c10d node ids (`'trn-b_5120_0'`, a list of them): each names its host.
      for (const part of (field ? (e.fields[field] ?? '') : '').split(/[\s,]+/).slice(0, 64)) {
        const id = part.replace(/^['"[]+|['"\]]+$/g, '');
        if (id) names.add(hostFromNodeId(id));
      }
    }
  const present: string[] = [];
  const absent: string[] = [];
  for (const name of names) {
    const v = views.find((w) => w.node.id === name || (w.node.hostname !== null && sameHost(w.node.hostname, name)));
    if (v) present.push(v.node.id);
    else absent.push(name);
  }
  return { names: [...names], present, absent };
}

export function findCulprits(x: CulpritInput): Culprits {
  const reasons: Reason[] = [];
  const late = new Set<string>();
  const { views, own, stage, choice, host } = x;

  // 0. A node whose own GPU, driver or network port failed is the cause, whatever the others then waited for —
  // its own failure, or a fault it reported on the way there (an IB port going down before its collective stalled).
  const faulty = views
    .filter((v) => v.events.some((e) => effectsOf(e.id).localFault) && own.has(v.node.id))
    .filter((v) => {
      const f = own.get(v.node.id)!;
      return (
        effectsOf(f.id).localFault ||
        lastRound(v.events).some((e) => effectsOf(e.id).localFault && e.line <= f.line && e.file === f.file)
      );
    })
    .map((v) => v.node.id);
  if (faulty.length) {
    for (const id of faulty) late.add(id);
    reasons.push({ code: 'local-fault', values: { nodes: faulty } });
    return { late, reasons, missingLikely: false, absent: [] };
  }

  // 0b. A node the scheduler saw go down is the cause of what the others then timed out on.
  const down = downNodes(views);
  if (down.names.length) {
    for (const id of down.present) late.add(id);
    reasons.push({ code: 'node-down', values: { nodes: down.names } });
    return { late, reasons, missingLikely: false, absent: down.absent };
  }

  // 1a. A loopback endpoint in a job of several nodes: each reaches only itself there, so nobody was late.
  const loopback = x.facts.rdzvEndpoint ? loopbackEndpoint(endpointHost(x.facts.rdzvEndpoint), views) : null;
  if (loopback && CONNECT_STAGES.includes(stage)) {
    reasons.push({ code: 'loopback-endpoint', values: { host: loopback } });
    return { late, reasons, missingLikely: false, absent: [] };
  }

  // 1b. Two nodes launched with one static node rank: the rank nobody took is what the others waited for.
  const twice = duplicateRank(views, x);
  if (twice) {
    for (const id of twice.nodes) late.add(id);
    reasons.push({ code: 'duplicate-node-rank', values: twice });
    return { late, reasons, missingLikely: false, absent: [] };
  }

  // 1. The store host, when the clients failed to reach it and nobody did in time — unless the clients never
  // resolved the name they tried: then no connection was made, and nothing in their failure says the host was
  // late (launch times still may, below).
  const unresolved = CONNECT_STAGES.includes(stage) && host ? unresolvedName(views, host) : null;
  if (unresolved) reasons.push({ code: 'name-unresolved', values: { host: unresolved } });
  else if (!choice.hostWasUp && CONNECT_STAGES.includes(stage)) {
    if (host && !own.has(host.node.id)) {
      late.add(host.node.id);
      reasons.push({ code: 'host-silent', values: { host: host.node.id } });
    } else if (host && own.get(host.node.id)?.stage !== stage) {
      late.add(host.node.id);
      reasons.push({
        code: 'host-late-consequence',
        values: { host: host.node.id, hostStage: own.get(host.node.id)!.stage! },
      });
    } else if (!host && x.missing.length) {
      const named = x.facts.rdzvEndpoint ? endpointHost(x.facts.rdzvEndpoint) : null;
      reasons.push({ code: 'host-absent', values: { host: named, missing: x.missing } });
      return { late, reasons, missingLikely: true, absent: [] };
    }
    if (host && late.has(host.node.id) && host.node.lagSeconds !== null && host.node.lagSeconds >= LATE_MIN_S)
      reasons.push({ code: 'host-late-by-launch', values: { host: host.node.id, lag: host.node.lagSeconds } });
  }

  // 1b. A node that never started torchrun is who the others waited for, whatever stage they gave up in.
  if (late.size === 0) {
    const fx = (v: NodeView) => effectsOf(own.get(v.node.id)?.id ?? '');
    const never = views.filter((v) => fx(v).neverLaunched || fx(v).cannotJoin);
    const ids = never.map((v) => v.node.id);
    const waiters = [...own.keys()].filter((id) => !ids.includes(id));
    if (never.length && waiters.length) {
      for (const id of ids) late.add(id);
      const code = never.every((v) => fx(v).neverLaunched) ? 'never-launched' : 'failed-before-joining';
      reasons.push({ code, values: { nodes: ids, waiters } });
    }
  }

  // 2. A waited-for store key names the rank (and so the node) that never wrote it.
  const named = new Set<string>();
  for (const v of views)
    for (const e of v.events) {
      if (!e.fields.keys || effectsOf(e.id).refine !== 'keys') continue;
      for (const r of waitedRanks(e.fields.keys)) {
        const owner = views.find((w) => (r.group ? w.node.groupRank === r.rank : w.node.globalRanks.includes(r.rank)));
        if (!owner || owner === v || named.has(owner.node.id) || wasThere(owner, own.get(owner.node.id), e.stage))
          continue;
        named.add(owner.node.id);
        late.add(owner.node.id);
        reasons.push({
          code: 'store-key-names-node',
          values: { waiter: v.node.id, key: r.key, rank: r.rank, group: r.group ? 1 : 0, node: owner.node.id },
        });
      }
    }

  // 2b. A message that names the rank it waited for (ncclUniqueId comes from global rank 0).
  for (const v of views)
    for (const e of v.events) {
      const rank = effectsOf(e.id).waitsForGlobalRank;
      if (rank === undefined || e.stage !== stage) continue;
      const known =
        views.find((w) => w.node.globalRanks.includes(rank)) ??
        views.find((w) => w.node.groupRank === 0) ??
        (rank === 0 ? views.find((w) => firstGlobalRank(w) === 0) : undefined);
      const owner = known ?? onlyPossibleOwner(views, v, rank, own, stage);
      if (!owner || owner === v || named.has(owner.node.id)) continue;
      named.add(owner.node.id);
      late.add(owner.node.id);
      const inferred = known ? 0 : 1;
      reasons.push({ code: 'waits-for-rank', values: { waiter: v.node.id, rank, node: owner.node.id, inferred } });
    }

  // 2b'. A communicator root that lists the ranks that never connected: the node holding them. Without a rank
  // list of its own, a node's ranks follow from its group rank when every node runs the same number of
  // workers (a static launch: group rank × nproc_per_node …) — an inference, and said so.
  for (const v of views)
    for (const e of v.events) {
      const field = effectsOf(e.id).absentRanksField;
      if (!field || e.stage !== stage) continue;
      for (const rank of parseIntList(e.fields[field])) {
        const known = views.find((w) => w.node.globalRanks.includes(rank));
        const owner = known ?? byGroupRank(views, rank, x.facts.nprocPerNode);
        if (!owner || owner === v || named.has(owner.node.id)) continue;
        named.add(owner.node.id);
        late.add(owner.node.id);
        reasons.push({
          code: 'waits-for-rank',
          values: known
            ? { waiter: v.node.id, rank, node: owner.node.id, inferred: 0 }
            : { waiter: v.node.id, rank, node: owner.node.id, inferred: 2, nproc: x.facts.nprocPerNode! },
        });
      }
    }

  // 2c. Nodes that only found the rendezvous closed came after the round formed without them — when the logs
  // show that round (a node got past the rendezvous, or the closed state lists its participants; a node that
  // merely shows no failure proves nothing). Otherwise who closed it is not in the text: others whose logs are
  // missing, an earlier run under the same rendezvous id, or an agent that closed it on its own.
  if (
    late.size === 0 &&
    stage === 'rendezvous-closed' &&
    [...own.values()].every((e) => e.stage === 'rendezvous-closed')
  ) {
    const nodes = [...own.keys()];
    const formedHere = views.some((v) =>
      lastRound(v.events).some((e) => {
        const field = effectsOf(e.id).closedRound;
        return e.kind === 'rendezvous-complete' || (field !== undefined && e.fields[field] !== undefined);
      }),
    );
    if (formedHere) {
      for (const id of nodes) late.add(id);
      reasons.push({ code: 'arrived-after-close', values: { nodes } });
    } else reasons.push({ code: 'closed-on-arrival', values: { nodes } });
  }

  // 2d. Communicator setup failing on several nodes further apart than its connect timeout: the later ones
  // came late (CANN's own advice for EI0006 says the same). With only the default to go by, the reason says so.
  const connectLimit = x.statedLimitSeconds ?? x.assumedLimitSeconds;
  if (late.size === 0 && stage === 'comm-init' && connectLimit !== null) {
    // Each failing node's first wait that ran out with a time of its own: the node's own failure, or the timed
    // line of the same block above it (CANN's `EI0006: [PID: n] 2024-11-20-15:04:50…` before the untimed
    // `Transport init error` the block ends with).
    const times = [...own.entries()]
      // Waits that ran out only: an error raised at once (HCCP not starting, a peer gone) waited for nobody.
      .filter(([, e]) => e.stage === 'comm-init' && !effectsOf(e.id).immediate)
      .map(([id, e]) => {
        const v = views.find((w) => w.node.id === id)!;
        const t = [e, ...lastRound(v.events)]
          .filter(
            (y) =>
              y.stage === 'comm-init' &&
              y.role === 'primary' &&
              y.file === e.file &&
              !effectsOf(y.id).immediate &&
              // A failure placed only by the timed line above it happened then or later: it cannot say it came first.
              !v.lowerBound(y),
          )
          .map((y) => v.timeOf(y))
          .filter((x): x is number => x !== null);
        return { id, t: t.length ? Math.min(...t) : null };
      })
      .filter((x): x is { id: string; t: number } => x.t !== null);
    if (times.length >= 2) {
      let t0 = Infinity;
      for (const { t } of times) t0 = Math.min(t0, t);
      const later = times.filter(({ t }) => t - t0 > connectLimit * 1000);
      if (later.length && later.length < times.length) {
        for (const { id } of later) late.add(id);
        const assumed = x.statedLimitSeconds === null ? 1 : 0;
        // The gap into the stage is the lag that mattered: such a node often launched with the others and then
        // spent minutes (loading data, a model) before its communicator; its launch lag says nothing of that.
        const first = times.find(({ t }) => t === t0)!.id;
        const gap = Math.round((later.reduce((m, { t }) => Math.max(m, t), t0) - t0) / 100) / 10;
        const nodes = later.map(({ id }) => id);
        reasons.push({ code: 'failed-later', values: { nodes, limit: connectLimit, assumed, first, gap } });
      }
    }
  }

  // 2e. Agents that met at one endpoint with different rendezvous ids: the odd ones out could never meet.
  if (late.size === 0) {
    const byRun = new Map<string, string[]>();
    for (const v of views) if (v.node.runId) byRun.set(v.node.runId, [...(byRun.get(v.node.runId) ?? []), v.node.id]);
    if (byRun.size > 1) {
      const groups = [...byRun.entries()].sort((a, b) => b[1].length - a[1].length);
      const [top, next] = groups;
      if (top![1].length > next![1].length) {
        const odd = groups.slice(1).flatMap(([, ids]) => ids);
        for (const id of odd) late.add(id);
        reasons.push({
          code: 'run-id-odd',
          values: {
            nodes: odd,
            id: groups
              .slice(1)
              .map(([r]) => r)
              .join(', '),
            others: top![0],
          },
        });
      }
    }
  }

  // 2f. Ranks that reached the stage only after the waiters had given up in it (a node whose workers loaded
  // data before init_process_group): their node was late to the stage, however punctual its launch.
  if (late.size === 0 && (stage === 'pg-init' || stage === 'comm-init')) {
    const after = enteredAfterGiveUp(views, own, stage);
    if (after) {
      for (const id of after.nodes) late.add(id);
      reasons.push({ code: 'entered-after-give-up', values: { ...after, stage } });
    }
  }

  // 3. Launch times on consistent clocks outrank who "arrived after the others gave up".
  const suspect = new Set(x.offsets.filter((o) => o.kind === 'clock' && !o.applied).map((o) => o.node));
  const timed = views.filter((v) => v.node.lagSeconds !== null && !suspect.has(v.node.id));
  const allTimed = timed.length === views.length && views.length >= 2;
  let maxLag = 0;
  for (const v of timed) maxLag = Math.max(maxLag, v.node.lagSeconds!);
  const byTimes = new Set<string>();
  const mattered = (lag: number) => x.statedLimitSeconds === null || lag >= x.statedLimitSeconds * BELOW_LIMIT;
  if (maxLag >= LATE_MIN_S)
    for (const v of timed)
      if (v.node.lagSeconds! >= Math.max(LATE_MIN_S, maxLag * 0.5) && mattered(v.node.lagSeconds!))
        byTimes.add(v.node.id);

  const textual = [...choice.arrivedLate];
  const contradicted = allTimed && byTimes.size > 0 ? textual.filter((id) => !byTimes.has(id)) : [];
  if (contradicted.length)
    reasons.push({ code: 'launch-times-outrank-text', values: { nodes: contradicted, late: [...byTimes] } });
  for (const id of textual) if (!contradicted.includes(id)) late.add(id);

  if (late.size === 0 && byTimes.size > 0) {
    for (const id of byTimes) late.add(id);
    reasons.push({ code: 'late-by-launch', values: { nodes: [...byTimes], lag: Math.round(maxLag) } });
  }

  // 4. Without times: a node with no failure of its own that never got past the rendezvous while the others
  // timed out waiting in it joined too late (the store host excepted, when others reached it).
  if (late.size === 0 && (stage === 'rank-assignment' || stage === 'rendezvous-timeout')) {
    const waiters = [...own.keys()];
    const stuck = views.filter(
      (v) =>
        !own.has(v.node.id) && v.node.lagSeconds === null && stuckInRendezvous(v) && !(v === host && choice.hostWasUp),
    );
    const hostReached = host !== null && views.some((v) => v !== host && own.get(v.node.id)?.stage === stage);
    const stragglers = stuck.filter((v) => !(v === host && hostReached)).map((v) => v.node.id);
    if (stragglers.length) {
      for (const id of stragglers) late.add(id);
      reasons.push({ code: 'silent-straggler', values: { nodes: stragglers, waiters } });
    }
  }

  // 5. The first failure of a job that restarted: the worker that crashed before the restarts.
  if (late.size === 0 && x.restartCause) {
    for (const id of x.restartCause.nodes) late.add(id);
    reasons.push({ code: 'restart-cause', values: { nodes: x.restartCause.nodes, stage: x.restartCause.stage } });
  }

  // 6. Nobody present was late: a node whose log was not given is the likely culprit — and the culprit when
  // the store host's count of who joined leaves out exactly the missing nodes.
  const missingLikely = late.size === 0 && x.missing.length > 0;
  const absent = missingLikely ? countedOut(x) : null;
  if (absent) {
    reasons.push({ code: 'joined-count-missing', values: { ...absent.count, missing: absent.nodes } });
    return { late, reasons, missingLikely: false, absent: absent.nodes };
  }
  if (missingLikely) reasons.push({ code: 'missing-likely', values: { missing: x.missing } });
  // The likely one by name, when the logs name it (its siblings' pattern, its log of another run).
  const byName = missingLikely ? x.missingNames.filter((n): n is string => n !== null) : [];
  return { late, reasons, missingLikely, absent: byName.length === x.missing.length ? byName : [] };
}

/**
 * A static job whose nodes print their ranks (`rdzv_configs` rank, `--node-rank`), where two print the same one
 * and a rank below the world size is held by no node: the others waited for a rank that nobody took.
 */
function duplicateRank(
  views: NodeView[],
  x: CulpritInput,
): { nodes: string[]; rank: number; missing: string[] } | null {
  if (x.facts.backend !== 'static' || !WAITS_FOR_A_RANK.includes(x.stage)) return null;
  const expected = x.facts.nnodes ?? views.length + x.missing.length;
  const byRank = new Map<number, string[]>();
  for (const v of views) {
    const r = v.node.groupRank;
    if (r === null || r >= expected || v.node.agents > 1) return null;
    byRank.set(r, [...(byRank.get(r) ?? []), v.node.id]);
  }
  const shared = [...byRank].filter(([, ids]) => ids.length > 1);
  if (shared.length !== 1 || expected > 4096) return null;
  const untaken = Array.from({ length: expected }, (_, r) => r).filter((r) => !byRank.has(r));
  if (untaken.length === 0) return null;
  const [rank, nodes] = shared[0]!;
  return { nodes, rank, missing: untaken.map(String) };
}

/** Stages where the others wait for every rank to show up. */
const WAITS_FOR_A_RANK: FailureStage[] = ['rendezvous-timeout', 'rank-assignment', 'pg-init'];

/**
 * The store host counted `joined` of `expected` clients, every client whose log is here is one of those who
 * joined, and exactly the rest have no log: the missing nodes are the ones that never joined. The host counts
 * its own client too and expects every node (TCPStore's waitForWorkers: a real four-node run with one node
 * late prints `3/4 clients joined`).
 */
function countedOut(x: CulpritInput): { nodes: string[]; count: { joined: number; expected: number } } | null {
  const host = x.host;
  const e = host ? x.own.get(host.node.id) : undefined;
  if (!host || !e || e.fields.joined === undefined || e.fields.expected === undefined) return null;
  const joined = Number(e.fields.joined);
  const expected = Number(e.fields.expected);
  const clients = x.views.filter((v) => v !== host).reduce((k, v) => k + Math.max(1, v.node.agents), 0);
  if (clients + 1 !== joined || expected - joined !== x.missing.length || x.missingNames.length !== x.missing.length)
    return null;
  return { nodes: x.missing.map((m, i) => x.missingNames[i] ?? m), count: { joined, expected } };
}
