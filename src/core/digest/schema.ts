import * as v from 'valibot';
import { english, isSentenceKey, type Sentence, type SentenceKey } from '../../i18n/sentence';
import { CATALOGUE } from '../catalogue';
import type {
  Clock,
  EventKind,
  FailureStage,
  FileExtract,
  FileProblem,
  IdentityHint,
  LogEvent,
  TimeQuality,
} from '../model';
import { DIGEST_FORMAT } from './format';

// A digest is untrusted input (it comes off a cluster, through hands and scripts): every field the job builder
// reads is checked here, with bounds, before it gets anywhere near it. Objects are loose: a field a newer
// skewscope of the same format adds travels through unchecked and unused, so old readers keep working.

// The lists below must name every value of the model's unions: each fails to compile until it does.
const EVENT_KINDS = [
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
] as const satisfies readonly EventKind[];
const STAGES = [
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
] as const satisfies readonly FailureStage[];
const QUALITIES = ['full', 'no-zone', 'no-year'] as const satisfies readonly Exclude<TimeQuality, 'none'>[];
const HINT_KINDS = [
  'hostname',
  'node-rank',
  'group-rank',
  'name',
  'label',
  'logdir',
  'store-host',
] as const satisfies readonly IdentityHint['kind'][];
const PROBLEM_CODES = [
  'binary',
  'empty',
  'not-a-log',
  'unreadable',
  'archive-error',
  'bomb',
] as const satisfies readonly FileProblem['code'][];
/** The extractor also stores `fact` events (typed as EventKind, they are not): any kind an entry has. */
const STORED_KINDS = new Set<string>([...EVENT_KINDS, ...CATALOGUE.map((e) => e.kind)]);
type Missing<U, L extends readonly unknown[]> = Exclude<U, L[number]> extends never ? true : never;
const _complete: [
  Missing<EventKind, typeof EVENT_KINDS>,
  Missing<FailureStage, typeof STAGES>,
  Missing<Exclude<TimeQuality, 'none'>, typeof QUALITIES>,
  Missing<IdentityHint['kind'], typeof HINT_KINDS>,
  Missing<FileProblem['code'], typeof PROBLEM_CODES>,
] = [true, true, true, true, true];
void _complete;

/** Longest string anywhere in a digest: event texts are cut at 2,000 characters, paths stay far below. */
const MAX_STRING = 16 * 1024;
const MAX_LIST = 1_000_000;

// Leaves are single checks (not pipes of actions): a digest holds thousands of them, 10,000 digests millions.
const Str = (max = MAX_STRING) =>
  v.custom<string>((x) => typeof x === 'string' && x.length <= max, `expected a text of at most ${max} characters`);
const Int = (min: number, max: number) =>
  v.custom<number>(
    (x) => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max,
    `expected a whole number from ${min} to ${max}`,
  );
const Count = Int(0, Number.MAX_SAFE_INTEGER);
const List = <T extends v.GenericSchema>(item: T, max = MAX_LIST) => v.pipe(v.array(item), v.maxLength(max));
/** Keys of records (fields, block lines, formats): no key that would reach an object's prototype. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const Key = v.custom<string>(
  (k) => typeof k === 'string' && k.length <= 256 && !RESERVED.has(k),
  'a key that is too long or reserved',
);
const Record = <T extends v.GenericSchema>(value: T) => v.pipe(v.record(Key, value), v.maxEntries(4096));
const Word = v.custom<string>(
  (x) => typeof x === 'string' && x.length <= 128 && /^[\w.:-]+$/.test(x),
  'an id that is not a plain word',
);

/** A number a sentence is filled with (counts, sizes): finite. */
const Num = v.custom<number>((x) => typeof x === 'number' && Number.isFinite(x), 'expected a finite number');
const SentenceKeyOf = v.custom<SentenceKey>(isSentenceKey, 'a sentence this skewscope does not know');
/** A sentence whose values are text, numbers or sentences `deeper` levels down (none nest further today). */
function sentenceSchema(deeper: number): v.GenericSchema<Sentence> {
  const value = deeper > 0 ? v.union([Str(4096), Num, sentenceSchema(deeper - 1)]) : v.union([Str(4096), Num]);
  return v.looseObject({ key: SentenceKeyOf, values: v.pipe(v.record(Key, value), v.maxEntries(16)) });
}
const SentenceSchema = sentenceSchema(3);

