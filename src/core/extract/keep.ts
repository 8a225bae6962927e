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
  /** The marker inside this run (at RUN_HEAD), once its middle was left out. */
  inner: LogEvent | null;
}

export interface Keep {
  runs: Run[];
  /** The marker between the head and the tail runs, once whole runs were left out. */
  gap: LogEvent | null;
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
  // Compaction only when a cap is passed twice over: amortised, each event is moved a bounded number of times.
  let changed = foldRun(k, run, 2 * RUN_TAIL);
  changed = dropRuns(k, 2 * TAIL_RUNS, 2 * TAIL_EVENTS) || changed;
  if (changed) s.x.events = flatten(k);
}

/** At the end of the stream: down to the caps exactly, so what is kept does not depend on when compaction ran. */
export function settleKept(s: Keeping): void {
  const k = s.keep;
  let changed = false;
  for (const run of k.runs) changed = foldRun(k, run, RUN_TAIL) || changed;
  changed = dropRuns(k, TAIL_RUNS, TAIL_EVENTS) || changed;
  if (changed) s.x.events = flatten(k);
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

/** Leave out a run's middle: its first RUN_HEAD events stay, then the marker, then its last `tail` events. */
function foldRun(k: Keep, run: Run, tail: number): boolean {
  const from = RUN_HEAD + (run.inner ? 1 : 0);
  const recent = run.events.length - from;
  if (recent <= tail) return false;
  const out = run.events.slice(from, run.events.length - tail);
  const marker = run.inner ?? newMarker(out[0]!);
  for (const e of out) absorb(marker, e);
  run.events = [...run.events.slice(0, RUN_HEAD), marker, ...run.events.slice(run.events.length - tail)];
  run.inner = marker;
  const dropped = out.length - (from > RUN_HEAD ? 0 : 1);
  if (run.pinned) k.headEvents -= dropped;
  else k.tailEvents -= dropped;
  return true;
}

/** Leave out the oldest tail runs, whole, while there are more than `runs` of them or `events` events. */
function dropRuns(k: Keep, runs: number, events: number): boolean {
  let changed = false;
  const first = k.runs.findIndex((r) => !r.pinned);
  if (first < 0) return false;
  while ((k.tailRuns > runs || k.tailEvents > events) && k.tailRuns > 2) {
    const [run] = k.runs.splice(first, 1);
    k.gap ??= newMarker(run!.events[0]!);
    for (const e of run!.events) absorb(k.gap, e);
    bump(k.gap, 'runs', 1);
    k.tailRuns--;
    k.tailEvents -= run!.events.length;
    changed = true;
  }
  return changed;
}

function flatten(k: Keep): LogEvent[] {
  const out: LogEvent[] = [];
  let gapDone = k.gap === null;
  for (const run of k.runs) {
    if (!gapDone && !run.pinned) {
      out.push(k.gap!);
      gapDone = true;
    }
    for (const e of run.events) out.push(e);
  }
  if (!gapDone) out.push(k.gap!);
  return out;
}

function newMarker(at: LogEvent): LogEvent {
  return {
    id: NOT_KEPT_ID,
    kind: 'info',
    file: at.file,
    line: at.line,
    text: '',
    clocks: [],
    fields: { events: '0', runs: '0', restarts: '0', toLine: String(at.line) },
  };
}

function bump(m: LogEvent, key: string, by: number): void {
  m.fields[key] = String(Number(m.fields[key] ?? 0) + by);
}

/** Count one left-out event (or merge a marker's counts) into a marker. */
function absorb(m: LogEvent, e: LogEvent): void {
  if (e.id === NOT_KEPT_ID) {
    for (const [key, v] of Object.entries(e.fields)) if (key !== 'toLine' && key !== 'runs') bump(m, key, Number(v));
  } else {
    bump(m, 'events', 1);
    bump(m, `kind.${e.kind}`, 1);
    if (effectsOf(e.id).newAttempt) bump(m, 'restarts', 1);
  }
  const to = e.id === NOT_KEPT_ID ? Number(e.fields.toLine) : e.line;
  if (to > Number(m.fields.toLine)) m.fields.toLine = String(to);
  m.text = `(${m.fields.events} events not kept, lines ${m.line}–${m.fields.toLine})`;
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
