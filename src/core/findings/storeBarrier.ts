import { boundedCount, boundedSeconds } from '../numbers';
import type { Context } from './context';
import type { Draft } from './types';

// The store-based barrier of init_process_group, in a job that got through: how long ranks waited there
// for the others, and a worker count above the world size (keys left by an earlier run, a double launch).

/** A count the line printed, or its text when it is none a job has (shown as printed, never as 1e+20). */
const count = (s: string | undefined) => boundedCount(s) ?? s ?? null;
const seconds = (s: string | undefined) => boundedSeconds(s, 's') ?? s ?? null;

export function storeBarrierDrafts(c: Context): Draft[] {
  const out: Draft[] = [];
  const waits = c.job.nodes.flatMap((n) =>
    n.events.filter((e) => e.fields.ws !== undefined && e.fields.n !== undefined).map((e) => ({ n, e })),
  );
  const over = waits.filter(({ e }) => Number(e.fields.n) > Number(e.fields.ws));
  if (over.length) {
    const { e } = over[0]!;
    out.push({
      code: 'WORKER_COUNT_EXCEEDS',
      severity: 'warning',
      numbers: { workers: count(e.fields.n), world: count(e.fields.ws), key: e.fields.key ?? null },
      nodes: [...new Set(over.map((x) => x.n.id))],
      evidence: over.slice(0, 3).map(({ e: x }) => ({ file: x.file, line: x.line, text: x.text })),
      advice: [],
    });
  }
  const waited = waits.filter(({ e }) => e.kind === 'info' && Number(e.fields.n) < Number(e.fields.ws));
  if (!c.job.failure && waited.length) {
    const longest = waited.reduce((a, b) => (Number(b.e.fields.secs ?? 0) > Number(a.e.fields.secs ?? 0) ? b : a));
    out.push({
      code: 'STORE_BARRIER_WAIT',
      severity: 'info',
      numbers: {
        waits: waited.length,
        seconds: seconds(longest.e.fields.secs),
        joined: count(longest.e.fields.n),
        world: count(longest.e.fields.ws),
        timeout: longest.e.fields.td ?? null,
      },
      nodes: [...new Set(waited.map((x) => x.n.id))],
      evidence: waited.slice(0, 3).map(({ e }) => ({ file: e.file, line: e.line, text: e.text })),
      advice: [],
    });
  }
  return out;
}
