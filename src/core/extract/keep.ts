import { effectsOf } from '../catalogue';
import type { FailureStage, LogEvent } from '../model';

// What a stream keeps of its events. A log appended to across many runs, or a job that restarted thousands of
// times, repeats its startup block again and again: kept whole, 2 GB of it held 1.7 million events and ran the
// CLI out of memory. The diagnosis reads how the stream started (the launch config, the torch version) and how
// it ended (the last rounds, their failures), so a stream keeps its first runs and its last runs whole, and in
// between only counts what it leaves out. A run is the stretch from one torchrun launch (or one restart of the
// worker group) to the next; a run that prints too many events keeps its first and its last ones.
//
// What is left out is not lost silently: one marker event (`events-not-kept`) stands where it was, counting
// the events, runs, restarts and each kind of event it replaces, so attempts keep their numbers and the job
// says what it did not read. Below these caps (every real log seen so far: at most 38 events in 3 runs) nothing
// changes at all.

/** Runs kept from the start of a stream, as long as they hold fewer than HEAD_EVENTS events. */
export const HEAD_RUNS = 32;
export const HEAD_EVENTS = 4096;
/** Runs kept from the end of a stream, and the events they may hold (the last two runs are always kept). */
export const TAIL_RUNS = 32;
export const TAIL_EVENTS = 4096;
/** A run of more events keeps its first RUN_HEAD and its last RUN_TAIL. */
export const RUN_HEAD = 256;
export const RUN_TAIL = 256;
/** Kept events per stream at most (a run may reach RUN_HEAD + 2 × RUN_TAIL + 1 between two compactions). */
export const MAX_KEPT_EVENTS = HEAD_EVENTS + RUN_HEAD + 2 * RUN_TAIL + 1 + 2 * TAIL_EVENTS + 1;

export const NOT_KEPT_ID = 'events-not-kept';

/** Event text is cut to 2,000 characters (plus ` …`) by the extractor: longer, and the line was longer. */
const LONG_TEXT = 2000;
/** A field of an event from such a line is cut here too. */
export const MAX_FIELD_CHARS = 2000;

/** Kinds that show a run under way: a launch line after one of them starts the next run. */
const STARTED = new Set(['launch', 'info', 'fact']);

interface Run {
  events: LogEvent[];
  /** Part of the head: never left out whole. */
  pinned: boolean;
  /** Past its launch lines (a later launch line is another run). */
  progressed: boolean;
  /** Ended by a restart of the worker group: the next event starts the next run. */
  closed: boolean;
  /** What was left out of this run's middle (its marker stands at RUN_HEAD). */
  inner: Tally | null;
}

/** A marker and its counts, written into its fields when the stream ends (nothing reads them before). */
interface Tally {
  marker: LogEvent;
  events: number;
  runs: number;
  restarts: number;
  toLine: number;
  kinds: Map<string, number>;
}

export interface Keep {
  runs: Run[];
  /** What was left out between the head and the tail runs, once whole runs were. */
  gap: Tally | null;
  headOpen: boolean;
  headRuns: number;
  headEvents: number;
  tailRuns: number;
  tailEvents: number;
  /** Over every event of the stream, kept or not: an exit or a failure, the failure stages. */
  ended: boolean;
  stages: Set<FailureStage>;
}

export function newKeep(): Keep {
  return {
    runs: [],
    gap: null,
    headOpen: true,
    headRuns: 0,
    headEvents: 0,
    tailRuns: 0,
    tailEvents: 0,
    ended: false,
    stages: new Set(),
  };
}

interface Keeping {
  keep: Keep;
  x: { events: LogEvent[] };
}

/** Keep one more event of the stream (in line order), leaving out what the caps say. */
export function keepEvent(s: Keeping, ev: LogEvent): void {
  const k = s.keep;
  if (ev.text.length > LONG_TEXT) detach(ev);
  if (ev.kind === 'exit' || ev.kind === 'failure') k.ended = true;
  if (ev.stage) k.stages.add(ev.stage);
  let run = k.runs.at(-1);
  if (!run || run.closed || (ev.kind === 'launch' && run.progressed)) run = openRun(k);
  run.events.push(ev);
  s.x.events.push(ev);
  if (!STARTED.has(ev.kind)) run.progressed = true;
  if (effectsOf(ev.id).newAttempt) run.closed = true;
  if (run.pinned) k.headEvents++;
  else k.tailEvents++;
  // Compaction once a cap is passed twice over, down to the cap: each event is moved a bounded number of times.
  let changed = recent(run) > 2 * RUN_TAIL && foldRun(k, run);
  if (k.tailRuns > 2 * TAIL_RUNS || k.tailEvents > 2 * TAIL_EVENTS) changed = dropRuns(k) || changed;
  if (changed) s.x.events = flatten(k);
}

/** At the end of the stream: down to the caps, and the markers' counts written. */
export function settleKept(s: Keeping): void {
  const k = s.keep;
  let changed = false;
  for (const run of k.runs) if (recent(run) > RUN_TAIL) changed = foldRun(k, run) || changed;
  changed = dropRuns(k) || changed;
  if (changed) s.x.events = flatten(k);
  if (k.gap) write(k.gap);
  for (const run of k.runs) if (run.inner) write(run.inner);
}

/** The stream printed an exit or a failure before now, kept or not. */
export function everEnded(s: Keeping): boolean {
  return s.keep.ended;
}

/** The stream reported a failure in this stage, kept or not. */
export function sawStage(s: Keeping, stage: FailureStage): boolean {
  return s.keep.stages.has(stage);
}

/**
 * An event of a long line holds slices of it (its text, fields and clock texts point into the line, up to
 * 64 Ki characters): copies, fields cut, let the line go. Short lines cost their few hundred bytes either way.
 */
