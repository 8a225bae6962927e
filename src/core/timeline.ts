import { sentence, type Sentence } from '../i18n/sentence';
import { effectsOf } from './catalogue';
import { betterLogsAdvice } from './advice';
import type { FailureStage, JobModel, JobNode, NodeEvent } from './model';
import { boundedCount, boundedSeconds, maxOf, minOf } from './numbers';
import { versionOf, type ClockStart, type LimitId, type LimitInForce } from './thresholds';

// The startup timeline every view draws: per node the phases it went through (with start and end instants on
// the job clock, in ms since the epoch), markers for its launch, failures, errors and exits, where each limit
// falls on the time axis, and — for nodes whose logs carry no usable time — why they cannot be placed and
// what their text says about durations. Pure data, no DOM.
//
// Lines without a time (Python tracebacks, ChildFailedError summaries) are placed approximately when they
// matter: from a duration their text states, from the timeout that fired, from the store host's end (a lost
// connection), or between the timed lines around them. Each such instant says `timing: 'estimated'` and why.
// What the timeline says in words (how an instant was placed, why a node is not placed, what it could not do)
// are sentences the views word (src/i18n/<lang>/core.ts); limits and phases are ids the views name.

export type PhaseKind =
  | 'pre-launch'
  | 'rendezvous'
  | 'rank-assignment'
  | 'workers-starting'
  | 'running'
  /** Workers started, but no timed line says when init_process_group finished: start-up and running in one. */
  | 'workers'
  /** Workers finished; the agent waits for the others (exit barrier). */
  | 'finishing';

/** How an instant was obtained: printed on the line, derived by the analysis from a stated wait, or estimated here. */
export type Timing = 'line' | 'derived' | 'estimated';

export interface TimelineEvidence {
  file: string;
  line: number;
  text: string;
}

export interface TimelinePhase {
  kind: PhaseKind;
  startMs: number;
  endMs: number;
  startTiming: Timing;
  endTiming: Timing;
  /** What ended it: the next phase began, the node's failure, its workers' exit, or its log just stops. */
  end: 'next' | 'failure' | 'exit' | 'log-end';
  /** The node's failure stage, when the phase ended in it. */
  stage: FailureStage | null;
  startEvidence: TimelineEvidence;
  endEvidence: TimelineEvidence | null;
  /** How an end was derived or estimated, or what the node did in it (pre-launch work). */
  note: Sentence | null;
}

export type MarkerKind = 'launch' | 'failure' | 'error' | 'restart' | 'exit' | 'ready';

export interface TimelineMarker {
  kind: MarkerKind;
  /** Catalogue entry id (`src/core/catalogue.ts`). */
  id: string;
  atMs: number;
  timing: Timing;
  /** How the instant was placed, when no line gave it. */
  note: Sentence | null;
  stage: FailureStage | null;
  evidence: TimelineEvidence;
  /** The same entry at the same instant on this node, folded into this marker. */
  count: number;
  /** Global rank when the line names one (`[rank3]:`, `Rank 3:`, `[default1]:` with known global ranks). */
  rank: number | null;
  /** This is the node's own failure, the one the diagnosis reports for it. */
  own: boolean;
}

/** A per-node limit drawn in one row: where that node's clock for it started and where it runs out. */
export interface LimitTick {
  line: string;
  anchorMs: number;
  atMs: number;
}

/** One worker's lane under its node, when the lines name ranks. */
export interface TimelineLane {
  /** `rank 4` or `local rank 1`: tells lanes apart (the views name them from `rank` and `localRank`). */
  label: string;
  rank: number | null;
  localRank: number | null;
  phases: TimelinePhase[];
  markers: TimelineMarker[];
}

interface RowBase {
  node: string;
  hostname: string | null;
  groupRank: number | null;
  lagSeconds: number | null;
  isStoreHost: boolean;
  isLate: boolean;
  failureStage: FailureStage | null;
}

export interface PlacedRow extends RowBase {
  placed: true;
  startMs: number;
  endMs: number;
  launchMs: number | null;
  phases: TimelinePhase[];
  markers: TimelineMarker[];
  ticks: LimitTick[];
  lanes: TimelineLane[];
  /** Failure/error lines that could not be placed even approximately. */
  untimedEvents: number;
  /** What is missing from this row (e.g. no launch time, only worker lines carry times). */
  gaps: Sentence[];
}

export interface StatedDuration {
  seconds: number;
  /** The words of the line that state it, e.g. `timed out after 30s`. */
  phrase: string;
  /** The phrase with a few words before it, e.g. `…init_process_group done after 1.04s`. */
  context: string;
  evidence: TimelineEvidence;
}

