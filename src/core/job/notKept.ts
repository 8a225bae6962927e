import { notKeptOf, type NotKept } from '../extract/keep';
import type { LogEvent, Note } from '../model';

// What the extract left out of streams too long to keep whole (extract/keep.ts), said once for the job: the
// diagnosis is of the runs that were kept, and the reader is told so with the counts.

/** Nodes named in the note; the others are counted. */
const MAX_NAMED = 8;

export function notKeptNote(byNode: ReadonlyMap<string, readonly LogEvent[]>): Note | null {
  const nodes: string[] = [];
  const parts: NotKept[] = [];
  for (const [id, evs] of byNode) {
    let any = false;
    for (const e of evs) {
      const n = notKeptOf(e);
      if (!n) continue;
      parts.push(n);
      any = true;
    }
    if (any) nodes.push(id);
  }
  if (parts.length === 0) return null;
  const sum = (f: (n: NotKept) => number) => parts.reduce((t, n) => t + f(n), 0);
  const files = [...new Set(parts.map((n) => n.file))];
  let from = Infinity;
  let to = 0;
  for (const n of parts) {
    from = Math.min(from, n.from);
    to = Math.max(to, n.to);
  }
  return {
    code: 'events-not-kept',
    values: {
      nodes: nodes.slice(0, MAX_NAMED),
      moreNodes: Math.max(0, nodes.length - MAX_NAMED),
      events: sum((n) => n.events),
      runs: sum((n) => n.runs),
      restarts: sum((n) => n.restarts),
      rounds: sum((n) => n.byKind['rendezvous-begin'] ?? 0),
      failures: sum((n) => n.byKind.failure ?? 0),
      // Lines are told only when they are of one file.
      file: files.length === 1 ? files[0]! : null,
      from: files.length === 1 ? from : null,
      to: files.length === 1 ? to : null,
    },
  };
}