function detach(ev: LogEvent): void {
  ev.text = copy(ev.text);
  for (const [key, v] of Object.entries(ev.fields))
    ev.fields[key] = copy(v.length > MAX_FIELD_CHARS ? v.slice(0, MAX_FIELD_CHARS) + ' …' : v);
  ev.clocks = ev.clocks.map((c) => ({ ...c, text: copy(c.text) }));
}

/** A string that shares no storage with the one it copies (a slice would keep the whole line alive). */
function copy(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

function openRun(k: Keep): Run {
  const pinned = k.headOpen && k.headRuns < HEAD_RUNS && k.headEvents < HEAD_EVENTS;
  // The head is the first runs only: once one run is not pinned, none after it is.
  if (!pinned) k.headOpen = false;
  const run: Run = { events: [], pinned, progressed: false, closed: false, inner: null };
  k.runs.push(run);
  if (pinned) k.headRuns++;
  else k.tailRuns++;
  return run;
}

/** Events of a run after its first RUN_HEAD (and its marker). */
function recent(run: Run): number {
  return run.events.length - RUN_HEAD - (run.inner ? 1 : 0);
}

/** Leave out a run's middle: its first RUN_HEAD events stay, then the marker, then its last RUN_TAIL. */
function foldRun(k: Keep, run: Run): boolean {
  const from = RUN_HEAD + (run.inner ? 1 : 0);
  const to = run.events.length - RUN_TAIL;
  if (to <= from) return false;
  const fresh = run.inner === null;
  const t = (run.inner ??= newTally(run.events[from]!));
  for (let i = from; i < to; i++) count(t, run.events[i]!);
  run.events = [...run.events.slice(0, RUN_HEAD), t.marker, ...run.events.slice(to)];
  const dropped = to - from - (fresh ? 1 : 0);
  if (run.pinned) k.headEvents -= dropped;
  else k.tailEvents -= dropped;
  return true;
}

/** Leave out the oldest tail runs, whole, while there are more than TAIL_RUNS of them or TAIL_EVENTS events. */
function dropRuns(k: Keep): boolean {
  const first = k.runs.findIndex((r) => !r.pinned);
  if (first < 0) return false;
  let n = 0;
  let events = k.tailEvents;
  // The last two runs stay whatever their size: the one that ended (a restart's failure) and the one after.
  while ((k.tailRuns - n > TAIL_RUNS || events > TAIL_EVENTS) && k.tailRuns - n > 2) {
    events -= k.runs[first + n]!.events.length;
    n++;
  }
  if (n === 0) return false;
  for (const run of k.runs.splice(first, n)) {
    const t = (k.gap ??= newTally(run.events[0]!));
    for (const e of run.events) {
      if (e === run.inner?.marker) merge(t, run.inner);
      else count(t, e);
    }
    t.runs++;
  }
  k.tailRuns -= n;
  k.tailEvents = events;
  return true;
}

function flatten(k: Keep): LogEvent[] {
  const out: LogEvent[] = [];
  let gapDone = k.gap === null;
  for (const run of k.runs) {
    if (!gapDone && !run.pinned) {
      out.push(k.gap!.marker);
      gapDone = true;
    }
    for (const e of run.events) out.push(e);
  }
  if (!gapDone) out.push(k.gap!.marker);
  return out;
}

function newTally(at: LogEvent): Tally {
  const marker: LogEvent = {
    id: NOT_KEPT_ID,
    kind: 'info',
    file: at.file,
    line: at.line,
    text: '',
    clocks: [],
    fields: {},
  };
  return { marker, events: 0, runs: 0, restarts: 0, toLine: at.line, kinds: new Map() };
}

function count(t: Tally, e: LogEvent): void {
  t.events++;
  t.kinds.set(e.kind, (t.kinds.get(e.kind) ?? 0) + 1);
  if (effectsOf(e.id).newAttempt) t.restarts++;
  if (e.line > t.toLine) t.toLine = e.line;
}

function merge(t: Tally, u: Tally): void {
  t.events += u.events;
  t.restarts += u.restarts;
  for (const [kind, n] of u.kinds) t.kinds.set(kind, (t.kinds.get(kind) ?? 0) + n);
  if (u.toLine > t.toLine) t.toLine = u.toLine;
}

/** The counts as the marker's fields (strings, like every event's) and its text. */
function write(t: Tally): void {
  const f: Record<string, string> = {
    events: String(t.events),
    runs: String(t.runs),
    restarts: String(t.restarts),
    toLine: String(t.toLine),
  };
  for (const [kind, n] of t.kinds) f[`kind.${kind}`] = String(n);
  t.marker.fields = f;
  t.marker.text = `(${t.events} events not kept, lines ${t.marker.line}–${t.toLine})`;
}

/** What a marker says it replaces. */
export interface NotKept {
  file: string;
  from: number;
  to: number;
  events: number;
  runs: number;
  restarts: number;
  byKind: Record<string, number>;
}

export function notKeptOf(e: LogEvent): NotKept | null {
  if (e.id !== NOT_KEPT_ID) return null;
  const byKind: Record<string, number> = {};
  for (const [key, v] of Object.entries(e.fields)) if (key.startsWith('kind.')) byKind[key.slice(5)] = Number(v);
  const num = (v: string | undefined) => (Number.isSafeInteger(Number(v)) ? Number(v) : 0);
  return {
    file: e.file,
    from: e.line,
    to: num(e.fields.toLine),
    events: num(e.fields.events),
    runs: num(e.fields.runs),
    restarts: num(e.fields.restarts),
    byKind,
  };
}