export interface UnplacedRow extends RowBase {
  placed: false;
  /** Why the node has no place on the time axis. */
  reason: Sentence;
  /** What its text says about durations (timeouts, waits, elapsed times). */
  says: StatedDuration[];
  /** Its own failure line, if any. */
  failure: TimelineEvidence | null;
  /** The limit its failure stage runs into, per the limits in force. */
  limit: { id: LimitId; seconds: number } | null;
}

export type TimelineRow = PlacedRow | UnplacedRow;

export interface ThresholdLine {
  key: string;
  /** The limits this line stands for (empty for a bare 300/900/1800 s reference). */
  ids: LimitId[];
  seconds: number;
  /** `limit`: in force for this job; `recommended`: our advice; `reference`: the fixed 300/900/1800 s marks. */
  kind: 'limit' | 'recommended' | 'reference';
  /** Where the value came from, for limits: the logs or this version's default. */
  from: 'logs' | 'inferred' | 'default' | 'recommendation' | 'reference';
  clockStarts: ClockStart;
  /** One line for the whole job (counted from the earliest launch), or one tick per node. */
  anchor: 'job' | 'node';
  /** Job-wide position; null when per node or when there is no launch to count from. */
  atMs: number | null;
  /** Per-node positions (anchor `node`). */
  perNode: { node: string; anchorMs: number; atMs: number }[];
  evidence: TimelineEvidence | null;
}

export interface TimelineModel {
  /** The instant the axis counts from: the earliest launch (or, without launches, the earliest time seen). */
  originMs: number | null;
  originNode: string | null;
  originWhat: 'launch' | 'first-time' | null;
  /** Extent of everything placed. */
  startMs: number | null;
  endMs: number | null;
  /** In the job's node order. */
  rows: TimelineRow[];
  thresholds: ThresholdLine[];
  /** What the timeline could not do or assumed. */
  notes: TimelineNote[];
  /** How to capture times next time (a command line). */
  captureHint: string;
  /** True when some row has rank lanes. */
  hasLanes: boolean;
}

/** The fixed reference marks every timeline shows: 300 s (the ≤ 2.3 rank-assignment wait, exit barrier), 900 s, 1800 s. */
export const REFERENCE_SECONDS = [300, 900, 1800] as const;

/** A note about the whole timeline; `unplaced` says it is about nodes without a place (the views show those apart). */
export interface TimelineNote {
  sentence: Sentence;
  unplaced: boolean;
}

/** Pre-launch work shorter than this is start-up noise, not a phase. */
const PRELAUNCH_MIN_MS = 500;
const RDZV_STAGES: FailureStage[] = [
  'store-connect',
  'rendezvous-connection',
  'rendezvous-timeout',
  'rendezvous-closed',
];
/** The store host went away under this node: the catalogue says a message lost the store (a communicator's
 * peer closing is another rank, not the store host). */
const lostStore = (id: string) => {
  const fx = effectsOf(id);
  return fx.store === 'lost' && fx.comm === undefined;
};

interface Timed {
  ms: number;
  timing: Timing;
  note: Sentence | null;
}

interface Anchors {
  launch: number | null;
  rdzvBegin: number | null;
  rdzvComplete: number | null;
  workersStarted: number | null;
  exit: number | null;
}

const msOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

const evidenceOf = (e: { file: string; line: number; text: string }): TimelineEvidence => ({
  file: e.file,
  line: e.line,
  text: e.text,
});

/** The wall-clock part of an instant for a sentence; '?' where no Date can hold it (never a throw in a render). */
const clock = (ms: number) =>
  Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString().slice(11, 23) : '?';

/** Seconds as a sentence writes them: to the millisecond, as typed (`1800`, not `1,800`). */
const round = (s: number) => String(Math.round(s * 1000) / 1000);

/** Durations a line states: `after 31 seconds`, `after 20000ms`, `timeout=30000ms`, `Timeout(ms)=600000`, `0:30:00`. */
export function statedDurations(text: string): { seconds: number; phrase: string; context: string }[] {
  const out: { seconds: number; phrase: string; context: string }[] = [];
  // The numbers are the line's text: a duration past a year (`after 99999999999999999999 seconds`) is not placed.
  const unit = (n: string, u: string) => boundedSeconds(n, /^m/i.test(u) ? 'ms' : 's');
  const add = (seconds: number | null, m: RegExpMatchArray) => {
    const phrase = m[0];
    if (seconds === null || out.some((o) => o.phrase === phrase)) return;
    const at = m.index ?? 0;
    let before = text.slice(Math.max(0, at - 40), at);
    if (at > 40) before = `…${before.replace(/^\S*\s/, '')}`;
    out.push({ seconds, phrase, context: `${before}${phrase}`.trim() });
  };
  for (const m of text.matchAll(
    /\b(?:timed out after|timeout after|after|Elapsed:?|waited)\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|seconds?|secs?|s)\b/gi,
  ))
    add(unit(m[1]!, m[2]!), m);
  for (const m of text.matchAll(/\btimeout[=:]\s*(\d+(?:\.\d+)?)\s*(ms|s)\b/gi)) add(unit(m[1]!, m[2]!), m);
  for (const m of text.matchAll(/Timeout\(ms\)=(\d+)/g)) add(boundedSeconds(m[1], 'ms'), m);
  for (const m of text.matchAll(/\btimeout=(\d+):(\d\d):(\d\d)\b/g)) {
    const hours = boundedSeconds(m[1], 's');
    add(hours === null ? null : boundedSeconds(String(hours * 3600 + Number(m[2]) * 60 + Number(m[3])), 's'), m);
  }
  return out;
}

