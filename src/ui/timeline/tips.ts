import type { PlacedRow, TimelineLane, TimelineMarker, TimelinePhase, ThresholdLine } from '../../core/timeline';
import { PHASE_NAMES } from '../../core/timeline';
import { STAGE_SHORT } from '../words';
import { formatClock, formatDuration, formatOffset } from './scale';

// What the tooltip says about a bar, a marker or a limit line: exact instants, duration, how an instant was
// obtained, and the evidence line.

export interface Tip {
  title: string;
  lines: string[];
  note: string | null;
  evidence: { file: string; line: number; text: string } | null;
  /** Extra entries folded into one marker cluster. */
  more: string[];
  action: string | null;
}

const cut = (t: string, n = 220) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

export const MARKER_WORDS: Record<TimelineMarker['kind'], string> = {
  launch: 'torchrun launched',
  failure: 'Failure',
  error: 'Error',
  restart: 'Restart',
  exit: 'Workers finished',
  ready: 'Process group ready',
};

export function markerTitle(m: TimelineMarker): string {
  const stage = m.stage && m.stage !== 'other' ? `: ${STAGE_SHORT[m.stage]}` : '';
  if (m.kind === 'exit') return m.id === 'exit-barrier-done' ? 'Done waiting for the other agents' : 'Workers finished';
  return `${MARKER_WORDS[m.kind]}${m.kind === 'failure' || m.kind === 'error' ? stage : ''}${m.own ? ' (its own failure)' : ''}`;
}

export function phaseEndWords(p: TimelinePhase): string | null {
  if (p.end === 'next') return null;
  if (p.end === 'failure') return p.stage ? `Ended in a failure: ${STAGE_SHORT[p.stage]}` : 'Ended in a failure';
  if (p.end === 'exit') return 'Ended when the agent finished';
  return 'The log ends here';
}

export function phaseTip(row: PlacedRow, lane: TimelineLane | null, p: TimelinePhase, origin: number): Tip {
  const s = (p.startMs - origin) / 1000;
  const e = (p.endMs - origin) / 1000;
  const lines = [
    `${formatOffset(s, 0.001)} → ${formatOffset(e, 0.001)}  ·  ${formatDuration(e - s)}`,
    `${formatClock(p.startMs)} → ${formatClock(p.endMs)}`,
  ];
  const ended = phaseEndWords(p);
  if (ended) lines.push(ended);
  if (p.startTiming === 'derived') lines.push('Start derived from a wait the text states.');
  return {
    title: `${row.node}${lane ? ` · ${lane.label}` : ''} — ${PHASE_NAMES[p.kind]}`,
    lines,
    note: p.note,
    evidence: { ...p.startEvidence, text: cut(p.startEvidence.text) },
    more:
      p.endEvidence && p.end !== 'next'
        ? [`Ends at ${p.endEvidence.file}:${p.endEvidence.line}: ${cut(p.endEvidence.text, 140)}`]
        : [],
    action: `Click to open ${p.startEvidence.file}:${p.startEvidence.line}`,
  };
}

export function markerTip(row: PlacedRow, lane: TimelineLane | null, group: TimelineMarker[], origin: number): Tip {
  const m = group[0]!;
  const s = (m.atMs - origin) / 1000;
  const lines = [`${formatOffset(s, 0.001)}  ·  ${formatClock(m.atMs, true)}`];
  if (m.rank !== null) lines.push(`rank ${m.rank}`);
  if (m.count > 1) lines.push(`${m.count} lines like this at this instant`);
  if (m.timing === 'derived') lines.push('Derived from a wait the text states.');
  return {
    title: `${row.node}${lane ? ` · ${lane.label}` : ''} — ${markerTitle(m)}`,
    lines,
    note: m.note,
    evidence: { ...m.evidence, text: cut(m.evidence.text) },
    more: group
      .slice(1, 6)
      .map(
        (o) =>
          `${markerTitle(o)} at ${formatOffset((o.atMs - origin) / 1000, 0.001)} (${o.evidence.file}:${o.evidence.line})`,
      )
      .concat(group.length > 6 ? [`… and ${group.length - 6} more`] : []),
    action: `Click to open ${m.evidence.file}:${m.evidence.line}`,
  };
}

export function lineTip(t: ThresholdLine): Tip {
  const what =
    t.kind === 'limit'
      ? `A limit in force (${t.from === 'logs' ? 'set in the logs' : 'the default for this version and backend'})`
      : t.kind === 'recommended'
        ? 'The rendezvous limit skewscope recommends'
        : 'Reference mark';
  return {
    title: t.label,
    lines: [what, `Clock: ${t.anchorText}`],
    note: null,
    evidence: t.evidence ? { ...t.evidence, text: cut(t.evidence.text) } : null,
    more: [],
    action: null,
  };
}
