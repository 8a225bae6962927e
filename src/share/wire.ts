import * as v from 'valibot';
import type { AdviceId } from '../core/advice';
import { FINDING_CODES } from '../core/diagnosisText';
import { NOTE_CODES, REASON_CODES } from '../core/notesText';
import { LANGS } from '../core/i18n';
import type { EventKind, FailureStage, Verdict } from '../core/model';
import { THRESHOLD_DEFS, type LimitId } from '../core/thresholds';
import { hasControl } from './text';

// The share link's payload as it travels: short keys, node columns, indexes into tables — compact before
// deflate, and checked field by field on the way in (the link is untrusted input). Format 3; formats 1 (notes
// and reasons as words, no limit provenance) and 2 (LATE_NODE's list of late nodes as English text) are kept
// frozen below and upgraded on the way in (upgrade.ts).
//
// Times: `t` is the reference instant (epoch ms: the earliest torchrun launch, else the earliest time seen);
// lags and the skew are in milliseconds (exact, as the job model rounds them); event, first/last-line and
// zoom times are in tenths of a second, relative to the node's own launch when it has one, else to `t`.

export const SHARE_VERSION = 3;

export const MAX_NODES = 4096;
export const MAX_EVENTS_PER_NODE = 12;
export const MAX_EVIDENCE = 8;
export const MAX_EVIDENCE_TEXT = 160;
export const MAX_TEXT = 400;
export const MAX_NAME = 120;
export const MAX_TITLE = 120;
export const MAX_NOTES = 6;
export const MAX_FINDINGS = 3 * MAX_NODES + 32;
/** Runs ([first, last]) expand when read: bounds on what a link may expand to, whatever its size. */
export const MAX_LISTED_NAMES = 64 * MAX_NODES;
export const MAX_LISTED_RANKS = 256 * MAX_NODES;

// The tables below are part of format 1: links store positions in them, so they are frozen copies (append
// only), not the core's own lists, which may be reordered.
export const KINDS: EventKind[] = [
  'launch',
  'rendezvous-begin',
  'rendezvous-complete',
  'workers-started',
  'pg-ready',
  'first-step',
  'failure',
  'error',
  'restart',
  'exit',
  'info',
];
export const STAGES: FailureStage[] = [
  'store-connect',
  'rendezvous-connection',
  'rendezvous-timeout',
  'rendezvous-closed',
  'rank-assignment',
  'pg-init',
  'comm-init',
  'collective-timeout',
  'exit-barrier',
  'worker-error',
  'other',
];
export const VERDICTS: Verdict[] = ['failed', 'healthy', 'incomplete', 'not-torchrun'];
export const ADVICE_IDS = [
  'same-rdzv-id',
  'no-shared-store',
  'rdzv-conf',
  'upgrade-torch',
  'patch-synchronize',
  'stage-data',
  'start-host-first',
  'pg-timeout',
  'hccl-timeouts',
  'nccl-debug',
  'better-logs',
  'clock-sync',
  'collect-logs',
  'check-endpoint',
] as const satisfies readonly AdviceId[];
export const LIMIT_IDS = [
  'store-sync',
  'rdzv-timeout',
  'join-timeout',
  'read-timeout',
  'last-call-timeout',
  'pg-init',
  'exit-barrier',
  'hccl-connect',
  'hccl-exec',
  'recommended',
] as const satisfies readonly LimitId[];
// A new advice or limit in core must be added here too: these fail to compile until it is.
const _allAdvice: Exclude<AdviceId, (typeof ADVICE_IDS)[number]> extends never ? true : never = true;
const _allLimits: Exclude<LimitId, (typeof LIMIT_IDS)[number]> extends never ? true : never = true;
void _allAdvice;
void _allLimits;

/** What a link may leave out to stay short; the receiver says so instead of showing a gap as fact. */
export const OMISSIONS = ['ranks', 'evidence', 'events', 'timeline', 'notes', 'advice'] as const;
export type Omission = (typeof OMISSIONS)[number];

const Int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const Idx = (n: number) => Int(0, n - 1);
const Fin = v.pipe(v.number(), v.finite('a number that is not finite'), v.minValue(-1e12), v.maxValue(1e12));
const Text = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max, `text longer than ${max} characters`),
    v.check((s) => !hasControl(s), 'text with control characters'),
  );
