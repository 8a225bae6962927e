import { CATALOGUE, isTorchEvidence } from './catalogue';
import { bestClock, buildJobClock } from './clock';
import { deriveFacts, parseIntList } from './facts';
import { analyseFailure, nodeFailure, type NodeView } from './failure';
import { endpointHost } from './identity';
import type { Clock, FileExtract, JobModel, JobNode, LogEvent, NodeEvent, Overrides, Verdict } from './model';
import { SCHEMA_VERSION } from './model';
import { bestHint, groupStreams, nodeIdOf } from './nodes';
import { estimateClockOffsets } from './offsets';
import { isoOf, makeClock } from './time';

// From per-file extracts to the job model: nodes, one timeline, skew, facts, failure, verdict.

export interface BuildOptions {
  /** "Now" for year guesses when nothing in the logs dates them (tests pin it). */
  nowMs?: number;
  /** Subtract the clock offsets estimated from the rendezvous (time-zone differences are always corrected). */
  correctClocks?: boolean;
  /** The user's corrections: node of a file, node names, year or zone of a file's timestamps. */
  overrides?: Overrides;
}

const ENTRY = new Map(CATALOGUE.map((e) => [e.id, e]));
const SHOWN_INFO = new Set(['c10d-store-host', 'prelaunch-activity']);
const PROGRESS_KINDS = new Set(['rendezvous-complete', 'workers-started', 'pg-ready', 'first-step', 'exit']);

/** ChildFailedError prints `time : 2026-11-29_18:40:42` (local, seconds): a clock for a line that has none. */
function fieldClock(e: LogEvent): Clock | null {
  const t = e.fields.time;
  const m = t ? /^(\d{4})-(\d{2})-(\d{2})_(\d{2}):(\d{2}):(\d{2})$/.exec(t.trim()) : null;
  if (!m) return null;
  const [, Y, M, D, h, mi, s] = m.map(Number) as number[];
  return makeClock('child-failed-time', t!.trim(), {
    year: Y!,
    month: M!,
    day: D!,
    hour: h!,
    minute: mi!,
    second: s!,
    resolutionMs: 1000,
  });
}

/** Seconds the text says a wait lasted before this failure, when the wait began at the node's launch. */
function waitedFromLaunch(e: LogEvent): number | null {
  if (e.id === 'client-connect-timeout' && e.stage === 'store-connect') {
    const n = Number(e.fields.t);
    return e.fields.unit === 'ms' ? n / 1000 : n;
  }
  if (e.id === 'master-wait-clients') return Number(e.fields.secs);
  return null;
}

