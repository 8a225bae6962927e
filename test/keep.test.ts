import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExtractor } from '../src/core/index';
import {
  HEAD_RUNS,
  MAX_FIELD_CHARS,
  MAX_KEPT_EVENTS,
  NOT_KEPT_ID,
  RUN_HEAD,
  RUN_TAIL,
  TAIL_RUNS,
} from '../src/core/extract/keep';
import type { FileExtract, JobModel, Note } from '../src/core/model';
import { buildJob } from '../src/core/job';
import { noteText } from '../src/core/notesText';
import { CORPUS } from './helpers';

// What a stream keeps when a log holds far more than a diagnosis needs (issue 13, item 2): a log appended to
// across hundreds of runs, a job that restarted hundreds of times, a retry loop inside one run. The inputs are
// real logs with their own blocks repeated; each case checks what is kept, what is counted, and that the
// diagnosis is the one the log gives when nothing is left out.

const enc = new TextEncoder();
const CAPTURED = path.join(__dirname, 'fixtures', 'captured');

function extract(name: string, text: string, chunk = 1 << 16): FileExtract {
  const ex = createExtractor(name);
  const bytes = enc.encode(text);
  for (let i = 0; i < bytes.length; i += chunk) ex.push(bytes.subarray(i, i + chunk));
  return ex.finish();
}

function notKept(job: JobModel): Note | undefined {
  return job.notes.find((n) => n.code === 'events-not-kept');
}

/** The diagnosis without line numbers and counts: what the reader is told happened. */
function verdictOf(job: JobModel) {
  const f = job.failure;
  return {
    verdict: job.verdict,
    stage: f?.stage ?? null,
    reportedBy: f?.reportedBy ?? null,
    lateNodes: f?.lateNodes ?? null,
    limit: f?.limit ? { id: f.limit.id, seconds: f.limit.seconds, from: f.limit.from } : null,
    reasons: f?.reasoning.map((r) => r.code) ?? null,
    notes: job.notes.filter((n) => n.code !== 'events-not-kept'),
    nodes: job.nodes.map((n) => [n.id, n.groupRank, n.failureStage, n.agents]),
  };
}

describe('a node that restarted its worker group hundreds of times', () => {
  // node1 of a real c10d run with --max-restarts: its first attempt (rendezvous, a worker's RuntimeError, the
  // restart) repeated as attempts 0…N-1, each with its own restart_count and "K/N attempts left", then the
  // attempt that finished.
  const lines = readFileSync(path.join(CAPTURED, 'torch2.6-c10d-restart-once-noshare', 'node1.log'), 'utf8')
    .trimEnd()
    .split('\n');
  const HEAD = lines.slice(0, 20); // launch config (max_restarts : 2)
  const ATTEMPT = lines.slice(20, 69); // "Rendezvous'ing worker group" … "2/2 attempts left; will restart"
  const LAST = lines.slice(69); // the round that finished
  const log = (n: number) => {
    const out = HEAD.map((l) => l.replace('max_restarts     : 2', `max_restarts     : ${n}`));
    const starts: number[] = [];
    for (let k = 0; k < n; k++) {
      starts.push(out.length + 1);
      for (const l of ATTEMPT)
        out.push(
          l
            .replace('restart_count=0', `restart_count=${k}`)
            .replace('2/2 attempts left', `${n - k}/${n} attempts left`),
        );
    }
    starts.push(out.length + 1);
    for (const l of LAST) out.push(l.replace('restart_count=1', `restart_count=${n}`));
    return { text: out.join('\n') + '\n', starts };
  };

  it('keeps its first and last attempts with their own numbers, counts the rest, and says the same', () => {
    const N = 400;
    const { text, starts } = log(N);
    const x = extract('node1.log', text);
    const events = x.streams[0]!.events;
    expect(events.length).toBeLessThanOrEqual(MAX_KEPT_EVENTS);
    expect(events.filter((e) => e.id === NOT_KEPT_ID)).toHaveLength(1);
    const job = buildJob([x]);
    const attempts = job.nodes[0]!.attempts;
    // The attempts a node shows are its first 32 and last 32 whatever is kept (job/attempts.ts): all of them here.
    const want = [...Array.from({ length: 32 }, (_, i) => i), ...Array.from({ length: 32 }, (_, i) => N - 31 + i)];
    expect(attempts.map((a) => a.index)).toEqual(want);
    for (const a of attempts) {
      expect(a.formedWorld).toBe(true);
      if (a.index === N) {
        expect(a.failure).toBeNull();
        continue;
      }
      expect(a.attemptsLeft).toBe(N - a.index);
      expect(a.maxRestarts).toBe(N);
      // What ended attempt k is a line of its own block.
      const line = a.failure!.evidence.line;
      expect(line).toBeGreaterThanOrEqual(starts[a.index]!);
      expect(line).toBeLessThan(starts[a.index + 1]!);
    }
    const note = notKept(job)!;
    const dropped = N + 1 - HEAD_RUNS - TAIL_RUNS;
    expect(note.values).toMatchObject({ nodes: ['node1'], runs: dropped, restarts: dropped, rounds: dropped });
    expect(note.values.from).toBe(starts[HEAD_RUNS]);
    expect(note.values.to).toBe(starts[N + 1 - TAIL_RUNS]! - 1);
    expect(noteText('en', note)).toContain(`${dropped} restarts`);
    // The same story as when every attempt is kept (40 attempts: under the caps).
    const whole = buildJob([extract('node1.log', log(40).text)]);
    expect(notKept(whole)).toBeUndefined();
    expect(verdictOf(job)).toEqual(verdictOf(whole));
  });

  it('keeps the same events however the bytes arrive', () => {
    const { text } = log(150);
    const a = extract('node1.log', text, 1 << 20).streams[0]!.events;
    const b = extract('node1.log', text, 4093).streams[0]!.events;
    expect(b).toEqual(a);
  });
});

