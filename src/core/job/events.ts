import { effectsOf } from '../catalogue';
import type { LogEvent, NodeEvent } from '../model';
import { isoOrNull } from '../time';
import type { Launch } from './launch';
import { waitedSinceLaunch } from './launch';

// A node's events on the job clock, as the views read them: info lines only where they are worth showing,
// every catalogue field kept, untimed failures placed from the wait they state.

function isShown(e: LogEvent): boolean {
  if (e.kind === 'info') return effectsOf(e.id).shown === true;
  return (e.kind as string) !== 'fact';
}

export function nodeEvents(evs: LogEvent[], timeOf: (e: LogEvent) => number | null, launch: Launch): NodeEvent[] {
  // Per file, the latest time seen on the lines so far: an untimed failure is placed at launch + its stated
  // wait only if no earlier timed line of its file is later (retries with back-off waited longer than stated).
  const latestInFile = new Map<string, number>();
  const byLine = [...evs].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  const placed = new Map<LogEvent, { t: number | null; from: NodeEvent['timeFrom'] }>();
  for (const e of byLine) {
    const t = timeOf(e);
    const latest = latestInFile.get(e.file) ?? -Infinity;
    if (t !== null) {
      placed.set(e, { t, from: 'line' });
      if (t > latest) latestInFile.set(e.file, t);
      continue;
    }
    let at: number | null = null;
    if (launch.ms !== null && launch.from === 'line') {
      const w = waitedSinceLaunch(e);
      if (w !== null && launch.ms + w * 1000 >= latest) at = launch.ms + w * 1000;
    }
    placed.set(e, at === null ? { t: null, from: null } : { t: at, from: 'derived' });
  }
  const out: NodeEvent[] = [];
  if (launch.from === 'derived' && launch.ms !== null) {
    const first = evs.find((e) => e.kind === 'launch') ?? launch.derivedFrom?.event ?? evs[0];
    out.push({
      kind: 'launch',
      id: 'derived-launch',
      time: isoOrNull(launch.ms),
      timeFrom: 'derived',
      file: first?.file ?? '',
      line: first?.line ?? 1,
      text: first?.kind === 'launch' ? first.text : '(launch time derived from a stated wait)',
      fields: launch.derivedFrom ? { waited: String(launch.derivedFrom.waited) } : {},
    });
  }
  for (const e of evs) {
    if (!isShown(e)) continue;
    const p = placed.get(e)!;
    const time = p.t === null ? null : isoOrNull(p.t);
    const ne: NodeEvent = {
      kind: e.kind,
      id: e.id,
      time,
      timeFrom: time === null ? null : p.from,
      file: e.file,
      line: e.line,
      text: e.text,
      fields: e.fields,
    };
    if (e.stage) ne.stage = e.stage;
    if (e.ranks) ne.ranks = e.ranks;
    if (e.localRank !== undefined) ne.localRank = e.localRank;
    if (e.confidence) ne.confidence = e.confidence;
    out.push(ne);
  }
  return out;
}