/**
 * The global rank (or the local rank) of an event: from the `[rankN]:` / `[default0]:` prefixes the core read,
 * else from the training script's own words (`[rank2] worker started…`, `Rank 4: Completed…`).
 */
export function rankOfLine(
  e: Pick<NodeEvent, 'text' | 'ranks' | 'localRank'>,
  globalRanks: number[],
): { rank: number | null; localRank: number | null } | null {
  if (e.ranks?.length) return { rank: e.ranks[0]!, localRank: e.localRank ?? null };
  if (e.localRank !== undefined) return { rank: globalRanks[e.localRank] ?? null, localRank: e.localRank };
  // A rank no job has (`[rank99999999999999]`) names no lane: one lane per distinct rank stays bounded.
  const g = /\[rank ?(\d+)\]/.exec(e.text) ?? /\bRank (\d+):/.exec(e.text);
  const rank = g ? boundedCount(g[1]) : null;
  if (rank !== null) return { rank, localRank: null };
  const l = /\blocal_rank:? ?(\d+)/.exec(e.text);
  const local = l ? boundedCount(l[1]) : null;
  if (local !== null) return { rank: globalRanks[local] ?? null, localRank: local };
  return null;
}

function markerKind(e: NodeEvent): MarkerKind | null {
  switch (e.kind) {
    case 'failure':
    case 'error':
    case 'restart':
    case 'exit':
      return e.kind;
    case 'pg-ready':
      return 'ready';
    default:
      return null;
  }
}

function ownFailure(n: JobNode): NodeEvent | undefined {
  return n.events.filter((e) => e.stage !== undefined && e.stage === n.failureStage).at(-1);
}

function limitForStage(stage: FailureStage | null, limits: LimitInForce[]): LimitInForce | undefined {
  if (!stage) return undefined;
  const applying = limits.filter((l) => l.applies);
  const find = (...ids: LimitId[]) => ids.map((id) => applying.find((l) => l.id === id)).find(Boolean);
  switch (stage) {
    case 'store-connect':
      return find('rdzv-timeout', 'read-timeout');
    case 'rendezvous-connection':
      return find('read-timeout', 'join-timeout');
    case 'rendezvous-timeout':
    case 'rendezvous-closed':
      return find('rdzv-timeout', 'join-timeout');
    case 'rank-assignment':
      return find('store-sync');
    case 'pg-init':
      return find('pg-init');
    case 'comm-init':
      return find('hccl-connect', 'pg-init');
    case 'exit-barrier':
      return find('exit-barrier');
    default:
      return undefined;
  }
}

function unplacedReason(job: JobModel, n: JobNode): Sentence {
  const labelled = n.identity.some((h) => h.kind === 'label');
  const v = versionOf(job);
  if (labelled) return sentence('tl.unplaced.labelled');
  if (n.events.length === 0) return sentence('tl.unplaced.noLines');
  if (v !== null && v >= 2.01) return sentence('tl.unplaced.noTime');
  return sentence('tl.unplaced.oldTorch');
}

interface Built {
  row: PlacedRow;
  anchors: Anchors;
}

