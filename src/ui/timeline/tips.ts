import { effectsOf } from '../../core/catalogue';
import type { FailureStage } from '../../core/model';
import type { PlacedRow, TimelineLane, TimelineMarker, TimelinePhase, ThresholdLine } from '../../core/timeline';
import { formatDuration, formatOffset, type Sentence } from '../../i18n/index';
import type { AttemptBand, AttemptView } from '../attempts';
import type { T } from '../i18n';
import { laneName, limitLabel } from './labels';
import { formatClock } from './scale';

// What the tooltip says about a bar, a marker or a limit line: exact instants, duration, how an instant was
// obtained, and the evidence line.

export interface Tip {
  title: string;
  lines: string[];
  /** The core's sentence about how an instant was placed (or what a phase held). */
  note: Sentence | null;
  evidence: { file: string; line: number; text: string } | null;
  /** Extra entries folded into one marker cluster, or where a phase ends (with its log text as code). */
  more: { label: string; code?: string }[];
  action: string | null;
}

const cut = (t: string, n = 220) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

export function markerTitle(t: T, m: TimelineMarker): string {
  if (m.kind === 'exit') return t(effectsOf(m.id).exitBarrierPassed ? 'marker.exitBarrierDone' : 'marker.exit');
  const base = t(`marker.${m.kind}`);
  const stage =
    (m.kind === 'failure' || m.kind === 'error') && m.stage && m.stage !== 'other'
      ? t('marker.withStage', { what: base, stage: t(`stage.short.${m.stage}`) })
      : base;
  return m.own ? t('marker.own', { what: stage }) : stage;
}

export function phaseEndWords(t: T, p: TimelinePhase): string | null {
  if (p.end === 'next') return null;
  if (p.end === 'failure')
    return p.stage ? t('phase.end.failureStage', { stage: t(`stage.short.${p.stage}`) }) : t('phase.end.failure');
  if (p.end === 'exit') return t('phase.end.exit');
  return t('phase.end.logEnd');
}

const who = (t: T, row: PlacedRow, lane: TimelineLane | null) =>
  lane ? `${row.node} · ${laneName(t, lane)}` : row.node;

export function phaseTip(t: T, row: PlacedRow, lane: TimelineLane | null, p: TimelinePhase, origin: number): Tip {
  const s = (p.startMs - origin) / 1000;
  const e = (p.endMs - origin) / 1000;
  const lines = [
    `${formatOffset(t.lang, s, 0.001)} → ${formatOffset(t.lang, e, 0.001)}  ·  ${formatDuration(t.lang, e - s)}`,
    `${formatClock(p.startMs)} → ${formatClock(p.endMs)}`,
  ];
  const ended = phaseEndWords(t, p);
  if (ended) lines.push(ended);
  if (p.startTiming === 'derived') lines.push(t('tip.startDerived'));
  return {
    title: t('tip.title', { who: who(t, row, lane), what: t(`phase.${p.kind}`) }),
    lines,
    note: p.note,
    evidence: { ...p.startEvidence, text: cut(p.startEvidence.text) },
    more:
      p.endEvidence && p.end !== 'next'
        ? [
            {
              label: t('tip.endsAt', { where: `${p.endEvidence.file}:${p.endEvidence.line}` }),
              code: cut(p.endEvidence.text, 140),
            },
          ]
        : [],
    action: t('tip.open', { where: `${p.startEvidence.file}:${p.startEvidence.line}` }),
  };
}

/** The open end of a node that stopped logging while it waited: nothing says when (or whether) it stopped. */
export function openTip(t: T, row: PlacedRow, p: TimelinePhase, origin: number, untilMs: number): Tip {
  const s = (p.endMs - origin) / 1000;
  return {
    title: t('tip.title', { who: row.node, what: t('timeline.open') }),
    lines: [
      t('tip.openFrom', { at: formatOffset(t.lang, s, 0.001), clock: formatClock(p.endMs) }),
      t('tip.openUntil', { span: formatDuration(t.lang, (untilMs - p.endMs) / 1000) }),
      t('tip.openWhy'),
    ],
    note: null,
    evidence: p.endEvidence ? { ...p.endEvidence, text: cut(p.endEvidence.text) } : null,
    more: [],
    action: p.endEvidence ? t('tip.open', { where: `${p.endEvidence.file}:${p.endEvidence.line}` }) : null,
  };
}