export function buildJob(extracts: FileExtract[], opts: BuildOptions = {}): JobModel {
  const nowMs = opts.nowMs ?? Date.now();
  const usable = extracts.filter((x) => !x.problem);
  const overrides = opts.overrides ?? {};
  const groups = groupStreams(usable, overrides.fileNode ?? {}, overrides.nodeName ?? {});
  const allEvents = usable.flatMap((x) => x.streams.flatMap((s) => s.events));
  const formats: Record<string, number> = {};
  for (const x of usable)
    for (const s of x.streams) for (const [f, n] of Object.entries(s.formats)) formats[f] = (formats[f] ?? 0) + n;
  const facts = deriveFacts(allEvents, formats);

  // Node ids, unique; then the names the user gave (keyed by the unique id).
  const unique = (names: string[]) => {
    const used = new Map<string, number>();
    return names.map((base) => {
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      return n === 1 ? base : `${base}#${n}`;
    });
  };
  const autoIds = unique(groups.map(nodeIdOf));
  const ids = unique(autoIds.map((id) => overrides.nodeName?.[id] ?? id));
  const eventsByNode = new Map<string, LogEvent[]>();
  groups.forEach((g, i) => {
    const evs = g.streams.flatMap((s) => s.events);
    for (const e of evs)
      if (e.clocks.length === 0) {
        const fc = fieldClock(e);
        if (fc) e.clocks = [fc];
      }
    eventsByNode.set(ids[i]!, evs);
  });
  const clock = buildJobClock(usable, eventsByNode, nowMs, overrides);
  const notes = [...clock.notes];
  const rawTimeOf = (nodeId: string) => (e: LogEvent) => {
    const c = bestClock(e.clocks);
    return c ? clock.instant(c, nodeId, e.file) : null;
  };
  const clockOffsets = estimateClockOffsets(
    eventsByNode,
    rawTimeOf,
    opts.correctClocks ?? overrides.correctClocks ?? false,
  );
  const correction = new Map(clockOffsets.filter((o) => o.applied).map((o) => [o.node, o.offsetSeconds * 1000]));
  for (const o of clockOffsets) {
    if (o.kind === 'time-zone')
      notes.push(
        `${o.node}: its clock reads ${o.offsetSeconds / 3600} h from the others — a time-zone difference, corrected.`,
      );
    else if (o.applied) notes.push(`${o.node}: clock offset of ${o.offsetSeconds} s (±${o.boundSeconds} s) corrected.`);
  }
  /** Instant of a line's best clock for a node, on the job clock (corrected where the offset is applied). */
  const instantFor = (nodeId: string) => {
    const corr = correction.get(nodeId) ?? 0;
    return (clocks: Clock[], file: string): number | null => {
      const c = bestClock(clocks);
      return c ? clock.instant(c, nodeId, file) - corr : null;
    };
  };
  const timeOfFor = (nodeId: string) => {
    const at = instantFor(nodeId);
    return (e: LogEvent) => at(e.clocks, e.file);
  };

  const endpointHostName = facts.rdzvEndpoint ? endpointHost(facts.rdzvEndpoint).toLowerCase() : null;
  let derivedUsed = false;
  const nodes: JobNode[] = groups.map((g, i) => {
    const id = ids[i]!;
    const evs = eventsByNode.get(id)!;
    const timeOf = timeOfFor(id);
    const host = bestHint(g.identity, 'hostname');
    const rankHint = bestHint(g.identity, 'group-rank') ?? bestHint(g.identity, 'node-rank');
    const complete = evs.find((e) => e.id === 'rdzv-complete');
    const name = bestHint(g.identity, 'name');
    const isStoreHost =
      g.identity.some((h) => h.kind === 'store-host') ||
      (facts.backend === 'static' || facts.backend === null
        ? rankHint?.value === '0'
        : endpointHostName !== null &&
          [host?.value, name?.value, id].some((v) => v !== undefined && v.toLowerCase() === endpointHostName));
    // Launch: the first torchrun line with a time; failing that, a time derived from a stated wait.
    const launches = evs.filter((e) => e.kind === 'launch');
    let launchMs: number | null = null;
    let launchFrom: NodeEvent['timeFrom'] = null;
    for (const e of launches) {
      const t = timeOf(e);
      if (t !== null && (launchMs === null || t < launchMs)) {
        launchMs = t;
        launchFrom = 'line';
      }
    }
    if (launchMs === null) {
      for (const e of evs) {
        const w = waitedFromLaunch(e);
        const t = timeOf(e);
        if (w !== null && t !== null) {
          launchMs = t - w * 1000;
          launchFrom = 'derived';
          derivedUsed = true;
          notes.push(
            `${id}: launch time derived from ${e.file}:${e.line} (“${e.text.trim().slice(0, 90)}” minus the ${w} s it waited).`,
          );
          break;
        }
      }
    }
    const nodeEvents: NodeEvent[] = evs
      .filter((e) => e.kind !== 'info' || SHOWN_INFO.has(e.id))
      .filter((e) => (e.kind as string) !== 'fact')
      .map((e) => {
        const t = timeOf(e);
        const ne: NodeEvent = {
          kind: e.kind,
          id: e.id,
          time: t === null ? null : isoOf(t),
          timeFrom: t === null ? null : 'line',
          file: e.file,
          line: e.line,
          text: e.text,
        };
        if (e.stage) ne.stage = e.stage;
        if (e.ranks) ne.ranks = e.ranks;
        if (e.localRank !== undefined) ne.localRank = e.localRank;
        // An untimed failure that states how long it waited since the launch: place it there — unless timed
        // lines before it in its file are later (retries with back-off waited longer than the text says).
        if (t === null && launchMs !== null && launchFrom === 'line') {
          const w = waitedFromLaunch(e);
          const at = w === null ? null : launchMs + w * 1000;
          const before = evs.filter((x) => x.file === e.file && x.line < e.line).map(timeOf);
          if (at !== null && before.every((b) => b === null || b <= at)) {
            ne.time = isoOf(at);
            ne.timeFrom = 'derived';
          }
        }
        return ne;
      });
    if (launchMs !== null && launchFrom === 'derived') {
      const first = launches[0];
      nodeEvents.unshift({
        kind: 'launch',
        id: 'derived-launch',
        time: isoOf(launchMs),
        timeFrom: 'derived',
        file: first?.file ?? evs[0]?.file ?? '',
        line: first?.line ?? 1,
        text: first?.text ?? '(launch time derived from a stated wait)',
      });
    }
    const own = nodeFailure(evs);
    const at = instantFor(id);
    const edge = (which: 'firstLine' | 'lastLine'): NodeEvent | null => {
      let best: NodeEvent | null = null;
      let bestT = which === 'firstLine' ? Infinity : -Infinity;
      for (const st of g.streams) {
        const l = st[which];
        const t = l ? at(l.clocks, st.file) : null;
        if (!l || t === null) continue;
        if (which === 'firstLine' ? t < bestT : t > bestT) {
          bestT = t;
          best = {
            kind: 'info',
            id: which,
            time: isoOf(t),
            timeFrom: 'line',
            file: st.file,
            line: l.line,
            text: l.text,
          };
        }
      }
      // The file's last line may carry no time (a traceback): the latest timed event then ends the node.
      if (which === 'lastLine') {
        for (const ne of nodeEvents) {
          const t = ne.time === null ? -Infinity : Date.parse(ne.time);
          if (t > bestT) {
            bestT = t;
            best = { ...ne, kind: 'info', id: which };
          }
        }
      }
      return best;
    };
    return {
      id,
      hostname: host?.value ?? null,
      groupRank: rankHint ? Number(rankHint.value) : null,
      globalRanks: parseIntList(complete?.fields.global_ranks),
      files: [...new Set(g.streams.map((s) => (s.stream ? `${s.file}` : s.file)))],
      identity: g.identity,
      launchTime: launchMs === null ? null : isoOf(launchMs),
      firstLine: edge('firstLine'),
      lastLine: edge('lastLine'),
      lagSeconds: null,
      isStoreHost,
      runId: runIdOf(evs),
      events: nodeEvents,
      failureStage: own?.stage ?? null,
    };
  });

  // Lag and skew over the nodes whose launch can be placed.
  const launched = nodes.filter((n) => n.launchTime !== null);
  const t0 = Math.min(...launched.map((n) => Date.parse(n.launchTime!)));
  for (const n of launched) n.lagSeconds = round3((Date.parse(n.launchTime!) - t0) / 1000);
  const skewSeconds = launched.length >= 2 ? Math.max(...launched.map((n) => n.lagSeconds!)) : null;
  if (launched.length > 0 && launched.length < nodes.length) {
    notes.push(
      `Launch times are known for ${launched.length} of ${nodes.length} nodes; skew covers those only (${nodes
        .filter((n) => n.launchTime === null)
        .map((n) => n.id)
        .join(', ')} printed no usable time).`,
    );
  }
  if (launched.length === 0 && nodes.length > 0) {
    notes.push(
      'No launch time could be placed: these logs carry no timestamps on torchrun lines (torch ≤ 2.0 at default settings). Capture with `kubectl logs --timestamps`, `LOGLEVEL=INFO` on torch ≥ 2.1, or pipe through a timestamping tool.',
    );
  }
  if (derivedUsed) notes.push('Some times were derived from durations stated in the text, not read from timestamps.');

  // Stable order: by group rank, then id.
  nodes.sort(
    (a, b) => (a.groupRank ?? 1e9) - (b.groupRank ?? 1e9) || a.id.localeCompare(b.id, 'en', { numeric: true }),
  );

  const views: NodeView[] = nodes.map((n) => ({ node: n, events: eventsByNode.get(n.id)!, timeOf: timeOfFor(n.id) }));
  const failure = analyseFailure(views, facts);

  // Missing nodes: the world the logs describe, minus the nodes present.
  const expected = facts.nnodes ?? null;
  const missingNodes: string[] = [];
  if (expected !== null && expected > nodes.length) {
    const ranks = new Set(nodes.map((n) => n.groupRank).filter((r): r is number => r !== null));
    if (ranks.size === nodes.length) {
      for (let r = 0; r < expected; r++) if (!ranks.has(r)) missingNodes.push(`group_rank ${r}`);
    } else {
      for (let k = nodes.length; k < expected; k++)
        missingNodes.push(`unnamed node ${k - nodes.length + 1} of ${expected - nodes.length}`);
    }
  }

  // A node whose log is missing may well be the late one: say so when no present node could be named.
  if (failure && failure.lateNodes.length === 0 && missingNodes.length) {
    failure.lateNodes = [...missingNodes];
    failure.reasoning.push(
      `No node present in the logs was late, and ${missingNodes.join(', ')} sent no log: a node whose log was not provided is the likely culprit.`,
    );
  }

  const torchSeen = allEvents.some((e) => {
    const entry = ENTRY.get(e.id);
    return entry ? isTorchEvidence(entry) : false;
  });
  const pytorchProper = allEvents.some((e) => {
    const entry = ENTRY.get(e.id);
    return entry ? isTorchEvidence(entry) && !entry.heuristic : false;
  });
  let verdict: Verdict;
  if (!torchSeen) verdict = 'not-torchrun';
  else if (failure && (pytorchProper || failure.stage !== 'other')) verdict = 'failed';
  else if (missingNodes.length) verdict = 'incomplete';
  else if (nodes.some((n) => n.events.some((e) => PROGRESS_KINDS.has(e.kind)))) verdict = 'healthy';
  else verdict = 'incomplete';
  if (verdict === 'incomplete' && !missingNodes.length) {
    notes.push(
      'The logs show torchrun starting but neither progress past rendezvous nor a failure; they may end early.',
    );
  }

  return {
    schemaVersion: SCHEMA_VERSION,
    verdict,
    failure: verdict === 'failed' ? failure : null,
    skewSeconds,
    nodes,
    job: facts,
    missingNodes,
    clockOffsets,
    notes,
    files: extracts.map((x) => ({ file: x.file, bytes: x.bytes, lines: x.lines, problem: x.problem })),
  };
}

/** The rendezvous id a node's agent used: its launch config, or the c10d rendezvous lines. */
function runIdOf(evs: LogEvent[]): string | null {
  for (const e of evs) {
    const id = e.id === 'launch-config' ? e.fields.run_id : e.id.startsWith('dyn-') ? e.fields.run_id : undefined;
    if (id && id.trim() && id.trim() !== 'none') return id.trim();
  }
  return null;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
