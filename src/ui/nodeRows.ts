// The node table's order and filter, fast on 4,096 rows: each node's sort keys and search text are made once per
// job, so a click on a column or a keystroke in the filter only compares prepared values.
import { naturalKey, type NodeView } from '../ingest/index';

export type NodeSortKey = 'node' | 'rank' | 'launch' | 'lag' | 'failure';
export interface NodeSort {
  key: NodeSortKey;
  desc: boolean;
}

/** A row of the table, with its sort key and filter text made the first time a sort or a filter needs them. */
export class PreparedNode {
  #name: string | null = null;
  #hay: string | null = null;
  readonly node: NodeView;
  /** Where the node is in the job's own order (the order the logs give). */
  readonly index: number;
  readonly #late: boolean;

  constructor(node: NodeView, index: number, late: boolean) {
    this.node = node;
    this.index = index;
    this.#late = late;
  }

  get name(): string {
    return (this.#name ??= naturalKey(this.node.id));
  }

  /** Lower-case text the filter looks in: name, host, rank, files, late/host tags, failure stage. */
  get hay(): string {
    const n = this.node;
    return (this.#hay ??= [
      n.id,
      n.hostname ?? '',
      n.groupRank !== null ? `rank ${n.groupRank} rank${n.groupRank}` : '',
      this.#late ? 'late' : '',
      n.isStoreHost ? 'host store-host' : '',
      n.failureStage ?? '',
      ...n.files,
    ]
      .join('\n')
      .toLowerCase());
  }
}

export function prepareNodes(nodes: readonly NodeView[], late: ReadonlySet<string>): PreparedNode[] {
  return nodes.map((node, index) => new PreparedNode(node, index, late.has(node.id)));
}

const byNameKey = (a: PreparedNode, b: PreparedNode) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.index - b.index;

type Valued = Exclude<NodeSortKey, 'node'>;
const FIELD: Record<Valued, 'groupRank' | 'launchTime' | 'lagSeconds' | 'failureStage'> = {
  rank: 'groupRank',
  launch: 'launchTime',
  lag: 'lagSeconds',
  failure: 'failureStage',
};

/** The rows shown: those matching every word of `query`, in the chosen order (null: the job's own). */
export function nodeRows(prepared: readonly PreparedNode[], query: string, sort: NodeSort | null): PreparedNode[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const kept = words.length ? prepared.filter((p) => words.every((w) => p.hay.includes(w))) : prepared.slice();
  if (!sort) return kept;
  const dir = sort.desc ? -1 : 1;
  if (sort.key === 'node') return kept.sort((a, b) => byNameKey(a, b) * dir);
  const field = FIELD[sort.key];
  // Missing values (no launch time, no rank) stay last whichever way the column is sorted; ties by name.
  return kept.sort((a, b) => {
    const va = a.node[field];
    const vb = b.node[field];
    if (va === null || vb === null) return va === vb ? byNameKey(a, b) : va === null ? 1 : -1;
    return (va < vb ? -dir : va > vb ? dir : 0) || byNameKey(a, b);
  });
}
