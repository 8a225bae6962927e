import { ENTRY } from '../catalogue';
import type { FileExtract, JobModel, JobNode, LogEvent, Note, Overrides } from '../model';
import { SCHEMA_VERSION } from '../model';
import { limitsOf } from '../thresholds';
import { isoOrNull } from '../time';
import { attemptOf, nodeAttempts, tagAttempts } from './attempts';
import { edgeLine } from './edges';
import { nodeEvents } from './events';
import { deriveFacts, parseIntList } from './facts';
import { analyseFailure, nodeFailure, type NodeView } from './failure';
import { bestHint, groupStreams, nodeIdOf, type NodeGroup } from './group';
import { placeLaunch } from './launch';
import { mixedJobsOf, splitRuns } from './mixed';
import { nodeClocks, withFieldClocks } from './nodeClock';
import { isStoreHost } from './storeHost';
import { verdictOf } from './verdict';
import { missingNodes, worldOf } from './world';

// From per-file extracts to the job model, as a pipeline: streams → runs → nodes → clocks → launch → events →
// attempts → world → failure → verdict. Nothing here mutates the extracts it is given.

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
  const usable = extracts.filter((x) => !x.problem);
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
  const notes: Note[] = [...clocks.notes];
  const built = groups.map((g, i) => buildNode(g, ids[i]!, eventsByNode.get(ids[i]!)!, facts, clocks, notes));
  const nodes = built.map((b) => b.node);
  const skewSeconds = placeLags(nodes, notes);
  nodes.sort(
    (a, b) => (a.groupRank ?? 1e9) - (b.groupRank ?? 1e9) || a.id.localeCompare(b.id, 'en', { numeric: true }),
  );

  const world = worldOf(allEvents, facts);
  if (world.formed) facts.worldNodes = world.formed.nodes;
  const missing = missingNodes(world.expected, nodes);
  const byId = new Map(built.map((b) => [b.node.id, b]));
  const views: NodeView[] = nodes.map((n) => ({
    node: n,
    events: byId.get(n.id)!.events,
    timeOf: clocks.timeOf(n.id),
  }));
  const limits = limitsOf(facts, allEvents);
  const analysed = analyseFailure({ views, facts, limits, offsets: clocks.offsets, missing: missing.listed });
  notes.push(...analysed.notes);
  const failure = analysed.failure;

  const torchEvidence = streams.some((s) => s.torchEvidence.length > 0);
  const verdict = verdictOf(allEvents, torchEvidence, failure, nodes, world, missing.count, facts.minNodes);
  if (verdict === 'incomplete' && missing.count === 0) notes.push({ code: 'no-progress', values: {} });

  return {
    schemaVersion: SCHEMA_VERSION,
    verdict,
    failure: verdict === 'failed' ? failure : null,
    skewSeconds,
    nodes,
    job: facts,
    missingNodes: missing.listed,
    missingCount: missing.count,
    worldFormed: world.formed,
    mixedJobs: mixedJobsOf(runs, groups, ids),
    clockOffsets: clocks.offsets,
    notes,
    files: extracts.map((x) => ({ file: x.file, bytes: x.bytes, lines: x.lines, problem: x.problem })),
  };
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
    groupRank: rankHint ? Number(rankHint.value) : null,
    globalRanks: parseIntList(complete?.fields.global_ranks),
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

/** Lag of each placed node behind the earliest launch; the job's skew; notes on what could not be placed. */
function placeLags(nodes: JobNode[], notes: Note[]): number | null {
  const launched = nodes.filter((n) => n.launchTime !== null);
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
  return launched.length >= 2 ? skew : null;
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
