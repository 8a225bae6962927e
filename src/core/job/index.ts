import { ENTRY, effectsOf } from '../catalogue';
import type {
  ClockOffset,
  Failure,
  FileExtract,
  JobModel,
  JobNode,
  LogEvent,
  MixedJobs,
  Note,
  Overrides,
} from '../model';
import { SCHEMA_VERSION } from '../model';
import { compareNames } from '../names';
import { boundedCount } from '../numbers';
import { limitsOf } from '../thresholds';
import { isoOrNull } from '../time';
import { attemptOf, endsInRestart, lastRoundIndex, lastRoundProgressed, nodeAttempts, tagAttempts } from './attempts';
import { edgeLine } from './edges';
import { nodeEvents } from './events';
import { deriveFacts, parseIntList } from './facts';
import { analyseFailure, nodeFailure, type NodeView } from './failure';
import { bestHint, groupStreams, nodeIdOf, type NodeGroup } from './group';
import { placeLaunch, waitedSinceLaunch } from './launch';
import { mixedJobsOf, splitRuns } from './mixed';
import { nodeClocks, withFieldClocks } from './nodeClock';
import { notKeptNote } from './notKept';
import { isStoreHost } from './storeHost';
import { verdictOf } from './verdict';
import { refusedNumbers } from './untrusted';
import { missingNodes, worldOf, type MissingNodes } from './world';

// From per-file extracts to the job model, as a pipeline: streams → runs → nodes → clocks → launch → events →
// attempts → world → failure → verdict. Nothing here mutates the extracts it is given.

/** Ranks kept from line prefixes per node (a node runs a few dozen workers at most). */
const MAX_PREFIX_RANKS = 1024;

export interface BuildOptions {
  /** "Now" for year guesses when nothing in the logs dates them (tests pin it). */
  nowMs?: number;
  /** Subtract the clock offsets estimated from the rendezvous (time-zone differences are always corrected). */
  correctClocks?: boolean;
  /** The user's corrections: node of a file, node names, year or zone of a file's timestamps. */
  overrides?: Overrides;
}

/** Node ids, unique: a second node with the same name gets `#2`. */
function unique(names: string[]): string[] {
  const used = new Map<string, number>();
  return names.map((base) => {
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  });
}