describe('a log appended to across hundreds of runs', () => {
  // The whole of a real torch 2.6 log (launch, rendezvous, init_process_group's timeout, tracebacks) again and
  // again, as the bench's repeated-startup input: each run begins with its own launch lines.
  const block = readFileSync(path.join(CORPUS, 'torch2.6-s9_static_pg_init_timeout20', 'node2.log'), 'utf8');

  it('is diagnosed as one of its runs, with what was left out counted', () => {
    const runs = 300;
    const job = buildJob([extract('node2.log', block.repeat(runs))]);
    const one = buildJob([extract('node2.log', block)]);
    expect(verdictOf(job)).toEqual(verdictOf(one));
    // A later run has one event fewer than the first: where torch is installed is said once per stream.
    const count = (k: number) => extract('node2.log', block.repeat(k)).streams[0]!.events.length;
    const perRun = count(3) - count(2);
    const note = notKept(job)!;
    expect(note.values).toMatchObject({ runs: runs - HEAD_RUNS - TAIL_RUNS, events: (runs - 64) * perRun });
    expect(job.nodes[0]!.events.length).toBeLessThan(64 * perRun);
    // The failure read is that of the last run.
    const lines = block.split('\n').length - 1;
    expect(job.failure!.limit!.evidence!.line).toBeGreaterThan((runs - 1) * lines);
  });
});

describe('a run that prints one line too many times', () => {
  // node1 of a real static run whose store was late: its connect error, retried 20,000 times in one run.
  const text = readFileSync(path.join(CORPUS, 'torch1.13-s2_static_timeout_node0_late', 'node1.log'), 'utf8');
  const lines = text.trimEnd().split('\n');
  const at = lines.findIndex((l) => l.includes('The client socket has timed out'));

  it('keeps its first and last events and counts the middle', () => {
    expect(at).toBeGreaterThan(0);
    const many = [...lines.slice(0, at + 1), ...Array<string>(20_000).fill(lines[at]!), ...lines.slice(at + 1)];
    const x = extract('node1.log', many.join('\n') + '\n');
    const events = x.streams[0]!.events;
    expect(events.length).toBeLessThanOrEqual(RUN_HEAD + RUN_TAIL + 1);
    const job = buildJob([x]);
    const one = buildJob([extract('node1.log', text)]);
    expect(verdictOf(job)).toEqual(verdictOf(one));
    const note = notKept(job)!;
    const kept = events.filter((e) => e.id !== NOT_KEPT_ID).length;
    // Every copy is one more event: the kept ones and the counted ones are all of them.
    const whole = extract('node1.log', text).streams[0]!.events.length;
    expect(Number(note.values.events) + kept).toBe(whole + 20_000);
    expect(note.values).toMatchObject({ runs: 0, failures: Number(note.values.events) });
  });
});

describe('an event of a very long line', () => {
  // A worker's real exception line (captured, torch 2.6) whose message runs on for 60,000 characters.
  const line = readFileSync(path.join(CAPTURED, 'torch2.6-c10d-restart-once-noshare', 'node1.log'), 'utf8')
    .split('\n')
    .find((l) => l.includes('RuntimeError: skewscope capture'))!;

  it('keeps 2,000 characters of its text and of each field, not the line', () => {
    const long = `${line} ${'after the first all_reduce '.repeat(2300)}`;
    expect(long.length).toBeGreaterThan(60_000);
    const x = extract('node1.log', `${line}\n${long}\n`);
    const [short, cut] = x.streams[0]!.events.filter((e) => e.id === 'python-exception');
    expect(short!.fields.detail).toBe('skewscope capture: injected failure after the first all_reduce');
    expect(cut!.text.length).toBeLessThanOrEqual(2002);
    expect(cut!.fields.detail!.length).toBeLessThanOrEqual(MAX_FIELD_CHARS + 2);
    expect(cut!.fields.detail!.startsWith(short!.fields.detail!)).toBe(true);
  });
});
