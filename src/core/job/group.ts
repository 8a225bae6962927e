import { isAgentKey } from '../extract/agentRoute';
import { sentence } from '../../i18n/sentence';
import { hint } from '../identity';
import type { FileExtract, IdentityHint, StreamExtract } from '../model';

// Files → nodes. A node may come as several files (console + --log-dir per-rank files, stdout + stderr);
// one file may hold several nodes (Slurm labels, pdsh hosts). Streams join when they share a strong key:
// the same hostname, the same --log-dir run folder, the same node name, or the same group rank.

export interface NodeGroup {
  streams: StreamExtract[];
  identity: IdentityHint[];
}

const JOINING: IdentityHint['kind'][] = ['hostname', 'logdir', 'name', 'node-rank', 'group-rank', 'label'];
/** A rank key, optionally under its run (`2/node-rank:1`). */
const RANK_KEY = /(?:^|\/)node-rank:/;

function keysOf(s: StreamExtract): string[] {
  const keys: string[] = [];
  for (const h of s.identity) {
    if (!JOINING.includes(h.kind)) continue;
    if (h.kind === 'label' && h.value.startsWith('local_rank')) continue;
    // A name-derived rank is a guess; only ranks the logs print join files.
    if ((h.kind === 'node-rank' || h.kind === 'group-rank') && h.confidence !== 'high') continue;
    // Group and node ranks count as one key space: static node_rank equals the group rank.
    const kind = h.kind === 'group-rank' ? 'node-rank' : h.kind;
    keys.push(`${kind}:${h.value.toLowerCase()}`);
  }
  return keys;
}

export function groupStreams(
  extracts: FileExtract[],
  forced: Record<string, string> = {},
  names: Record<string, string> = {},
  runOf: Map<StreamExtract, number> | null = null,
): NodeGroup[] {
  const streams = extracts.flatMap((x) => x.streams);
  const free = streams.filter((s) => forced[s.file] === undefined);
  const runs = runOf ? adoptRuns(free, runOf) : null;
  const keyed = (s: StreamExtract) => {
    const run = runs?.get(s) ?? -1;
    return keysOf(s).map((k) => (run >= 0 ? `${run}/${k}` : k));
  };
  const parent = free.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  // Hostnames each group holds: a rank shared by two hosts is a misconfiguration (two pods launched with one
  // --node-rank), not one node, so a rank never joins streams whose hosts differ.
  const hosts = free.map(
    (s) => new Set(s.identity.filter((h) => h.kind === 'hostname').map((h) => h.value.toLowerCase())),
  );
  const clash = (a: number, b: number) =>
    hosts[a]!.size > 0 && hosts[b]!.size > 0 && ![...hosts[a]!].some((h) => hosts[b]!.has(h));
  const owner = new Map<string, number>();
  free.forEach((s, i) => {
    for (const k of keyed(s)) {
      const o = owner.get(k);
      if (o === undefined) owner.set(k, i);
      else {
        const [a, b] = [find(i), find(o)];
        if (a === b || (RANK_KEY.test(k) && clash(a, b))) continue;
        parent[a] = b;
        for (const h of hosts[a]!) hosts[b]!.add(h);
      }
    }
  });
  const byRoot = new Map<number, NodeGroup>();
  free.forEach((s, i) => {
    const r = find(i);
    let g = byRoot.get(r);
    if (!g) {
      g = { streams: [], identity: [] };
      byRoot.set(r, g);
    }
    addStream(g, s);
  });
  const groups = [...byRoot.values()];
  // Files the user placed join the node of that name (as shown, renamed or not), or a new one.
  const named = new Map<string, NodeGroup>();
  for (const g of groups) {
    const auto = nodeIdOf(g).toLowerCase();
    named.set(auto, g);
    const shown = names[nodeIdOf(g)];
    if (shown) named.set(shown.toLowerCase(), g);
  }
  for (const s of streams) {
    const target = forced[s.file];
    if (target === undefined) continue;
    let g = named.get(target.toLowerCase());
    if (!g) {
      g = {
        streams: [],
        identity: [hint('name', target, sentence('hint.byHand', { file: s.file }), 'high')],
      };
      groups.push(g);
      named.set(target.toLowerCase(), g);
    }
    addStream(g, s);
  }
  return groups;
}

/**
 * Streams of different runs never join. A stream that says nothing of its run (a worker's --log-dir file)
 * belongs to the one run whose streams share a key with it, if there is exactly one.
 */
function adoptRuns(streams: StreamExtract[], runOf: Map<StreamExtract, number>): Map<StreamExtract, number> {
  const runsOfKey = new Map<string, Set<number>>();
  for (const s of streams) {
    const run = runOf.get(s) ?? -1;
    if (run < 0) continue;
    for (const k of keysOf(s)) runsOfKey.set(k, (runsOfKey.get(k) ?? new Set()).add(run));
  }
  const out = new Map(runOf);
  for (const s of streams) {
    if ((runOf.get(s) ?? -1) >= 0) continue;
    const cands = new Set<number>();
    for (const k of keysOf(s)) for (const r of runsOfKey.get(k) ?? []) cands.add(r);
    out.set(s, cands.size === 1 ? [...cands][0]! : -1);
  }
  return out;
}

function addStream(g: NodeGroup, s: StreamExtract): void {
  g.streams.push(s);
  for (const h of s.identity) {
    if (!g.identity.some((x) => x.kind === h.kind && x.value === h.value)) g.identity.push(h);
  }
}

const CONF_ORDER = { high: 0, medium: 1, low: 2 } as const;

export function bestHint(ids: IdentityHint[], kind: IdentityHint['kind']): IdentityHint | null {
  const of = ids.filter((h) => h.kind === kind);
  of.sort((a, b) => CONF_ORDER[a.confidence] - CONF_ORDER[b.confidence]);
  return of[0] ?? null;
}

/** A readable, stable id: the hostname if the logs name it, else the file's node name, else the rank. */
export function nodeIdOf(g: NodeGroup): string {
  const host = bestHint(g.identity, 'hostname');
  if (host) return host.value;
  const name = bestHint(g.identity, 'name');
  const rank = bestHint(g.identity, 'group-rank') ?? bestHint(g.identity, 'node-rank');
  const label = g.identity.find((h) => h.kind === 'label' && !h.value.startsWith('local_rank'));
  // An agent told apart within its file (its pid, its turn in a scheduler's output) goes by its rank first.
  if (label && !(rank && isAgentKey(label.value.split('#')[1] ?? ''))) {
    const [file, lab] = label.value.split('#');
    // A name from the file's path reaches a labelled stream only when the stream is the file's one node.
    return name && g.streams.length === 1 ? name.value : `${stemOf(file!)}:${lab}`;
  }
  if (name) return name.value;
  if (rank) return `node-rank-${rank.value}`;
  return stemOf(g.streams[0]!.file);
}

function stemOf(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.[^.]+$/, '');
}
