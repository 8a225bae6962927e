import { betterLogsAdvice, simpleAdvice } from '../advice';
import { missingIsCulprit } from '../blame';
import type { Context } from './context';
import type { Draft } from './types';

// What the data itself says: missing logs, clocks that disagree, logs without times.

export function missingDrafts(c: Context): Draft[] {
  const { job } = c;
  if (job.missingCount === 0) return [];
  const f = job.failure;
  const likely = missingIsCulprit(f);
  return [
    {
      code: 'NODE_LOG_MISSING',
      severity: f ? 'warning' : 'info',
      numbers: {
        missing: job.missingNodes.join(', '),
        count: job.missingCount,
        expected: job.worldFormed?.nodes ?? job.job.nnodes,
        present: job.nodes.length,
        likely: likely ? 1 : null,
        formed: job.worldFormed ? 1 : null,
      },
      nodes: [],
      evidence: job.worldFormed ? [job.worldFormed.evidence] : [],
      advice: [simpleAdvice('collect-logs')],
    },
  ];
}

export function clockDrafts(c: Context): Draft[] {
  return c.job.clockOffsets.map((o): Draft =>
    o.kind === 'time-zone'
      ? {
          code: 'TZ_MISMATCH',
          severity: 'info',
          numbers: { node: o.node, hours: o.offsetSeconds / 3600 },
          nodes: [o.node],
          evidence: [o.evidence],
          advice: [simpleAdvice('clock-sync')],
        }
      : {
          code: 'CLOCK_OFFSET',
          severity: 'warning',
          numbers: { node: o.node, offset: o.offsetSeconds, bound: o.boundSeconds, applied: o.applied ? 1 : null },
          nodes: [o.node],
          evidence: [o.evidence],
          advice: [simpleAdvice('clock-sync')],
        },
  );
}

/** No line of any node carries a time (not only the launch lines): skew cannot be measured at all. */
export function noTimestampsDrafts(c: Context): Draft[] {
  const { job } = c;
  if (job.verdict === 'not-torchrun' || job.nodes.length === 0) return [];
  if (job.nodes.some((n) => n.launchTime !== null)) return [];
  const anyTime = job.nodes.some(
    (n) => n.firstLine !== null || n.lastLine !== null || n.events.some((e) => e.time !== null),
  );
  return [
    {
      code: 'NO_TIMESTAMPS',
      severity: 'info',
      numbers: { partial: anyTime ? 1 : null },
      nodes: [],
      evidence: [],
      advice: [betterLogsAdvice(c.job)],
    },
  ];
}
