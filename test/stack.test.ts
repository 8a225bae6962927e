import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildJob, createExtractor, diagnose } from '../src/core/index';
import type { FileExtract, LogEvent } from '../src/core/model';
import { buildTimeline } from '../src/core/timeline';
import { encodeShare, markdownReport } from '../src/share/index';
import { CORPUS } from './helpers';

// Stack-safe (issue 13, item 7): no spread of an unbounded array into a call. A node with 200,000 events (a log
// appended to across many restarts, a retry loop that logged for days) overflowed `Math.min(...instants)` while
// the timeline was drawn. The events are the real ones of a node's log, repeated with their clocks moved on, and
// every stage a drop goes through runs on them.

const S2 = path.join(CORPUS, 'torch2.6-s2_static_timeout30_node3_late');
const N = Number(process.env.STACK_N ?? 200_000);

function extract(file: string): FileExtract {
  const ex = createExtractor(file);
  ex.push(new TextEncoder().encode(readFileSync(path.join(S2, file), 'utf8')));
  return ex.finish();
}

/** node3's events repeated to N, each copy a second later; every third one without a clock (a traceback line). */
function blowUp(x: FileExtract): FileExtract {
  const s = x.streams[0]!;
  const base = s.events;
  const events: LogEvent[] = [];
  for (let k = 0; events.length < N; k++) {
    const e = base[k % base.length]!;
    const shift = Math.floor(k / base.length);
    const clocks =
      k % 3 === 2
        ? []
        : e.clocks.map((c) => ({ ...c, minute: c.minute + (shift % 20), second: (c.second + shift) % 60 }));
    events.push({ ...e, line: e.line + shift * 1000, clocks });
  }
  return { ...x, streams: [{ ...s, events }] };
}

describe('a node of 200,000 events', () => {
  it('is built, diagnosed, drawn, reported and shared without a stack overflow', () => {
    const extracts = ['node0.log', 'node1.log', 'node2.log'].map(extract);
    extracts.push(blowUp(extract('node3.log')));
    const job = buildJob(extracts);
    const node3 = job.nodes.find((n) => n.id === 'node3')!;
    expect(node3.events.length).toBeGreaterThan(N / 2);
    const dx = diagnose(job);
    const timeline = buildTimeline(job, dx.thresholds);
    const row = timeline.rows.find((r) => r.node === 'node3')!;
    expect(row.placed).toBe(true);
    expect(Number.isFinite(timeline.startMs) && Number.isFinite(timeline.endMs)).toBe(true);
    expect(markdownReport(job, dx)).toContain('node3');
    const shared = encodeShare(job, dx);
    expect(shared.ok).toBe(true);
  });
});
