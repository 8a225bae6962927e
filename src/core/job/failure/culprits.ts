import { effectsOf } from '../../catalogue';
import type { ClockOffset, FailureStage, JobFacts, LogEvent, Reason } from '../../model';
import { endpointHost } from '../../identity';
import type { StageChoice } from './stage';
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

export interface CulpritInput {
  views: NodeView[];
  own: Map<string, LogEvent>;
  stage: FailureStage;
  choice: StageChoice;
  host: NodeView | null;
  facts: JobFacts;
  offsets: ClockOffset[];
  missing: string[];
}

export function findCulprits(x: CulpritInput): Culprits {
  const reasons: Reason[] = [];
  const late = new Set<string>();
  const { views, own, stage, choice, host } = x;

  // 1. The store host, when the clients failed to reach it and nobody did in time.
  if (!choice.hostWasUp && CONNECT_STAGES.includes(stage)) {
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
      return { late, reasons, missingLikely: true };
    }
    if (host && late.has(host.node.id) && host.node.lagSeconds !== null && host.node.lagSeconds >= LATE_MIN_S)
      reasons.push({ code: 'host-late-by-launch', values: { host: host.node.id, lag: host.node.lagSeconds } });
  }

  // 2. A waited-for store key names the rank (and so the node) that never wrote it.
  const named = new Set<string>();
  for (const v of views)
    for (const e of v.events) {
      if (!e.fields.keys || effectsOf(e.id).refine !== 'keys') continue;
      for (const r of waitedRanks(e.fields.keys)) {
        const owner = views.find((w) => (r.group ? w.node.groupRank === r.rank : w.node.globalRanks.includes(r.rank)));
        if (!owner || named.has(owner.node.id)) continue;
        named.add(owner.node.id);
        late.add(owner.node.id);
        reasons.push({
          code: 'store-key-names-node',
          values: { waiter: v.node.id, key: r.key, rank: r.rank, group: r.group ? 1 : 0, node: owner.node.id },
        });
      }
    }

  // 3. Launch times on consistent clocks outrank who "arrived after the others gave up".
  const suspect = new Set(x.offsets.filter((o) => o.kind === 'clock' && !o.applied).map((o) => o.node));
  const timed = views.filter((v) => v.node.lagSeconds !== null && !suspect.has(v.node.id));
  const allTimed = timed.length === views.length && views.length >= 2;
  let maxLag = 0;
  for (const v of timed) maxLag = Math.max(maxLag, v.node.lagSeconds!);
  const byTimes = new Set<string>();
  if (maxLag >= LATE_MIN_S)
    for (const v of timed) if (v.node.lagSeconds! >= Math.max(LATE_MIN_S, maxLag * 0.5)) byTimes.add(v.node.id);

  const textual = [...choice.arrivedLate];
  const contradicted = allTimed && byTimes.size > 0 ? textual.filter((id) => !byTimes.has(id)) : [];
  if (contradicted.length)
    reasons.push({ code: 'launch-times-outrank-text', values: { nodes: contradicted, late: [...byTimes] } });
  for (const id of textual) if (!contradicted.includes(id)) late.add(id);

  if (late.size === 0 && byTimes.size > 0) {
    for (const id of byTimes) late.add(id);
    reasons.push({ code: 'late-by-launch', values: { nodes: [...byTimes], lag: Math.round(maxLag) } });
  }

  // 4. Nobody present was late: a node whose log was not given is the likely culprit.
  const missingLikely = late.size === 0 && x.missing.length > 0;
  if (missingLikely) reasons.push({ code: 'missing-likely', values: { missing: x.missing } });
  return { late, reasons, missingLikely };
}