const Bit = v.picklist([0, 1]);
const NodeIdx = Idx(MAX_NODES);
const Range = v.strictTuple([NodeIdx, NodeIdx]);
/** Node lists: indexes into the node table, [first, last] runs of them, or names not in the table. */
const NodeList = v.pipe(v.array(v.union([NodeIdx, Range, Text(MAX_NAME)])), v.maxLength(MAX_NODES));
const Key = v.pipe(v.string(), v.regex(/^[a-z][A-Za-z]{0,23}$/, 'a key that is not a plain word'));
const RdzvKey = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,39}$/, 'an rdzv_configs key that is not a plain word'),
  v.check((k) => !['__proto__', 'constructor', 'prototype'].includes(k), 'a reserved key'),
);
/** Finding numbers; an array is a list of nodes, shown joined with ", ". */
const Numbers = v.pipe(
  v.record(
    Key,
    v.union([v.null(), Fin, Text(MAX_TEXT), v.pipe(v.array(v.union([NodeIdx, Range])), v.maxLength(MAX_NODES))]),
  ),
  v.maxEntries(16),
);
const AdviceValues = v.pipe(v.record(Key, v.union([Fin, Text(MAX_TEXT)])), v.maxEntries(8));
const EvRef = Idx(MAX_EVIDENCE);
const Time = Int(-1e9, 1e9);

