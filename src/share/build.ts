import { adviceText, type P } from '../core/diagnosisText';
import type { Diagnosis, Finding } from '../core/findings';
import { LANGS, type Lang } from '../core/i18n';
import type { EvidenceLine, JobModel, JobNode, NodeEvent, Values } from '../core/model';
import { adviceValuesOf, rebuildAdvice, type AdviceValues } from './advice';
import { Redactor, DEFAULT_REDACTION, type RedactOptions, type RedactionCounts } from './redact';
import { clean, cut } from './text';
import {
  KINDS,
  MAX_EVENTS_PER_NODE,
  MAX_EVIDENCE,
  MAX_EVIDENCE_TEXT,
  MAX_NAME,
  MAX_NOTES,
  MAX_TEXT,
  MAX_TITLE,
  STAGES,
  type Omission,
  type WireNodeList,
  type Wire,
  type WireNumbers,
  type WireValues,
  MAX_ATTEMPTS,
  MAX_LATE_LISTED,
  MAX_RUNS,
} from './wire';
import { version as APP_VERSION } from '../../package.json';

// The job model and its diagnosis → the link's payload: redacted, cut to size, findings, notes and reasons as
// codes with their values.

/** Node names one value may list (a reason naming every late node of a 4,096-node job is cut here). */
const MAX_NAMES_IN_VALUE = 256;

export interface SnapshotOptions extends Partial<RedactOptions> {
  /** What the sender typed to say what this is. */
  title?: string;
  /** The language the receiver first sees (they can switch). Default: en. */
  lang?: Lang;
  /** The node the sender had selected (its id in the job model). */
  selectedNode?: string | null;
  /** The time range the sender zoomed to, seconds from the earliest launch. */
  zoom?: [number, number] | null;
  /** Creation time, ms since the epoch. Default: now. */
  now?: number;
  /** Default: this build's package version. */
  appVersion?: string;
}

export interface Dropped {
  what: Omission;
  message: string;
}

export interface Built {
  wire: Wire;
  /** What could not go into the link at all (advice whose words could not be reproduced). */
  dropped: Dropped[];
  redacted: RedactionCounts;
}