/** Builds the timeline model from the job and its limits in force (`diagnosis.thresholds`). */
export function buildTimeline(job: JobModel, limits: LimitInForce[]): TimelineModel {
  const late = new Set(job.failure?.lateNodes ?? []);
  const notes: TimelineNote[] = [];
  const note = (s: Sentence, unplaced = false) => notes.push({ sentence: s, unplaced });
  const launches = job.nodes
    .map((n) => ({ n, ms: msOf(n.launchTime) }))
    .filter((x): x is { n: JobNode; ms: number } => x.ms !== null);
  const earliest = launches.reduce<{ n: JobNode; ms: number } | null>((a, b) => (a && a.ms <= b.ms ? a : b), null);

  const base = (n: JobNode): RowBase => ({
    node: n.id,
    hostname: n.hostname,
    groupRank: n.groupRank,
    lagSeconds: n.lagSeconds,
    isStoreHost: n.isStoreHost,
    isLate: late.has(n.id),
    failureStage: n.failureStage,
  });

  // The store host first: other nodes' lost connections are placed at its end.
  const order = [...job.nodes].sort((a, b) => Number(b.isStoreHost) - Number(a.isStoreHost));
  const built = new Map<string, Built>();
  let hostEnd: { ms: number; node: string } | null = null;
  for (const n of order) {
    const b = buildRow(job, n, base(n), hostEnd);
    if (b) {
      built.set(n.id, b);
      if (n.isStoreHost) hostEnd = { ms: b.row.endMs, node: n.id };
    }
  }

  const rows: TimelineRow[] = job.nodes.map((n) => {
    const b = built.get(n.id);
    if (b) return b.row;
    const own = ownFailure(n);
    const says: StatedDuration[] = [];
    for (const e of n.events)
      for (const d of statedDurations(e.text))
        if (!says.some((s) => s.phrase === d.phrase) && says.length < 4) says.push({ ...d, evidence: evidenceOf(e) });
    const lim = limitForStage(n.failureStage, limits);
    return {
      ...base(n),
      placed: false,
      reason: unplacedReason(job, n),
      says,
      failure: own ? evidenceOf(own) : null,
      limit: lim ? { id: lim.id, seconds: lim.seconds } : null,
    };
  });

  const placed = rows.filter((r): r is PlacedRow => r.placed);
  const startMs = placed.length ? minOf(placed.map((r) => r.startMs)) : null;
  const originMs = earliest?.ms ?? startMs;
  const endMs = placed.length ? maxOf(placed.map((r) => r.endMs)) : null;

  const thresholds = thresholdLines(limits, earliest, built);
  for (const t of thresholds)
    if (t.anchor === 'node')
      for (const p of t.perNode) built.get(p.node)?.row.ticks.push({ line: t.key, anchorMs: p.anchorMs, atMs: p.atMs });

  const unplaced = rows.length - placed.length;
  if (unplaced > 0)
    note(
      unplaced === rows.length
        ? sentence('tl.note.noneUnplaced')
        : sentence('tl.note.someUnplaced', { n: unplaced, total: rows.length }),
      true,
    );
  if (placed.some((r) => r.launchMs === null)) note(sentence('tl.note.workerTimesOnly'));
  if (!earliest && placed.length) note(sentence('tl.note.noLaunch'));
  for (const o of job.clockOffsets)
    if (!o.applied) {
      const by = { node: o.node, s: String(Math.abs(o.offsetSeconds)), bound: String(o.boundSeconds) };
      note(sentence(o.offsetSeconds > 0 ? 'tl.note.clockAhead' : 'tl.note.clockBehind', by));
    }
  if (
    placed.some((r) =>
      [...r.markers, ...r.phases.map((p) => ({ timing: p.endTiming }))].some((x) => x.timing === 'estimated'),
    )
  )
    note(sentence('tl.note.estimated'));

  return {
    originMs,
    originNode: earliest?.n.id ?? null,
    originWhat: earliest ? 'launch' : originMs !== null ? 'first-time' : null,
    startMs,
    endMs,
    rows,
    thresholds,
    notes,
    captureHint: betterLogsAdvice(job).command ?? '',
    hasLanes: placed.some((r) => r.lanes.length > 0),
  };
}

