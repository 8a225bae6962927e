import { stageDataAdvice } from '../advice';
import type { JobNode, NodeLagged } from '../model';
import { compareNames } from '../names';
import { type Context, ownFailure } from './context';
import { evOf } from './evidence';
import type { Draft } from './types';
import { causedNotLate } from '../blame';

// LATE_NODE: the node(s) that caused it, in one finding — a job of 4,096 nodes may have hundreds late, so the
// finding names how many and the worst by lag, numerically. "Check its clock" is said only when the clocks
// themselves disagree (a measured offset at the rendezvous), never because the text and a guess differ.

/** Late nodes named in the finding; the rest are counted. */
export const WORST_LATE = 8;

export function lateNodeDrafts(c: Context): Draft[] {
  const { job, lateNodes } = c;
  // A worker that crashed, a node's own fault, the first failure of restarts: the culprit was not late.
  if (lateNodes.length === 0 || causedNotLate(job.failure)) return [];
  const f = job.failure;
  const byLag = [...lateNodes].sort((a, b) => (b.lagSeconds ?? -1) - (a.lagSeconds ?? -1) || compareNames(a.id, b.id));
  const worst = byLag.slice(0, WORST_LATE);
  const top: JobNode = worst[0]!;
  const offset = job.clockOffsets.find((o) => o.node === top.id && o.kind === 'clock' && !o.applied);
  const maxLag = top.lagSeconds ?? 0;
  const late: NodeLagged[] = worst.map((n) => ({ node: n.id, lagSeconds: n.lagSeconds }));
  const comm = commGap(c, top.id);
  return [
    {
      code: 'LATE_NODE',
      severity: f ? 'error' : maxLag >= 60 ? 'warning' : 'info',
      numbers: {
        node: top.id,
        lag: top.lagSeconds,
        count: lateNodes.length,
        worst: lateNodes.length > 1 ? worstText(late) : null,
        clockOffset: offset ? offset.offsetSeconds : null,
        first: c.first?.id ?? null,
        // Only when that is what named it: links made before these keys existed read back the same.
        ...(comm ? { commGap: comm.gap, commFirst: comm.first } : {}),
        victims: f && f.reportedBy.length ? f.reportedBy.join(', ') : null,
      },
      late,
      nodes: byLag.map((n) => n.id),
      evidence: worst
        .slice(0, 2)
        .flatMap((n) => [...evOf(n.events.find((e) => e.kind === 'launch')), ...evOf(ownFailure(n))])
        .slice(0, 3),
      advice: worst.some((n) => c.prelaunchNodes.has(n.id)) ? [stageDataAdvice()] : [],
    },
  ];
}

/**
 * The gap into the communicator when that is what named the node (`failed-later`): it launched with the others,
 * so its launch lag (a few seconds) is not the lag that mattered — the minutes before its communicator were.
 */
function commGap(c: Context, node: string): { gap: number; first: string } | null {
  const r = c.job.failure?.reasoning.find((x) => x.code === 'failed-later');
  const { nodes, gap, first } = r?.values ?? {};
  if (!Array.isArray(nodes) || !nodes.includes(node) || typeof gap !== 'number' || typeof first !== 'string')
    return null;
  return { gap, first };
}

/**
 * `numbers.worst`: the list as English text (`node7 (283 s), node2 (no time)`), what the JSON carried before
 * `late` did. Nothing words it any more: the views word `late` in the reader's language.
 */
export function worstText(late: readonly NodeLagged[]): string {
  return late.map((n) => `${n.node} (${lagWord(n.lagSeconds)})`).join(', ');
}

function lagWord(lag: number | null): string {
  if (lag === null) return 'no time';
  return `${Math.abs(lag) >= 10 ? Math.round(lag) : Math.round(lag * 10) / 10} s`;
}