function formatsOf(usable: FileExtract[]): Record<string, number> {
  const formats: Record<string, number> = {};
  for (const x of usable)
    for (const s of x.streams) for (const [f, n] of Object.entries(s.formats)) formats[f] = (formats[f] ?? 0) + n;
  return formats;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function buildJob(extracts: FileExtract[], opts: BuildOptions = {}): JobModel {
  const nowMs = opts.nowMs ?? Date.now();
  const overrides = opts.overrides ?? {};
  // By file name: the same files give the same job whatever order they were dropped or finished reading in.
  const usable = extracts.filter((x) => !x.problem).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const streams = usable.flatMap((x) => x.streams);
  const allEvents = streams.flatMap((s) => s.events);
  const facts = deriveFacts(allEvents, formatsOf(usable));

  // Runs, then nodes: streams of different runs never join into one node.
  const runs = splitRuns(streams);
  const groups = groupStreams(
    usable,
    overrides.fileNode ?? {},
    overrides.nodeName ?? {},
    runs.keys.length > 1 ? runs.runOf : null,
  );
  const autoIds = unique(groups.map(nodeIdOf));
  const ids = unique(autoIds.map((id) => overrides.nodeName?.[id] ?? id));
  const eventsByNode = new Map<string, LogEvent[]>();
  groups.forEach((g, i) => eventsByNode.set(ids[i]!, withFieldClocks(g.streams.flatMap((s) => s.events))));

  const clocks = nodeClocks(
    usable,
    eventsByNode,
    nowMs,
    overrides,
    opts.correctClocks ?? overrides.correctClocks ?? false,
  );
  const notes: Note[] = [...clocks.notes, ...refusedNumbers(allEvents, facts)];
  const built = groups.map((g, i) => buildNode(g, ids[i]!, eventsByNode.get(ids[i]!)!, facts, clocks, notes));
  const notKept = notKeptNote(eventsByNode);
  if (notKept) notes.push(notKept);
  const nodes = built.map((b) => b.node);
  const mixedJobs = mixedJobsOf(runs, groups, ids);
  // Lags within each run: a node of run B is not late against run A's first node.
  let skewSeconds: ReturnType<typeof placeLags> = null;
  if (mixedJobs)
    for (const g of mixedJobs.groups)
      placeLags(
        nodes.filter((n) => g.nodes.includes(n.id)),
        notes,
      );
  else skewSeconds = placeLags(nodes, notes);
  nodes.sort((a, b) => (a.groupRank ?? 1e9) - (b.groupRank ?? 1e9) || compareNames(a.id, b.id));

  const world = worldOf(allEvents, facts);
  if (world.formed) facts.worldNodes = world.formed.nodes;
  // Logs of several runs: each run's world is its own, and the missing nodes of one are not the other's.
  const missing = mixedJobs ? { listed: [], count: 0, names: [] } : missingNodes(world.expected, nodes);
  const byId = new Map(built.map((b) => [b.node.id, b]));
  const views: NodeView[] = nodes.map((n) => ({
    node: n,
    events: byId.get(n.id)!.events,
    ...effectiveTime(
      byId.get(n.id)!.events,
      clocks.timeOf(n.id),
      n.launchFrom === 'line' && n.launchTime ? Date.parse(n.launchTime) : null,
    ),
  }));
  const analysed = mixedJobs
    ? analyseRuns(mixedJobs, views, formatsOf(usable), clocks.offsets)
    : analyseFailure({
        views,
        facts,
        limits: limitsOf(facts, allEvents),
        offsets: clocks.offsets,
        missing: missing.listed,
        missingNames: missing.names,
      });
  notes.push(...analysed.notes);
  const failure = analysed.failure;

  const torchEvidence = streams.some((s) => s.torchEvidence.length > 0);
  // Worker groups restart together: one node's log that shows the new round training answers for the nodes
  // whose logs stop at their workers' start (an elastic scale-up, a node that joined in the new round).
  // Only a round at least as far into the restarts counts (a log cut before the restart answers for nothing).
  let trainedIn = -1;
  for (const b of built) if (lastRoundProgressed(b.events)) trainedIn = Math.max(trainedIn, lastRoundIndex(b.events));
  const restartPending = built.some((b) => endsInRestart(b.events) && lastRoundIndex(b.events) > trainedIn);
  const verdict = verdictOf(
    allEvents,
    torchEvidence,
    failure,
    nodes,
    world,
    missing.count,
    facts.minNodes,
    restartPending,
  );
  if (verdict === 'incomplete' && missing.count === 0) notes.push({ code: 'no-progress', values: {} });
  const cleaned = decodingNote(usable);
  if (cleaned) notes.push(cleaned);

  return {
    schemaVersion: SCHEMA_VERSION,
    verdict,
    failure: verdict === 'failed' ? failure : null,
    // Skew across different runs means nothing: each run's lags are in its nodes.
    skewSeconds:
      mixedJobs || skewSeconds === null || skewSeconds.placed < skewSeconds.total ? null : skewSeconds.seconds,
    skewAmongPlaced: !mixedJobs && skewSeconds !== null && skewSeconds.placed < skewSeconds.total ? skewSeconds : null,
    nodes,
    job: facts,
    missingNodes: missing.listed,
    missingCount: missing.count,
    worldFormed: world.formed,
    mixedJobs,
    clockOffsets: clocks.offsets,
    notes,
    files: extracts.map((x) => ({
      file: x.file,
      bytes: x.bytes,
      lines: x.lines,
      problem: x.problem,
      ...(x.decoding ? { decoding: x.decoding } : {}),
    })),
  };
}

/**
 * What reading the logs had to mend, over the files analysed: lines cut at the line limit, bytes that were not
 * UTF-8, NUL padding skipped, UTF-16 transcoded. Said once, so a reader knows the text is not byte for byte the
 * file's (colour codes removed are not worth a note).
 */
function decodingNote(extracts: FileExtract[]): Note | null {
  let files = 0;
  let cutLines = 0;
  let invalidBytes = 0;
  let nulBytes = 0;
  let transcoded = 0;
  for (const x of extracts) {
    const d = x.decoding;
    if (!d) continue;
    const utf16 = d.encoding !== 'utf-8';
    if (d.cutLines === 0 && d.invalidBytes === 0 && d.nulBytes === 0 && !utf16) continue;
    files++;
    cutLines += d.cutLines;
    invalidBytes += d.invalidBytes;
    nulBytes += d.nulBytes;
    if (utf16) transcoded++;
  }
  return files ? { code: 'decoding-cleaned', values: { files, cutLines, invalidBytes, nulBytes, transcoded } } : null;
}

/** How far below its last timed line an untimed line (a Python traceback) still takes that line's time. */
const UNTIMED_REACH_LINES = 200;

/** An untimed first line of an error chain takes the time of a timed part printed right below it. */
const UNTIMED_FOLLOW_LINES = 5;

/**
 * An event's instant for the failure analysis: its own, else that of the timed line just above it in its file
 * (a traceback prints right after the log line that raised it; the instant is then a lower bound), else that
 * of a timed line of the same chain just below it (torch_npu prints the RuntimeError, then the timed CANN code).
 * An untimed failure that states how long it waited since the launch ("Timed out after 901 seconds waiting for
 * clients") happened that long after a launch read from a line, not at the last timed line above it.
 */
/** A failure a worker process printed itself (a `[rankN]:` or torchrun `[k]:` label). */
const workerLine = (e: LogEvent) =>
  (e.kind === 'failure' || e.kind === 'error') && (e.ranks !== undefined || e.localRank !== undefined);

function effectiveTime(
  evs: LogEvent[],
  timeOf: (e: LogEvent) => number | null,
  launchMs: number | null,
): Pick<NodeView, 'timeOf' | 'lowerBound'> {
  const at = new Map<LogEvent, number | null>();
  /** Untimed events that took the time of the timed line above them: they happened then or later. */
  const above = new Set<LogEvent>();
  const lastTimed = new Map<string, { line: number; t: number }>();
  const sorted = [...evs].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  for (const e of sorted) {
    const t = timeOf(e);
    if (t !== null) {
      lastTimed.set(e.file, { line: e.line, t });
      at.set(e, t);
      continue;
    }
    const prev = lastTimed.get(e.file);
    const waited = launchMs === null ? null : waitedSinceLaunch(e);
    const stated = waited === null ? null : launchMs! + waited * 1000;
    if (stated !== null && stated >= (prev?.t ?? -Infinity)) at.set(e, stated);
    else if (prev && e.line - prev.line <= UNTIMED_REACH_LINES) {
      at.set(e, prev.t);
      above.add(e);
    } else at.set(e, null);
  }
  const nextTimed = new Map<string, { line: number; t: number }>();
  const nextExit = new Map<string, { line: number; t: number }>();
  for (let i = sorted.length - 1; i >= 0; i--) {
    const e = sorted[i]!;
    const t = timeOf(e);
    if (t !== null) {
      nextTimed.set(e.file, { line: e.line, t });
      if (effectsOf(e.id).reportsWorkerExit) nextExit.set(e.file, { line: e.line, t });
      continue;
    }
    const lower = at.get(e) ?? null;
    // A worker's own untimed error ends that worker: the agent reports the exit below it within its poll
    // interval, so that report's time is when it happened (the timed line above is only a lower bound).
    const exit = nextExit.get(e.file);
    if (workerLine(e) && exit && exit.line - e.line <= UNTIMED_REACH_LINES && (lower === null || exit.t >= lower)) {
      at.set(e, exit.t);
      above.delete(e);
      continue;
    }
    if (lower === null) {
      const next = nextTimed.get(e.file);
      if (next && next.line - e.line <= UNTIMED_FOLLOW_LINES) at.set(e, next.t);
    }
  }
  return { timeOf: (e) => (at.has(e) ? at.get(e)! : timeOf(e)), lowerBound: (e) => above.has(e) };
}

/**
 * Runs mixed in one drop are analysed one by one, each with the facts its own lines print (its endpoint, its
 * limits); the failure reported is that of the run that failed.
 */
function analyseRuns(
  mixed: MixedJobs,
  views: NodeView[],
  formats: Record<string, number>,
  offsets: ClockOffset[],
): { failure: Failure | null; notes: Note[] } {
  for (const g of mixed.groups) {
    const mine = views.filter((v) => g.nodes.includes(v.node.id));
    const events = mine.flatMap((v) => v.events);
    const facts = deriveFacts(events, formats);
    const world = worldOf(events, facts);
    const missing = withOtherRunsNames(
      missingNodes(
        world.expected,
        mine.map((v) => v.node),
      ),
      views.filter((v) => !g.nodes.includes(v.node.id)).map((v) => v.node),
      mine.map((v) => v.node),
    );
    const r = analyseFailure({
      views: mine,
      facts,
      limits: limitsOf(facts, events),
      offsets,
      missing: missing.listed,
      missingNames: missing.names,
    });
    if (r.failure) {
      r.failure.reasoning.unshift({ code: 'mixed-run', values: { run: g.key } });
      return r;
    }
  }
  return { failure: null, notes: [] };
}

/** Launches this far apart are not one job's startup (beyond the longest default wait, 30 min). */
const ANOTHER_TIME_MS = 30 * 60_000;

/**
 * A run short of as many nodes as the drop holds of another time only: those are the nodes whose logs of this
 * run were not given (a node's file of yesterday's run dropped with today's), named as the other run names
 * them. Nodes started in the same window with another endpoint are this job's, misconfigured: not missing.
 */
function withOtherRunsNames(missing: MissingNodes, others: JobNode[], mine: JobNode[]): MissingNodes {
  if (missing.count === 0 || missing.count !== others.length || missing.names.some((n) => n !== null)) return missing;
  const launches = mine.flatMap((n) => (n.launchTime ? [Date.parse(n.launchTime)] : []));
  const apart = (n: JobNode) =>
    n.launchTime !== null &&
    launches.length > 0 &&
    launches.every((t) => Math.abs(Date.parse(n.launchTime!) - t) > ANOTHER_TIME_MS);
  if (!others.every(apart)) return missing;
  const ids = others.map((n) => n.id);
  return { listed: ids, count: missing.count, names: [...ids] };
}

interface BuiltNode {
  node: JobNode;
  events: LogEvent[];
}

function buildNode(
  g: NodeGroup,
  id: string,
  evs: LogEvent[],
  facts: ReturnType<typeof deriveFacts>,
  clocks: ReturnType<typeof nodeClocks>,
  notes: Note[],
): BuiltNode {
  const timeOf = clocks.timeOf(id);
  const launch = placeLaunch(evs, timeOf);
  if (launch.derivedFrom) {
    const e = launch.derivedFrom.event;
    notes.push({
      code: 'launch-derived',
      values: { node: id, file: e.file, line: e.line, waited: launch.derivedFrom.waited },
    });
  }
  if (launch.scriptClock)
    notes.push({
      code: 'launch-script-clock',
      values: { node: id, file: launch.scriptClock.file, line: launch.scriptClock.line },
    });
  if (launch.clockBelow)
    notes.push({
      code: 'launch-clock-below',
      values: { node: id, file: launch.clockBelow.file, line: launch.clockBelow.line },
    });
  const events = nodeEvents(evs, timeOf, launch);
  const attempt = attemptOf(evs);
  const { attempts } = nodeAttempts(evs, attempt, timeOf);
  if (attempts.length) tagAttempts(events, evs, attempt);
  const host = bestHint(g.identity, 'hostname');
  const rankHint = bestHint(g.identity, 'group-rank') ?? bestHint(g.identity, 'node-rank');
  const complete = evs.find((e) => e.kind === 'rendezvous-complete' && e.fields.global_ranks);
  const agents = g.streams.reduce((k, s) => Math.max(k, s.agents), 1);
  if (agents > 1) notes.push({ code: 'agents-in-stream', values: { node: id, agents } });
  const at = clocks.instantFor(id);
  const own = nodeFailure(evs);
  const node: JobNode = {
    id,
    hostname: host?.value ?? null,
    // The hint is the line's (or the file name's) text: a rank past any real job's reads as unknown.
    groupRank: rankHint ? boundedCount(rankHint.value) : null,
    globalRanks: complete ? parseIntList(complete.fields.global_ranks) : prefixRanks(evs),
    files: [...new Set(g.streams.map((s) => s.file))],
    identity: g.identity,
    launchTime: launch.ms === null ? null : isoOrNull(launch.ms),
    launchFrom: launch.ms === null ? null : launch.from,
    firstLine: edgeLine('firstLine', g.streams, at, events),
    lastLine: edgeLine('lastLine', g.streams, at, events),
    lagSeconds: null,
    isStoreHost: false,
    runId: runIdOf(evs),
    events,
    failureStage: own?.stage ?? null,
    agents,
    attempts,
  };
  node.isStoreHost = isStoreHost(g.identity, id, facts);
  return { node, events: evs };
}

/** Lag of each placed node behind the earliest launch; their skew; notes on what could not be placed. */
function placeLags(nodes: JobNode[], notes: Note[]): { seconds: number; placed: number; total: number } | null {
  const launched = nodes.filter((n) => n.launchTime !== null);
  // One placed node among several is late or early against nothing: its lag stays unknown.
  if (launched.length === 1 && nodes.length > 1) {
    notes.push({
      code: 'launch-partial',
      values: { placed: 1, total: nodes.length, unplaced: nodes.filter((n) => n.launchTime === null).map((n) => n.id) },
    });
    return null;
  }
  let t0 = Infinity;
  for (const n of launched) t0 = Math.min(t0, Date.parse(n.launchTime!));
  let skew = 0;
  for (const n of launched) {
    n.lagSeconds = round3((Date.parse(n.launchTime!) - t0) / 1000);
    skew = Math.max(skew, n.lagSeconds);
  }
  if (launched.length > 0 && launched.length < nodes.length)
    notes.push({
      code: 'launch-partial',
      values: {
        placed: launched.length,
        total: nodes.length,
        unplaced: nodes.filter((n) => n.launchTime === null).map((n) => n.id),
      },
    });
  if (launched.length === 0 && nodes.length > 0) notes.push({ code: 'launch-unknown', values: {} });
  if (nodes.some((n) => n.launchFrom === 'derived')) notes.push({ code: 'times-derived', values: {} });
  return launched.length >= 2 ? { seconds: skew, placed: launched.length, total: nodes.length } : null;
}

/** The rendezvous id a node's agent used, from the entries that print one. */
function runIdOf(evs: LogEvent[]): string | null {
  for (const e of evs) {
    const field = ENTRY.get(e.id)?.effects?.runIdField;
    const v = field ? e.fields[field]?.trim() : undefined;
    if (v && v !== 'none') return v;
  }
  return null;
}

/** Without a rendezvous result, the global ranks the node's `[rankN]:` prefixes show. */
function prefixRanks(evs: LogEvent[]): number[] {
  const seen = new Set<number>();
  for (const e of evs) for (const r of e.ranks ?? []) if (seen.size < MAX_PREFIX_RANKS) seen.add(r);
  return [...seen].sort((a, b) => a - b);
}