export const WireV1Schema = v.strictObject({
  /** skewscope version that made the link */
  a: Text(32),
  /** created, unix seconds */
  c: Int(0, 1e11),
  /** title */
  n: Text(MAX_TITLE),
  /** view: language, selected node, zoom [from, to] in tenths of a second from `t` */
  w: v.strictTuple([v.picklist(LANGS), v.nullable(NodeIdx), v.nullable(v.strictTuple([Time, Time]))]),
  o: v.pipe(v.array(v.picklist(OMISSIONS)), v.maxLength(OMISSIONS.length)),
  d: v.picklist(VERDICTS, 'an unknown verdict'),
  t: v.nullable(Int(0, 1e14)),
  s: v.nullable(Int(0, 1e10)),
  /** job facts */
  j: v.strictTuple([
    v.nullable(Text(64)), // torchVersion
    v.nullable(Text(MAX_TEXT)), // torchVersionEvidence
    v.nullable(Text(32)), // backend
    v.nullable(Int(0, 1e6)), // nnodes
    v.nullable(Int(0, 1e6)), // minNodes
    v.nullable(Int(0, 1e6)), // maxNodes
    v.nullable(Int(0, 1e6)), // nprocPerNode
    v.nullable(Text(MAX_NAME)), // rdzvEndpoint
    v.nullable(Text(MAX_NAME)), // rdzvId
    v.nullable(v.pipe(v.record(RdzvKey, Text(MAX_NAME)), v.maxEntries(32))), // rdzvConfigs
    v.pipe(v.array(RdzvKey), v.maxLength(32)), // rdzvConfigsDefaulted
    v.nullable(Int(0, 1e9)), // worldSize
    v.nullable(EvRef), // rdzvConfigsEvidence
  ]),
  /** nodes, as columns */
  N: v.strictObject({
    i: v.pipe(v.array(Text(MAX_NAME)), v.maxLength(MAX_NODES)),
    /** hostname: 0 none, 1 the same as the id */
    h: v.array(v.union([Bit, Text(MAX_NAME)])),
    /** group rank minus the node's position (0 for the usual order) */
    g: v.array(v.nullable(Int(-1e6, 1e6))),
    l: v.array(v.nullable(Int(0, 1e10))),
    /** store hosts */
    x: v.pipe(v.array(NodeIdx), v.maxLength(MAX_NODES)),
    /** own failure stage: 0 none, else STAGES[k - 1] */
    f: v.array(Int(0, STAGES.length)),
    /** global ranks */
    r: v.optional(
      v.array(v.pipe(v.array(v.union([Int(0, 1e7), v.strictTuple([Int(0, 1e7), Int(0, 1e7)])])), v.maxLength(1024))),
    ),
    /** rendezvous id (run_id) each agent used */
    u: v.optional(v.array(v.nullable(Text(MAX_NAME)))),
    /** first and last line with a time */
    a: v.array(v.nullable(Time)),
    z: v.array(v.nullable(Time)),
    /** events: [kind, id, time, stage] repeated; stage 0 none, else STAGES[k - 1] */
    e: v.array(v.pipe(v.array(v.nullable(Time)), v.maxLength(4 * MAX_EVENTS_PER_NODE))),
  }),
  /** event ids */
  I: v.pipe(v.array(v.pipe(Text(48), v.regex(/^[\w.-]+$/, 'an event id that is not a plain word'))), v.maxLength(128)),
  /** missing nodes */
  m: v.pipe(v.array(Text(MAX_NAME)), v.maxLength(MAX_NODES)),
  /** clock offsets: node, offset s, bound s, time zone (1) or clock (0), applied, evidence */
  k: v.pipe(
    v.array(v.strictTuple([v.union([NodeIdx, Text(MAX_NAME)]), Fin, Fin, Bit, Bit, v.nullable(EvRef)])),
    v.maxLength(MAX_NODES),
  ),
  /** failure: stage, reported by, late nodes, timeout s, reasoning, evidence */
  f: v.nullable(
    v.strictTuple([
      v.picklist(STAGES, 'an unknown failure stage'),
      NodeList,
      NodeList,
      v.nullable(Fin),
      v.pipe(v.array(Text(MAX_TEXT)), v.maxLength(MAX_NOTES)),
      v.pipe(v.array(EvRef), v.maxLength(MAX_EVIDENCE)),
    ]),
  ),
  /** findings: code, severity, numbers, nodes, evidence, advice [id, values] */
  F: v.pipe(
    v.array(
      v.strictTuple([
        v.picklist(FINDING_CODES, 'an unknown finding code'),
        v.picklist(['error', 'warning', 'info'], 'an unknown severity'),
        Numbers,
        NodeList,
        v.pipe(v.array(EvRef), v.maxLength(MAX_EVIDENCE)),
        v.pipe(
          v.array(v.strictTuple([v.picklist(ADVICE_IDS, 'an unknown advice id'), AdviceValues])),
          v.maxLength(ADVICE_IDS.length),
        ),
      ]),
    ),
    v.maxLength(MAX_FINDINGS),
  ),
  /** limits in force: id, seconds, from, applies, definition, evidence */
  T: v.pipe(
    v.array(
      v.strictTuple([
        v.picklist(LIMIT_IDS, 'an unknown limit id'),
        v.pipe(Fin, v.minValue(0)),
        v.picklist(['logs', 'inferred', 'default', 'recommendation']),
        Bit,
        v.picklist(
          THRESHOLD_DEFS.map((d) => d.id),
          'an unknown limit definition',
        ),
        v.nullable(EvRef),
      ]),
    ),
    v.maxLength(LIMIT_IDS.length),
  ),
  /** notes */
  q: v.pipe(v.array(Text(MAX_TEXT)), v.maxLength(MAX_NOTES)),
  /** evidence lines: file name, line, text */
  e: v.pipe(v.array(v.strictTuple([Text(MAX_NAME), Int(0, 1e9), Text(MAX_EVIDENCE_TEXT)])), v.maxLength(MAX_EVIDENCE)),
});

export type WireV1 = v.InferOutput<typeof WireV1Schema>;

/** Values of a note or a reason: numbers, words, node lists (indexes into the node table, or names). */
const Values = v.pipe(v.record(Key, v.union([v.null(), Fin, Text(MAX_TEXT), NodeList])), v.maxEntries(12));
const Coded = <T extends string>(codes: readonly T[], what: string) =>
  v.strictTuple([v.picklist(codes, `an unknown ${what} code`), Values]);
export const MAX_ATTEMPTS = 64;
export const MAX_RUNS = 64;