export function buildWire(job: JobModel, dx: Diagnosis, options: SnapshotOptions = {}): Built {
  const opts: RedactOptions = { ...DEFAULT_REDACTION, ...definedOnly(options) };
  let r = new Redactor(job, opts);
  let ids = job.nodes.map((n) => cut(clean(r.nodeId(n.id)), MAX_NAME));
  if (new Set(ids).size !== ids.length) {
    // Redaction made two nodes look alike (addresses, cut names): name them all by position instead.
    r = new Redactor(job, { ...opts, hostnames: true });
    ids = job.nodes.map((n) => r.nodeId(n.id));
  }
  const dropped: Dropped[] = [];
  const text = (s: string, max = MAX_TEXT) => cut(clean(r.text(s)), max);
  const index = new Map(job.nodes.map((n, i) => [n.id, i]));

  // Evidence lines: one table, the failure's first, then each finding's, then the limits'; at most MAX_EVIDENCE.
  const table: [string, number, string][] = [];
  const tableKey = new Map<string, number>();
  const evRef = (e: EvidenceLine | null | undefined): number | null => {
    if (!e || !opts.evidence) return null;
    const key = `${e.file}\n${e.line}`;
    const known = tableKey.get(key);
    if (known !== undefined) return known;
    if (table.length >= MAX_EVIDENCE) return null;
    table.push([cut(clean(r.file(e.file)), MAX_NAME), e.line, text(e.text.trim(), MAX_EVIDENCE_TEXT)]);
    tableKey.set(key, table.length - 1);
    return table.length - 1;
  };
  const evRefs = (es: EvidenceLine[], max: number) =>
    es
      .map(evRef)
      .filter((x): x is number => x !== null)
      .filter((x, i, all) => all.indexOf(x) === i)
      .slice(0, max);

  const nodeList = (names: string[]): WireNodeList => runs(names.map((n) => index.get(n) ?? text(n, MAX_NAME)));

  // The reference instant: the earliest launch, else the earliest time any line carried.
  const launches = job.nodes.filter((n) => n.launchTime).map((n) => Date.parse(n.launchTime!));
  const anyTimes = job.nodes.flatMap((n) =>
    [...n.events.map((e) => e.time), n.firstLine?.time].filter((t): t is string => !!t).map((t) => Date.parse(t)),
  );
  // A loop, not Math.min(...xs): a large job has more times than a call takes arguments.
  const least = (xs: number[]) => xs.reduce((a, b) => (b < a ? b : a), Infinity);
  // Times go in only within the ranges a reader accepts (wire.ts): a node whose clock is centuries off (a
  // damaged year) travels without times instead of making a link no one can open.
  const t0 = within(launches.length ? least(launches) : anyTimes.length ? least(anyTimes) : null, 0, 1e14);
  const lagMs = (n: JobNode) => lagMsOf(n.lagSeconds);
  const base = (n: JobNode) => (t0 === null ? null : n.lagSeconds === null ? t0 : t0 + (lagMs(n) ?? NaN));
  const ds = (n: JobNode, iso: string | null | undefined): number | null => {
    const b = base(n);
    return iso && b !== null ? within(Math.round((Date.parse(iso) - b) / 100), -1e9, 1e9) : null;
  };

  const eventIds: string[] = [];
  const idIndex = (id: string) => {
    let k = eventIds.indexOf(id);
    if (k < 0) k = eventIds.push(id) - 1;
    return k;
  };
  const failure = job.failure;
  const failureEvidence = failure ? evRefs(failure.evidence, 3) : [];
  const findings: Wire['F'] = dx.findings.map((f) => {
    const advice: [Wire['F'][number][5][number][0], AdviceValues][] = [];
    for (const a of f.advice) {
      const values = adviceValuesOf(a);
      const redacted = values && redactValues(values, (s) => text(s));
      if (values && redacted && reproduces(a, values) && rebuildAdvice(a.id, redacted)) advice.push([a.id, redacted]);
      else
        dropped.push({
          what: 'advice',
          message: `The advice "${a.title}" (${f.code}) was left out: its command could not be rebuilt from the link.`,
        });
    }
    const late: Wire['F'][number][6] = (f.late ?? [])
      .slice(0, MAX_LATE_LISTED)
      .map((n) => [index.get(n.node) ?? text(n.node, MAX_NAME), lagMsOf(n.lagSeconds)]);
    return [f.code, f.severity, numbersOf(f, index, text), nodeList(f.nodes), evRefs(f.evidence, 3), advice, late];
  });

  // Values of notes and reasons: node names become node indexes (renamed with the table), words are redacted.
  const values = (vals: Values): WireValues => {
    const out: WireValues = {};
    for (const [k, x] of Object.entries(vals)) {
      if (!/^[a-z][A-Za-z]{0,23}$/.test(k)) continue;
      if (x === null || typeof x === 'number') out[k] = typeof x === 'number' && !Number.isFinite(x) ? null : x;
      else if (Array.isArray(x)) out[k] = nodeList(x.slice(0, MAX_NAMES_IN_VALUE));
      else out[k] = index.has(x) ? ids[index.get(x)!]! : text(x);
    }
    return out;
  };

  const facts = job.job;
  const lang: Lang = options.lang && LANGS.includes(options.lang) ? options.lang : 'en';
  const w: Wire = {
    a: cut(clean(options.appVersion ?? APP_VERSION), 32),
    c: Math.max(0, Math.floor((options.now ?? Date.now()) / 1000)),
    // The sender typed the title and sees it in the preview: it is cleaned and cut, not redacted.
    n: cut(clean(options.title ?? ''), MAX_TITLE),
    w: [lang, options.selectedNode != null ? (index.get(options.selectedNode) ?? null) : null, zoomOf(options.zoom)],
    o: [...(opts.evidence ? [] : ['evidence' as const]), ...(dropped.length ? ['advice' as const] : [])],
    d: job.verdict,
    t: t0,
    s: job.skewSeconds === null ? null : within(Math.round(job.skewSeconds * 1000), 0, 1e10),
    j: [
      facts.torchVersion && text(facts.torchVersion, 64),
      opts.evidence && facts.torchVersionEvidence ? text(facts.torchVersionEvidence, 200) : null,
      facts.backend && text(facts.backend, 32),
      facts.nnodes,
      facts.minNodes,
      facts.maxNodes,
      facts.nprocPerNode,
      facts.rdzvEndpoint && text(facts.rdzvEndpoint, MAX_NAME),
      facts.rdzvId && text(facts.rdzvId, MAX_NAME),
      facts.rdzvConfigs &&
        Object.fromEntries(
          Object.entries(facts.rdzvConfigs)
            .filter(([k]) => /^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(k))
            .slice(0, 32)
            .map(([k, x]) => [k, text(x, MAX_NAME)]),
        ),
      facts.rdzvConfigsDefaulted.filter((k) => /^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(k)).slice(0, 32),
      facts.worldSize,
      null,
    ],
    N: {
      i: ids,
      h: job.nodes.map((n, i) =>
        n.hostname === null ? 0 : n.hostname === n.id ? 1 : hostColumn(r, n.hostname, ids[i]!),
      ),
      g: job.nodes.map((n, i) => (n.groupRank === null ? null : n.groupRank - i)),
      l: job.nodes.map(lagMs),
      x: job.nodes.flatMap((n, i) => (n.isStoreHost ? [i] : [])),
      f: job.nodes.map((n) => (n.failureStage ? STAGES.indexOf(n.failureStage) + 1 : 0)),
      r: job.nodes.map((n) => rankRuns(n.globalRanks)),
      u: job.nodes.map((n) => (n.runId === null ? null : text(n.runId, MAX_NAME))),
      a: job.nodes.map((n) => ds(n, n.firstLine?.time)),
      z: job.nodes.map((n) => ds(n, n.lastLine?.time)),
      e: job.nodes.map((n) =>
        milestones(n.events).flatMap((e) => [
          KINDS.indexOf(e.kind),
          idIndex(e.id),
          ds(n, e.time),
          e.stage ? STAGES.indexOf(e.stage) + 1 : 0,
        ]),
      ),
      p: job.nodes.map((n) =>
        n.attempts
          .slice(0, MAX_ATTEMPTS)
          .map((a) => [
            a.index,
            a.failure?.stage ? STAGES.indexOf(a.failure.stage) + 1 : 0,
            a.attemptsLeft,
            a.maxRestarts,
            a.formedWorld ? 1 : 0,
          ]),
      ),
      o: job.nodes.flatMap((n, i) => (n.launchFrom === 'derived' ? [i] : [])),
    },
    I: eventIds,
    m: job.missingNodes.slice(0, 4096).map((m) => text(m, MAX_NAME)),
    k: job.clockOffsets.map((o) => [
      index.get(o.node) ?? text(o.node, MAX_NAME),
      o.offsetSeconds,
      o.boundSeconds,
      o.kind === 'time-zone' ? 1 : 0,
      o.applied ? 1 : 0,
      null,
    ]),
    f: failure && [
      failure.stage,
      nodeList(failure.reportedBy),
      nodeList(failure.lateNodes),
      failure.limit && [failure.limit.id, failure.limit.seconds, failure.limit.from, null],
      failure.reasoning.slice(0, MAX_NOTES).map((x) => [x.code, values(x.values)]),
      failureEvidence,
      failure.confidence === 'low' ? 1 : 0,
      failure.absent.slice(0, 16).map((h) => text(h, MAX_NAME)),
    ],
    M: job.missingCount,
    S: skewAmongPlacedOf(job),
    W: job.worldFormed && [job.worldFormed.nodes, null],
    X: job.mixedJobs && [
      job.mixedJobs.by,
      job.mixedJobs.groups.slice(0, MAX_RUNS).map((g) => [text(g.key), nodeList(g.nodes)]),
    ],
    F: findings,
    T: dx.thresholds.map((t) => [t.id, t.seconds, t.from, t.applies ? 1 : 0, t.def, null]),
    q: job.notes.slice(0, MAX_NOTES).map((x) => [x.code, values(x.values)]),
    e: table,
  };
  // Lower-priority evidence after the findings': the limits, the rdzv_configs line, the clock offsets.
  w.T.forEach((t, i) => (t[5] = evRef(dx.thresholds[i]!.evidence)));
  w.j[12] = evRef(facts.rdzvConfigsEvidence);
  w.k.forEach((k, i) => (k[5] = evRef(job.clockOffsets[i]!.evidence)));
  if (w.f && w.f[3] && failure?.limit) w.f[3][3] = evRef(failure.limit.evidence);
  if (w.W && job.worldFormed) w.W[1] = evRef(job.worldFormed.evidence);
  if (job.nodes.every((n) => n.attempts.length === 0)) delete w.N.p;
  if (w.N.o?.length === 0) delete w.N.o;
  if (job.nodes.every((n) => n.globalRanks.length === 0)) delete w.N.r;
  if (job.nodes.every((n) => n.runId === null)) delete w.N.u;
  return { wire: w, dropped, redacted: r.counts() };
}