function buildRow(
  job: JobModel,
  n: JobNode,
  rowBase: RowBase,
  hostEnd: { ms: number; node: string } | null,
): Built | null {
  const timedOf = (e: NodeEvent): number | null => msOf(e.time);
  const first = (kind: NodeEvent['kind']) => n.events.find((e) => e.kind === kind && timedOf(e) !== null);
  const launchEvent =
    n.events.find((e) => e.id === 'derived-launch') ?? n.events.find((e) => e.kind === 'launch' && e.time !== null);
  const launchMs = msOf(n.launchTime);
  const begin = first('rendezvous-begin');
  const complete = first('rendezvous-complete');
  const started = first('workers-started');
  const exits = n.events.filter((e) => e.kind === 'exit' && timedOf(e) !== null);
  const anchors: Anchors = {
    launch: launchMs,
    rdzvBegin: begin ? timedOf(begin) : launchMs,
    rdzvComplete: complete ? timedOf(complete) : null,
    workersStarted: started ? timedOf(started) : null,
    exit: exits.length ? timedOf(exits[0]!) : null,
  };

  // Timed instants in each file by line, to bound lines without a time.
  const byFile = new Map<string, { line: number; ms: number; where: string }[]>();
  const addTimed = (file: string, line: number, ms: number | null) => {
    if (ms === null) return;
    const list = byFile.get(file) ?? [];
    list.push({ line, ms, where: `${file}:${line}` });
    byFile.set(file, list);
  };
  for (const e of n.events) addTimed(e.file, e.line, timedOf(e));
  if (n.firstLine) addTimed(n.firstLine.file, n.firstLine.line, msOf(n.firstLine.time));
  if (n.lastLine) addTimed(n.lastLine.file, n.lastLine.line, msOf(n.lastLine.time));
  if (byFile.size === 0) return null;

  const failureTimeout =
    job.failure && job.failure.timeoutSeconds !== null
      ? { stage: job.failure.stage, s: job.failure.timeoutSeconds }
      : null;

  const bounds = new Map<string, Bounds>();
  const estimate = (e: NodeEvent): Timed | null => {
    let b = bounds.get(e.file);
    if (!b) bounds.set(e.file, (b = boundsOf(byFile.get(e.file) ?? [])));
    const { before, after } = b.around(e.line);
    let candidate: { ms: number; note: Sentence } | null = null;
    const stageBase = baseFor(e.stage ?? null, anchors);
    const stated = statedDurations(e.text)[0];
    if (stated && stageBase) {
      candidate = {
        ms: stageBase.ms + stated.seconds * 1000,
        note: sentence('tl.at.stated', {
          s: round(stated.seconds),
          base: stageBase.what,
          clock: clock(stageBase.ms),
          phrase: stated.phrase,
        }),
      };
    } else if (e.kind === 'failure' && failureTimeout && e.stage === failureTimeout.stage && stageBase) {
      candidate = {
        ms: stageBase.ms + failureTimeout.s * 1000,
        note: sentence('tl.at.timeout', {
          s: String(failureTimeout.s),
          base: stageBase.what,
          clock: clock(stageBase.ms),
        }),
      };
    } else if (!n.isStoreHost && hostEnd && lostStore(e.id)) {
      candidate = {
        ms: hostEnd.ms,
        note: sentence('tl.at.hostStopped', { host: hostEnd.node, clock: clock(hostEnd.ms) }),
      };
    }
    const follows = (t: TimedLine): Timed => ({
      ms: t.ms,
      timing: 'estimated',
      note: sentence('tl.at.follows', { where: t.where, clock: clock(t.ms) }),
    });
    const precedes = (t: TimedLine): Timed => ({
      ms: t.ms,
      timing: 'estimated',
      note: sentence('tl.at.precedes', { where: t.where, clock: clock(t.ms) }),
    });
    if (candidate) {
      if (before && candidate.ms < before.ms) return follows(before);
      if (after && candidate.ms > after.ms) return precedes(after);
      return { ms: candidate.ms, timing: 'estimated', note: candidate.note };
    }
    if (before) return follows(before);
    if (after) return precedes(after);
    return null;
  };

  const own = ownFailure(n);
  const markers: TimelineMarker[] = [];
  const laneMarkers: { m: TimelineMarker; rank: number | null; localRank: number | null }[] = [];
  let untimedEvents = 0;
  // Markers of one entry at one instant fold into one: found by key, so 200,000 distinct markers stay linear.
  const folded = new Map<TimelineMarker[], Map<string, TimelineMarker>>();
  const fold = (list: TimelineMarker[], m: TimelineMarker) => {
    let byKey = folded.get(list);
    if (!byKey) folded.set(list, (byKey = new Map()));
    const key = `${m.id}\n${m.atMs}\n${m.timing}\n${m.rank}`;
    const same = byKey.get(key);
    if (!same) byKey.set(key, m);
    if (same) {
      same.count += 1;
      same.own ||= m.own;
    } else list.push(m);
  };

  if (launchMs !== null && launchEvent) {
    const derived = launchEvent.timeFrom === 'derived' || launchEvent.time === null;
    fold(markers, {
      kind: 'launch',
      id: launchEvent.id,
      atMs: launchMs,
      timing: derived ? 'derived' : 'line',
      note: derived ? sentence('tl.at.launchDerived') : null,
      stage: null,
      evidence: evidenceOf(launchEvent),
      count: 1,
      rank: null,
      own: false,
    });
  }
  for (const e of n.events) {
    const kind = markerKind(e);
    if (!kind) continue;
    const t = timedOf(e);
    let at: Timed | null =
      t !== null ? { ms: t, timing: e.timeFrom === 'derived' ? 'derived' : 'line', note: null } : null;
    if (!at && kind !== 'ready') at = estimate(e);
    const who = rankOfLine(e, n.globalRanks);
    if (!at) {
      if (kind !== 'ready') untimedEvents += 1;
      continue;
    }
    const m: TimelineMarker = {
      kind,
      id: e.id,
      atMs: at.ms,
      timing: at.timing,
      note: at.note,
      stage: e.stage ?? null,
      evidence: evidenceOf(e),
      count: 1,
      rank: who?.rank ?? null,
      own: e === own,
    };
    if (who) laneMarkers.push({ m: { ...m }, rank: who.rank, localRank: who.localRank });
    if (kind !== 'ready') fold(markers, m);
  }
  markers.sort((a, b) => a.atMs - b.atMs);

  const instants = [...byFile.values()].flat().map((t) => t.ms);
  for (const m of markers) instants.push(m.atMs);
  // Loops, not Math.min(...xs): a node with 200,000 events has more instants than a call takes arguments.
  const startMs = Math.min(minOf(instants), launchMs ?? Infinity);
  const lastMs = maxOf(instants);
  const lastMarker = markers.filter((m) => m.kind !== 'launch').at(-1);
  const endIsEstimated = lastMarker !== undefined && lastMarker.atMs >= lastMs && lastMarker.timing === 'estimated';
  const endEv: { ev: TimelineEvidence; timing: Timing; note: Sentence | null } = (() => {
    if (lastMarker && lastMarker.atMs >= lastMs)
      return { ev: lastMarker.evidence, timing: lastMarker.timing, note: lastMarker.note };
    const all = [...byFile.entries()].flatMap(([file, l]) => l.map((t) => ({ ...t, file })));
    const last = all.sort((a, b) => b.ms - a.ms)[0]!;
    const ev =
      n.events.find((e) => e.file === last.file && e.line === last.line) ??
      (n.lastLine && n.lastLine.line === last.line ? n.lastLine : null);
    return { ev: ev ? evidenceOf(ev) : { file: last.file, line: last.line, text: '' }, timing: 'line', note: null };
  })();

  const gaps: Sentence[] = [];
  const phases: TimelinePhase[] = [];
  const endedBy = lastMarker && lastMarker.atMs >= lastMs ? lastMarker : undefined;
  const endStage = n.failureStage ?? (endedBy?.kind === 'failure' || endedBy?.kind === 'error' ? endedBy.stage : null);
  const endKind: TimelinePhase['end'] =
    n.failureStage || endedBy?.kind === 'failure' || endedBy?.kind === 'error'
      ? 'failure'
      : exits.length
        ? 'exit'
        : 'log-end';
  if (launchMs === null) {
    gaps.push(sentence('tl.gap.noLaunch'));
  } else {
    const launchEv = evidenceOf(launchEvent ?? n.events[0]!);
    const launchTiming: Timing = launchEvent?.timeFrom === 'derived' ? 'derived' : 'line';
    const firstMs = msOf(n.firstLine?.time);
    if (firstMs !== null && n.firstLine && launchMs - firstMs >= PRELAUNCH_MIN_MS) {
      const activity = n.events.filter((e) => effectsOf(e.id).prelaunch === true).map((e) => e.text);
      phases.push({
        kind: 'pre-launch',
        startMs: firstMs,
        endMs: launchMs,
        startTiming: 'line',
        endTiming: launchTiming,
        end: 'next',
        stage: null,
        startEvidence: evidenceOf(n.firstLine),
        endEvidence: launchEv,
        note: activity.length
          ? sentence('tl.prelaunch.work', { text: activity[0]!.replace(/^\S+Z\s+/, '').slice(0, 120) })
          : sentence('tl.prelaunch.busy'),
      });
    }
    // Each boundary the node reached with a time; the phase before a missing boundary runs to the node's end.
    type Step = { kind: PhaseKind; at: number; timing: Timing; ev: TimelineEvidence };
    const steps: Step[] = [{ kind: 'rendezvous', at: launchMs, timing: launchTiming, ev: launchEv }];
    const push = (kind: PhaseKind, e: NodeEvent | undefined) => {
      const t = e ? timedOf(e) : null;
      if (e && t !== null) steps.push({ kind, at: Math.max(t, steps.at(-1)!.at), timing: 'line', ev: evidenceOf(e) });
    };
    push('rank-assignment', complete);
    push('workers-starting', started);
    if (started) {
      const ready = n.events.filter((e) => (e.kind === 'pg-ready' || e.kind === 'first-step') && timedOf(e) !== null);
      const readyAt = ready.length ? maxOf(ready.map((e) => timedOf(e)!)) : null;
      const readyEv = ready.find((e) => timedOf(e) === readyAt);
      if (readyEv) push('running', readyEv);
      else if (n.events.some((e) => e.kind === 'pg-ready' || e.kind === 'first-step' || e.kind === 'exit')) {
        steps[steps.length - 1]!.kind = 'workers';
        gaps.push(sentence('tl.gap.pgUnknown'));
      }
    }
    const exitAt = anchors.exit;
    if (exitAt !== null && exits[0] && exitAt > steps.at(-1)!.at) {
      steps.push({ kind: 'finishing', at: exitAt, timing: 'line', ev: evidenceOf(exits[0]) });
    }
    const finalMs = Math.max(lastMs, steps.at(-1)!.at);
    steps.forEach((s, i) => {
      const next = steps[i + 1];
      phases.push({
        kind: s.kind,
        startMs: s.at,
        endMs: next ? next.at : finalMs,
        startTiming: s.timing,
        endTiming: next ? next.timing : endIsEstimated ? 'estimated' : endEv.timing,
        end: next ? 'next' : s.kind === 'finishing' ? 'exit' : endKind,
        stage: next ? null : endStage,
        startEvidence: s.ev,
        endEvidence: next ? next.ev : endEv.ev,
        note: next ? null : endIsEstimated ? endEv.note : null,
      });
    });
  }

  // Lanes, one per rank a line names.
  const lanes: TimelineLane[] = [];
  for (const { m, rank, localRank } of laneMarkers) {
    const label = rank !== null ? `rank ${rank}` : `local rank ${localRank}`;
    let lane = lanes.find((l) => l.label === label);
    if (!lane) {
      lane = { label, rank, localRank, phases: [], markers: [] };
      lanes.push(lane);
    }
    fold(lane.markers, m);
  }
  const runningEnd = phases.at(-1)?.endMs ?? lastMs;
  for (const lane of lanes) {
    lane.markers.sort((a, b) => a.atMs - b.atMs);
    const ready = lane.markers.find((m) => m.kind === 'ready' && m.timing !== 'estimated');
    const ws = anchors.workersStarted;
    if (ready && ws !== null && started) {
      lane.phases.push({
        kind: 'workers-starting',
        startMs: ws,
        endMs: Math.max(ws, ready.atMs),
        startTiming: 'line',
        endTiming: ready.timing,
        end: 'next',
        stage: null,
        startEvidence: evidenceOf(started),
        endEvidence: ready.evidence,
        note: null,
      });
      lane.phases.push({
        kind: 'running',
        startMs: Math.max(ws, ready.atMs),
        endMs: Math.max(ready.atMs, runningEnd),
        startTiming: ready.timing,
        endTiming: phases.at(-1)?.endTiming ?? 'line',
        end: endKind,
        stage: endStage,
        startEvidence: ready.evidence,
        endEvidence: phases.at(-1)?.endEvidence ?? null,
        note: null,
      });
    }
  }
  lanes.sort((a, b) => (a.rank ?? a.localRank ?? 0) - (b.rank ?? b.localRank ?? 0));

  const endMs = Math.max(lastMs, maxOf(phases.map((p) => p.endMs)));
  return {
    anchors,
    row: {
      ...rowBase,
      placed: true,
      startMs: Math.min(startMs, minOf(phases.map((p) => p.startMs))),
      endMs,
      launchMs,
      phases,
      markers,
      ticks: [],
      lanes: lanes.some((l) => l.markers.length > 0) ? lanes : [],
      untimedEvents,
      gaps,
    },
  };
}