export const WireV2Schema = v.strictObject({
  ...WireV1Schema.entries,
  N: v.strictObject({
    ...WireV1Schema.entries.N.entries,
    /** attempts: [restart_count, stage that ended it (0 none), attempts left, max restarts, formed world] */
    p: v.optional(
      v.array(
        v.pipe(
          v.array(
            v.strictTuple([Int(0, 1e6), Int(0, STAGES.length), v.nullable(Int(0, 1e6)), v.nullable(Int(0, 1e6)), Bit]),
          ),
          v.maxLength(MAX_ATTEMPTS),
        ),
      ),
    ),
    /** nodes whose launch time is derived from a stated wait */
    o: v.optional(v.pipe(v.array(NodeIdx), v.maxLength(MAX_NODES))),
  }),
  /** missing nodes in all (the list `m` names the first few) */
  M: Int(0, 1e6),
  /** skew among the nodes placed when not all could be: ms, placed, total (then `s` is null) */
  S: v.nullable(v.strictTuple([Int(0, 1e10), Int(0, 1e6), Int(0, 1e6)])),
  /** the world formed: nodes, evidence */
  W: v.nullable(v.strictTuple([Int(1, 1e6), v.nullable(EvRef)])),
  /** runs mixed together: how they were told apart, and each run's key and nodes */
  X: v.nullable(
    v.strictTuple([
      v.picklist(['run-id', 'endpoint', 'time'], 'an unknown way of telling runs apart'),
      v.pipe(v.array(v.strictTuple([Text(MAX_TEXT), NodeList])), v.maxLength(MAX_RUNS)),
    ]),
  ),
  /** failure: stage, reported by, late nodes, limit [id, s, from, evidence], reasons, evidence, low confidence, absent */
  f: v.nullable(
    v.strictTuple([
      v.picklist(STAGES, 'an unknown failure stage'),
      NodeList,
      NodeList,
      v.nullable(
        v.strictTuple([
          v.pipe(Text(32), v.regex(/^[\w-]+$/, 'a limit id that is not a plain word')),
          v.pipe(Fin, v.minValue(0)),
          v.picklist(['logs', 'inferred', 'default'], 'an unknown limit source'),
          v.nullable(EvRef),
        ]),
      ),
      v.pipe(v.array(Coded(REASON_CODES, 'reason')), v.maxLength(MAX_NOTES)),
      v.pipe(v.array(EvRef), v.maxLength(MAX_EVIDENCE)),
      Bit,
      /** culprits with no log, by name */
      v.pipe(v.array(Text(MAX_NAME)), v.maxLength(16)),
    ]),
  ),
  /** notes: code, values */
  q: v.pipe(v.array(Coded(NOTE_CODES, 'note')), v.maxLength(MAX_NOTES)),
});

export type WireV2 = v.InferOutput<typeof WireV2Schema>;

/** LATE_NODE's late nodes as its words name them: at most this many (the rule names 8). */
export const MAX_LATE_LISTED = 64;

export const WireV3Schema = v.strictObject({
  ...WireV2Schema.entries,
  /**
   * findings: code, severity, numbers, nodes, evidence, advice [id, values], late nodes [node, lag ms] (LATE_NODE's
   * latest late nodes with their lags, latest first; empty for other findings)
   */
  F: v.pipe(
    v.array(
      v.strictTuple([
        ...WireV1Schema.entries.F.pipe[0].item.items,
        v.pipe(
          v.array(v.strictTuple([v.union([NodeIdx, Text(MAX_NAME)]), v.nullable(Int(0, 1e10))])),
          v.maxLength(MAX_LATE_LISTED),
        ),
      ]),
    ),
    v.maxLength(MAX_FINDINGS),
  ),
});

/** The current format. */
export type Wire = v.InferOutput<typeof WireV3Schema>;
export const WireSchema = WireV3Schema;
export type WireValues = v.InferOutput<typeof Values>;
export type WireNodeList = Wire['F'][number][3];
export type WireNumbers = Wire['F'][number][2];

/**
 * What the schema cannot say alone: columns as long as the node table, indexes inside their tables, unique
 * node ids. Returns the first problem in words, or null.
 */