const ClockSchema = v.looseObject({
  source: Str(64),
  text: Str(256),
  quality: v.picklist(QUALITIES, 'an unknown time quality'),
  year: v.nullable(Int(0, 9999)),
  month: Int(1, 12),
  day: Int(1, 31),
  hour: Int(0, 24),
  minute: Int(0, 59),
  second: Int(0, 60),
  millis: Int(0, 999),
  offsetMinutes: v.nullable(Int(-24 * 60, 24 * 60)),
  resolutionMs: v.custom<number>(
    (x) => typeof x === 'number' && x >= 0 && x <= 86_400_000,
    'expected a resolution from 0 to 86400000 ms',
  ),
});
const Clocks = List(ClockSchema, 64);

const LineRef = v.looseObject({ line: Count, text: Str() });

const EventSchema = v.looseObject({
  id: Word,
  kind: v.custom<EventKind>((k) => typeof k === 'string' && STORED_KINDS.has(k), 'an unknown event kind'),
  file: Str(),
  line: Count,
  text: Str(),
  clocks: Clocks,
  fields: Record(Str()),
  blockLines: v.optional(Record(LineRef)),
  stage: v.optional(v.picklist(STAGES, 'an unknown failure stage')),
  role: v.optional(v.picklist(['primary', 'consequence'], 'an unknown role')),
  frames: v.optional(List(Str(1024), 4096)),
  ranks: v.optional(List(Int(0, 1e9), 1 << 20)),
  localRank: v.optional(Int(0, 1e6)),
  confidence: v.optional(v.literal('low')),
});

/** A sentence a digest carries with its English words: a digest made before sentences, or by a newer skewscope
 * that says what this one cannot word, falls back to those words (shown as they are). */
const sentenceOr = (x: unknown, words: string): Sentence => (v.is(SentenceSchema, x) ? x : english(words));

const HintSchema = v.pipe(
  v.looseObject({
    kind: v.picklist(HINT_KINDS, 'an unknown identity kind'),
    value: Str(),
    sentence: v.optional(v.unknown()),
    evidence: Str(),
    confidence: v.picklist(['high', 'medium', 'low'], 'an unknown confidence'),
  }),
  v.transform((h) => ({ ...h, sentence: sentenceOr(h.sentence, h.evidence) })),
);

const EdgeLine = v.nullable(v.looseObject({ line: Count, text: Str(), clocks: Clocks }));

const StreamSchema = v.looseObject({
  file: Str(),
  stream: Str(1024),
  events: List(EventSchema),
  identity: List(HintSchema, 4096),
  firstLine: EdgeLine,
  lastLine: EdgeLine,
  lineCount: Count,
  formats: Record(Count),
  torchEvidence: List(Str(), 64),
  agents: Int(1, 1e6),
});

export const FileExtractSchema = v.looseObject({
  file: v.custom<string>(
    (x) => typeof x === 'string' && x.length > 0 && x.length <= 4096,
    'expected a file name of 1 to 4096 characters',
  ),
  bytes: Count,
  lines: Count,
  longLines: Count,
  invalidUtf8: v.boolean(),
  mtimeMs: v.custom<number | null>(
    (x) => x === null || (typeof x === 'number' && Number.isFinite(x) && x >= 0),
    'expected a modification time in ms, or null',
  ),
  decoding: v.optional(
    v.looseObject({
      encoding: v.picklist(['utf-8', 'utf-16le', 'utf-16be'], 'an unknown encoding'),
      bom: v.boolean(),
      invalidBytes: Count,
      nulBytes: Count,
      ansiSequences: Count,
      cutLines: Count,
    }),
  ),
  streams: List(StreamSchema, 1 << 16),
  problem: v.nullable(
    v.pipe(
      v.looseObject({
        code: v.picklist(PROBLEM_CODES, 'an unknown problem code'),
        message: Str(4096),
        sentence: v.optional(v.unknown()),
      }),
      v.transform((p) => ({ ...p, sentence: sentenceOr(p.sentence, p.message) })),
    ),
  ),
});

export const DigestSchema = v.looseObject({
  format: v.literal(DIGEST_FORMAT),
  version: Int(1, 1e6),
  producer: Str(128),
  created: Str(64),
  node: v.looseObject({ name: Str(1024), host: Str(1024) }),
  lines: v.boolean(),
  files: List(FileExtractSchema, 1 << 20),
  overflow: v.nullable(v.looseObject({ capBytes: Count, events: Count, byId: Record(Count), files: Count })),
  check: v.custom<string>((x) => typeof x === 'string' && /^[0-9a-f]{8}$/.test(x), 'a checksum of 8 hex digits'),
});

// The schema must describe the model: these fail to compile when a required field is missing from it.
const _clock = (x: v.InferOutput<typeof ClockSchema>): Clock => x;
const _event = (x: v.InferOutput<typeof EventSchema>): LogEvent => x;
const _extract = (x: v.InferOutput<typeof FileExtractSchema>): FileExtract => x;
void _clock;
void _event;
void _extract;