/**
 * The events a timeline needs, in order: the launch (its first line: the banner and the config that follow it
 * add nothing), then the first of each other kind and entry (failures and errors: of each stage). A later
 * occurrence with a time replaces an untimed first one (the C++ line of a failure has a time, its traceback not).
 */
function milestones(events: NodeEvent[]): NodeEvent[] {
  const at = new Map<string, number>();
  const out: NodeEvent[] = [];
  for (const e of events) {
    if (!KINDS.includes(e.kind)) continue;
    const key = e.kind === 'launch' ? 'launch' : `${e.kind}|${e.id}|${e.stage ?? ''}`;
    const k = at.get(key);
    if (k !== undefined) {
      if (out[k]!.time === null && e.time !== null) out[k] = e;
      continue;
    }
    if (out.length === MAX_EVENTS_PER_NODE) continue;
    at.set(key, out.length);
    out.push(e);
  }
  return out;
}

/** Only the launch and the failures: what a timeline cannot do without. */
export function leanEvents(flat: (number | null)[]): (number | null)[] {
  const out: (number | null)[] = [];
  let launch = false;
  for (let k = 0; k < flat.length; k += 4) {
    const kind = KINDS[flat[k]!];
    if ((kind === 'launch' && !launch) || kind === 'failure') out.push(...flat.slice(k, k + 4));
    if (kind === 'launch') launch = true;
  }
  return out;
}