interface TimedLine {
  line: number;
  ms: number;
  where: string;
}

interface Bounds {
  /** The latest timed line above `line` and the earliest below it (first listed among equal instants). */
  around(line: number): { before: TimedLine | undefined; after: TimedLine | undefined };
}

/**
 * What bounds an untimed line: the timed lines of its file sorted by line once, with running maxima from the top
 * and minima from the bottom, so each lookup is a binary search (a filter and sort per line was quadratic).
 */
function boundsOf(list: TimedLine[]): Bounds {
  const order = list.map((t, i) => ({ t, i })).sort((a, b) => a.t.line - b.t.line || a.i - b.i);
  const beats = (a: { t: TimedLine; i: number }, b: { t: TimedLine; i: number } | undefined, later: boolean) =>
    b === undefined || (later ? a.t.ms > b.t.ms : a.t.ms < b.t.ms) || (a.t.ms === b.t.ms && a.i < b.i);
  const latest: { t: TimedLine; i: number }[] = [];
  for (const x of order) latest.push(beats(x, latest.at(-1), true) ? x : latest.at(-1)!);
  const earliest: { t: TimedLine; i: number }[] = new Array(order.length);
  for (let k = order.length - 1; k >= 0; k--)
    earliest[k] = beats(order[k]!, earliest[k + 1], false) ? order[k]! : earliest[k + 1]!;
  /** The first position whose line is ≥ `line` (or > it, with `strict`). */
  const first = (line: number, strict: boolean) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (strict ? order[mid]!.t.line <= line : order[mid]!.t.line < line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    around: (line) => ({ before: latest[first(line, false) - 1]?.t, after: earliest[first(line, true)]?.t }),
  };
}