export function markerTip(
  t: T,
  row: PlacedRow,
  lane: TimelineLane | null,
  group: TimelineMarker[],
  origin: number,
): Tip {
  const m = group[0]!;
  const s = (m.atMs - origin) / 1000;
  const lines = [`${formatOffset(t.lang, s, 0.001)}  ·  ${formatClock(m.atMs, true)}`];
  if (m.rank !== null) lines.push(`rank ${m.rank}`);
  if (m.count > 1) lines.push(t('tip.sameInstant', { n: m.count }));
  if (m.timing === 'derived') lines.push(t('tip.derived'));
  return {
    title: t('tip.title', { who: who(t, row, lane), what: markerTitle(t, m) }),
    lines,
    note: m.note,
    evidence: { ...m.evidence, text: cut(m.evidence.text) },
    more: group
      .slice(1, 6)
      .map((o) => ({
        label: t('tip.moreAt', {
          what: markerTitle(t, o),
          at: formatOffset(t.lang, (o.atMs - origin) / 1000, 0.001),
          where: `${o.evidence.file}:${o.evidence.line}`,
        }),
      }))
      .concat(group.length > 6 ? [{ label: t('tip.andMore', { n: group.length - 6 }) }] : []),
    action: t('tip.open', { where: `${m.evidence.file}:${m.evidence.line}` }),
  };
}

export function lineTip(t: T, line: ThresholdLine, fired: boolean, clockText: string): Tip {
  const what =
    line.kind === 'limit'
      ? t(line.from === 'logs' ? 'tip.limitLogs' : line.from === 'inferred' ? 'tip.limitInferred' : 'tip.limitDefault')
      : line.kind === 'recommended'
        ? t('tip.recommended')
        : t('tip.reference');
  return {
    title: limitLabel(t, line),
    lines: [...(fired ? [t('tip.fired')] : []), what, clockText],
    note: null,
    evidence: line.evidence ? { ...line.evidence, text: cut(line.evidence.text) } : null,
    more: [],
    action: null,
  };
}

/**
 * What ended an attempt, in words: the failure before its restart and the attempts left as the restart printed
 * them; for the node's last attempt, its own failure when it has one (`lastStage`).
 */
export function attemptEndWords(t: T, a: AttemptView, lastStage: FailureStage | null = null): string {
  if (a.ended) {
    const stage = a.ended.stage && a.ended.stage !== 'other' ? t(`stage.short.${a.ended.stage}`) : null;
    const left = a.left !== null && a.max !== null ? { left: a.left, max: a.max } : null;
    if (stage)
      return left ? t('attempts.restartedStageLeft', { stage, ...left }) : t('attempts.restartedStage', { stage });
    return left ? t('attempts.restartedLeft', left) : t('attempts.restarted');
  }
  if (!a.last) return t('attempts.endUnknown');
  return lastStage && lastStage !== 'other'
    ? t('attempts.lastFailed', { stage: t(`stage.short.${lastStage}`) })
    : t('attempts.lastOne');
}

export function attemptTip(t: T, row: PlacedRow, band: AttemptBand, origin: number): Tip {
  const a = band.attempt;
  const s = (band.startMs - origin) / 1000;
  const e = (band.endMs - origin) / 1000;
  const open = a.ended?.evidence ?? a.evidence;
  const restart = a.ended && a.evidence.line !== open.line ? a.evidence : null;
  return {
    title: t('tip.title', { who: row.node, what: t('attempts.index', { n: a.index }) }),
    lines: [
      `${formatOffset(t.lang, s, 0.001)} → ${formatOffset(t.lang, e, 0.001)}  ·  ${formatDuration(t.lang, e - s)}`,
      `${formatClock(band.startMs)} → ${formatClock(band.endMs)}`,
      t(a.formedWorld ? 'attempts.rdzv.yes' : 'attempts.rdzv.no'),
      attemptEndWords(t, a, row.failureStage),
      ...(band.endUnknown ? [t('attempts.endBefore')] : []),
    ],
    note: null,
    evidence: { ...open, text: cut(open.text) },
    more: restart
      ? [{ label: t('tip.endsAt', { where: `${restart.file}:${restart.line}` }), code: cut(restart.text, 140) }]
      : [],
    action: t('tip.open', { where: `${open.file}:${open.line}` }),
  };
}