/** A lag in milliseconds, when a reader accepts it (wire.ts). */
function lagMsOf(seconds: number | null): number | null {
  return within(seconds === null ? null : Math.round(seconds * 1000), 0, 1e10);
}

function numbersOf(f: Finding, index: Map<string, number>, text: (s: string) => string): WireNumbers {
  const out: WireNumbers = {};
  for (const [k, x] of Object.entries(f.numbers)) {
    if (!/^[a-z][A-Za-z]{0,23}$/.test(k)) continue;
    // The late list travels as data (the finding's `late`); the reader makes its English text again.
    if (k === 'worst' && f.late) continue;
    if (typeof x === 'number') out[k] = Number.isFinite(x) ? x : null;
    else if (typeof x === 'string') {
      // "node0, node2": indexes into the node table (short, and renamed with it).
      const parts = x.split(', ');
      const all = parts.every((p) => index.has(p));
      out[k] = all && parts.join(', ') === x ? runs(parts.map((p) => index.get(p)!)) : text(x);
    } else out[k] = null;
  }
  return out;
}

function redactValues(values: AdviceValues, text: (s: string) => string): AdviceValues {
  return Object.fromEntries(Object.entries(values).map(([k, x]) => [k, typeof x === 'string' ? text(x) : x]));
}

/** The rebuilt advice has the original's command and says its words (in one of the languages). */
function reproduces(a: Finding['advice'][number], values: AdviceValues): boolean {
  const spec = rebuildAdvice(a.id, values);
  if (!spec || spec.command !== a.command) return false;
  return LANGS.some((lang) => {
    const t = adviceText(lang, a.id, values as P);
    return t.title === a.title && t.reason === a.reason && t.caveat === a.caveat;
  });
}

/** Consecutive ascending indexes become [first, last] runs; order is kept. */
function runs<T extends string | number>(xs: T[]): (T | [number, number])[] {
  const out: (T | [number, number])[] = [];
  let k = 0;
  while (k < xs.length) {
    const x = xs[k]!;
    let end = k;
    if (typeof x === 'number') while (xs[end + 1] === (xs[end] as number) + 1) end++;
    if (end - k >= 2) out.push([x as number, xs[end] as number]);
    else for (let q = k; q <= end; q++) out.push(xs[q]!);
    k = end + 1;
  }
  return out;
}

function rankRuns(ranks: number[]): (number | [number, number])[] {
  return runs(ranks.filter((r) => Number.isInteger(r) && r >= 0 && r <= 1e7)).slice(0, 1024);
}

function hostColumn(r: Redactor, hostname: string, id: string): string | 1 {
  const h = cut(clean(r.nodeId(hostname)), MAX_NAME);
  return h === id ? 1 : h;
}

/** `x` when it is a finite number in [lo, hi], else null. */
/** The skew among the placed nodes, when a reader accepts it (a fuzzed clock can put it past any real job). */
function skewAmongPlacedOf(job: JobModel): [number, number, number] | null {
  const p = job.skewAmongPlaced;
  const ms = p ? within(Math.round(p.seconds * 1000), 0, 1e10) : null;
  return p && ms !== null ? [ms, p.placed, p.total] : null;
}

function within(x: number | null, lo: number, hi: number): number | null {
  return x !== null && Number.isFinite(x) && x >= lo && x <= hi ? x : null;
}

function zoomOf(zoom: [number, number] | null | undefined): [number, number] | null {
  if (!zoom || !zoom.every(Number.isFinite)) return null;
  const [a, b] = zoom.map((x) => Math.max(-1e8, Math.min(1e8, Math.round(x * 10))));
  return a! < b! ? [a!, b!] : null;
}

function definedOnly(o: SnapshotOptions): Partial<RedactOptions> {
  const out: Partial<RedactOptions> = {};
  if (o.hostnames !== undefined) out.hostnames = o.hostnames;
  if (o.ips !== undefined) out.ips = o.ips;
  if (o.paths !== undefined) out.paths = o.paths;
  if (o.evidence !== undefined) out.evidence = o.evidence;
  return out;
}
