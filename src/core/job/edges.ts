import type { Clock, NodeEvent, StreamExtract } from '../model';
import { isoOrNull } from '../time';

// Where a node's logs begin and end in time: the first and last lines that carry a time (pre-launch work
// before the launch, and where the log stops — a node that waited silently until it was killed).

export function edgeLine(
  which: 'firstLine' | 'lastLine',
  streams: StreamExtract[],
  at: (clocks: Clock[], file: string) => number | null,
  events: NodeEvent[],
): NodeEvent | null {
  let best: NodeEvent | null = null;
  let bestT = which === 'firstLine' ? Infinity : -Infinity;
  for (const st of streams) {
    const l = st[which];
    const t = l ? at(l.clocks, st.file) : null;
    if (!l || t === null) continue;
    if (which === 'firstLine' ? t < bestT : t > bestT) {
      const time = isoOrNull(t);
      if (time === null) continue;
      bestT = t;
      best = { kind: 'info', id: which, time, timeFrom: 'line', file: st.file, line: l.line, text: l.text, fields: {} };
    }
  }
  // The file's last line may carry no time (a traceback): the latest timed event then ends the node.
  if (which === 'lastLine') {
    for (const ne of events) {
      const t = ne.time === null ? -Infinity : Date.parse(ne.time);
      if (t > bestT) {
        bestT = t;
        best = { ...ne, kind: 'info', id: which };
      }
    }
  }
  return best;
}