export function crossCheck(w: Wire): string | null {
  const n = w.N.i.length;
  const cols: [string, unknown[] | undefined][] = [
    ['hostnames', w.N.h],
    ['group ranks', w.N.g],
    ['lags', w.N.l],
    ['failure stages', w.N.f],
    ['first lines', w.N.a],
    ['last lines', w.N.z],
    ['events', w.N.e],
    ['global ranks', w.N.r],
    ['run ids', w.N.u],
    ['attempts', w.N.p],
  ];
  for (const [name, col] of cols) {
    if (col && col.length !== n) return `the ${name} column has ${col.length} entries for ${n} nodes`;
  }
  const ids = new Set<string>();
  for (const id of w.N.i) {
    if (!id) return 'a node without a name';
    if (ids.has(id)) return `two nodes named "${id.slice(0, 40)}"`;
    ids.add(id);
  }
  const node = (i: number) => i < n;
  // Expanded sizes, counted without expanding: a run may not reach past the table or run backwards.
  type Entry = number | string | [number, number];
  const width = (l: Entry[]) => l.reduce<number>((k, x) => k + (Array.isArray(x) ? x[1] - x[0] + 1 : 1), 0);
  const valueLists = (values: WireValues) => Object.values(values).filter((x): x is Entry[] => Array.isArray(x));
  const lists: Entry[][] = [
    ...(w.f ? [w.f[1], w.f[2], ...w.f[4].flatMap(([, values]) => valueLists(values))] : []),
    ...w.F.flatMap(([, , numbers, nodes]) => [nodes, ...Object.values(numbers).filter((x) => Array.isArray(x))]),
    ...w.q.flatMap(([, values]) => valueLists(values)),
    ...(w.X ? w.X[1].map(([, nodes]) => nodes) : []),
  ];
  if (lists.some((l) => l.some((x) => Array.isArray(x) && x[0] > x[1]))) return 'a node run that ends before it starts';
  if (lists.some((l) => width(l) > n + MAX_NODES)) return 'a node list longer than the node table';
  if (lists.reduce((k, l) => k + width(l), 0) > MAX_LISTED_NAMES) return 'node lists that expand too far';
  const ranks = w.N.r ?? [];
  if (ranks.some((l) => l.some((x) => Array.isArray(x) && x[0] > x[1]))) return 'a rank run that ends before it starts';
  if (ranks.reduce((k, l) => k + width(l), 0) > MAX_LISTED_RANKS) return 'global ranks that expand too far';
  if (w.N.g.some((g, i) => g !== null && g + i < 0)) return 'a negative group rank';
  const list = (l: WireNodeList | (number | [number, number])[]) =>
    l.every((x) => (typeof x === 'number' ? node(x) : typeof x === 'string' || (x[0] <= x[1] && node(x[1]))));
  const ev = (i: number | null) => i === null || i < w.e.length;
  if (!w.N.x.every(node)) return 'a store host that is not in the node table';
  if (w.w[1] !== null && !node(w.w[1])) return 'the selected node is not in the node table';
  if (w.w[2] && w.w[2][0] >= w.w[2][1]) return 'the zoom range ends before it starts';
  if (!ev(w.j[12])) return 'the rdzv_configs evidence points past the evidence lines';
  for (const events of w.N.e) {
    if (events.length % 4 !== 0) return 'a node event list that is cut short';
    for (let k = 0; k < events.length; k += 4) {
      const [kind, id, , stage] = events.slice(k, k + 4);
      if (kind === null || kind === undefined || kind < 0 || kind >= KINDS.length) return 'an unknown event kind';
      if (id === null || id === undefined || id < 0 || id >= w.I.length) return 'an event id outside the id table';
      if (stage === null || stage === undefined || stage < 0 || stage > STAGES.length) return 'an unknown event stage';
    }
  }
  for (const [ref, , , , , e] of w.k) {
    if ((typeof ref === 'number' && !node(ref)) || !ev(e)) return 'a clock offset that points outside its tables';
  }
  if (w.f && (!list(w.f[1]) || !list(w.f[2]) || !w.f[5].every(ev) || !ev(w.f[3]?.[3] ?? null)))
    return 'the failure points outside the node or evidence tables';
  if (lists.some((l) => !list(l))) return 'a node list that points outside the node table';
  if (w.W && !ev(w.W[1])) return 'the formed world points past the evidence lines';
  if (w.N.o && !w.N.o.every(node)) return 'a derived launch of a node that is not in the node table';
  for (const [code, , numbers, nodes, evidence, , late] of w.F) {
    const lists = Object.values(numbers).filter((x): x is (number | [number, number])[] => Array.isArray(x));
    if (
      !list(nodes) ||
      !lists.every(list) ||
      !evidence.every(ev) ||
      !late.every(([x]) => typeof x !== 'number' || node(x))
    )
      return `the ${code} finding points outside the node or evidence tables`;
  }
  for (const t of w.T) if (!ev(t[5])) return `the ${t[0]} limit points past the evidence lines`;
  return null;
}
