import { effectsOf } from '../catalogue';
import type { EvidenceLine, JobFacts, JobNode, LogEvent } from '../model';
import { boundedCount } from '../numbers';

// Did the world form, and which nodes are missing from the logs? Proof the world formed (a rendezvous result
// with group_world_size=W, a round "in a world of size W", an etcd final state) holds even when some logs
// are missing; the nodes the world had beyond those given are missing, never late.

/** Missing nodes listed by name; beyond this they are counted (a declared world of 10⁷ allocates nothing). */
export const MAX_LISTED_MISSING = 64;

export interface World {
  formed: { nodes: number; evidence: EvidenceLine } | null;
  /** Nodes the job had, from the formed world or the launch config. */
  expected: number | null;
}

const ev = (e: LogEvent): EvidenceLine => ({ file: e.file, line: e.line, text: e.text });

export function worldOf(events: LogEvent[], facts: JobFacts): World {
  let formed: World['formed'] = null;
  for (const e of events) {
    const fx = effectsOf(e.id);
    const field = fx.facts?.worldNodes;
    const state = fx.facts?.worldState;
    const n = field ? boundedCount(e.fields[field]) : state ? participants(e.fields[state]) : null;
    if (n !== null && n > 0 && (formed === null || n > formed.nodes)) formed = { nodes: n, evidence: ev(e) };
  }
  return { formed, expected: formed?.nodes ?? facts.nnodes };
}

/** `{'participants': [0, 1, 2]}` in an etcd rendezvous state → 3. */
function participants(state: string | undefined): number | null {
  const m = state ? /'participants':\s{0,4}\[([^\]]{0,100000})\]/.exec(state) : null;
  if (!m) return null;
  const n = m[1]!.split(',').filter((x) => x.trim() !== '').length;
  return n > 0 ? n : null;
}

/** The nodes a world of `expected` had beyond the agents present: named by group rank where ranks tell. */
export interface MissingNodes {
  /** How each missing node is shown (the first few). */
  listed: string[];
  count: number;
  /** The name a missing node would have by its siblings' pattern (`node4`), where they give one; in listed's order. */
  names: (string | null)[];
}

export function missingNodes(expected: number | null, nodes: JobNode[]): MissingNodes {
  const present = nodes.reduce((k, n) => k + Math.max(1, n.agents), 0);
  if (expected === null || expected <= present) return { listed: [], count: 0, names: [] };
  const count = expected - present;
  const ranks = new Set(nodes.map((n) => n.groupRank).filter((r): r is number => r !== null));
  const listed: string[] = [];
  const names: (string | null)[] = [];
  if (ranks.size === nodes.length && nodes.every((n) => n.agents <= 1)) {
    // Nodes named for their rank (node0 … node5, each holding that group rank): a missing rank goes by the
    // name its siblings' pattern gives it; otherwise by its rank.
    const stem = rankStem(nodes);
    for (let r = 0; r < expected && listed.length < MAX_LISTED_MISSING; r++) {
      if (ranks.has(r)) continue;
      listed.push(stem === null ? `group_rank ${r}` : `${stem}${r} (group_rank ${r})`);
      names.push(stem === null ? null : `${stem}${r}`);
    }
  } else {
    for (let k = 1; k <= count && listed.length < MAX_LISTED_MISSING; k++) {
      listed.push(`unnamed node ${k} of ${count}`);
      names.push(null);
    }
  }
  return { listed, count, names };
}

/** The common stem when every node is named `<stem><its group rank>` (two nodes or more), else null. */
function rankStem(nodes: JobNode[]): string | null {
  if (nodes.length < 2) return null;
  let stem: string | null = null;
  for (const n of nodes) {
    const m = /^(.*?[^\d])(\d{1,7})$/.exec(n.id);
    if (!m || Number(m[2]) !== n.groupRank || String(n.groupRank) !== m[2]) return null;
    if (stem !== null && stem !== m[1]) return null;
    stem = m[1]!;
  }
  return stem;
}