function baseFor(stage: FailureStage | null, a: Anchors): { ms: number; what: Sentence } | null {
  const pick = (...c: [number | null, Sentence][]) => {
    const hit = c.find(([ms]) => ms !== null);
    return hit ? { ms: hit[0]!, what: hit[1] } : null;
  };
  if (stage === null) return null;
  const began = sentence('tl.base.rdzvBegan');
  if (RDZV_STAGES.includes(stage)) return pick([a.rdzvBegin, began], [a.launch, sentence('tl.base.launch')]);
  switch (stage) {
    case 'rank-assignment':
      return pick([a.rdzvComplete, sentence('tl.base.rdzvCompleted')], [a.rdzvBegin, began]);
    case 'pg-init':
    case 'comm-init':
      return pick([a.workersStarted, sentence('tl.base.workersStarted')]);
    case 'exit-barrier':
      return pick([a.exit, sentence('tl.base.workersFinished')]);
    default:
      return null;
  }
}

function thresholdLines(
  limits: LimitInForce[],
  earliest: { n: JobNode; ms: number } | null,
  built: Map<string, Built>,
): ThresholdLine[] {
  const lines = new Map<string, ThresholdLine>();
  const anchorOf = (c: ClockStart, a: Anchors): number | null =>
    c === 'rendezvous-complete'
      ? a.rdzvComplete
      : c === 'workers-started'
        ? a.workersStarted
        : c === 'workers-finished'
          ? a.exit
          : a.launch;
  const make = (
    key: string,
    seconds: number,
    clockStarts: ClockStart,
    kind: ThresholdLine['kind'],
    from: ThresholdLine['from'],
    evidence: TimelineEvidence | null,
  ): ThresholdLine => {
    const job = clockStarts === 'launch';
    const perNode: ThresholdLine['perNode'] = [];
    if (!job)
      for (const [node, b] of built) {
        const at = anchorOf(clockStarts, b.anchors);
        if (at !== null) perNode.push({ node, anchorMs: at, atMs: at + seconds * 1000 });
      }
    return {
      key,
      ids: [],
      seconds,
      kind,
      from,
      clockStarts,
      anchor: job ? 'job' : 'node',
      atMs: job && earliest ? earliest.ms + seconds * 1000 : null,
      perNode,
      evidence,
    };
  };
  const rank = { limit: 0, recommended: 1, reference: 2 };
  for (const l of limits) {
    if (!l.applies) continue;
    const kind: ThresholdLine['kind'] = l.from === 'recommendation' ? 'recommended' : 'limit';
    const key = `${l.clockStarts}:${l.seconds}`;
    const line = lines.get(key) ?? make(key, l.seconds, l.clockStarts, kind, l.from, l.evidence);
    line.ids.push(l.id);
    if (rank[kind] < rank[line.kind]) {
      line.kind = kind;
      line.from = l.from;
    }
    line.evidence ??= l.evidence;
    lines.set(key, line);
  }
  for (const s of REFERENCE_SECONDS) {
    const key = `launch:${s}`;
    if (!lines.has(key)) lines.set(key, make(key, s, 'launch', 'reference', 'reference', null));
  }
  return [...lines.values()].sort((a, b) => a.seconds - b.seconds || a.key.localeCompare(b.key));
}

export type RowOrder = 'lag' | 'name' | 'rank';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Rows in display order: latest launch first (unknown lags last), by name (node2 before node10), or by group rank. */
export function orderRows<T extends RowBase>(rows: T[], by: RowOrder): T[] {
  const out = [...rows];
  const name = (a: T, b: T) => collator.compare(a.node, b.node);
  if (by === 'name') return out.sort(name);
  if (by === 'rank') return out.sort((a, b) => (a.groupRank ?? Infinity) - (b.groupRank ?? Infinity) || name(a, b));
  return out.sort((a, b) => (b.lagSeconds ?? -Infinity) - (a.lagSeconds ?? -Infinity) || name(a, b));
}

/** Filter words: any of node name, host name, `rank N`, `late`, `host`, or a failure stage. */
export function rowMatches(row: RowBase, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [
    row.node,
    row.hostname ?? '',
    row.groupRank !== null ? `rank ${row.groupRank} rank${row.groupRank}` : '',
    row.isLate ? 'late' : '',
    row.isStoreHost ? 'host store-host' : '',
    row.failureStage ?? '',
  ]
    .join(' ')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}
