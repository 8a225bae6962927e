import * as v from 'valibot';
import type { Diagnosis } from '../core/findings';
import type { JobModel } from '../core/model';
import { sentence, sentenceText, type Sentence } from '../i18n/sentence';
import { rebuildAdvice } from './advice';
import { buildWire, leanEvents, type Dropped, type SnapshotOptions } from './build';
import { MAX_FRAGMENT_CHARS, MAX_INFLATED_BYTES, parseFragment, seal, unpack, type EnvelopeError } from './codec';
import { DICTIONARY_V1 } from './dictionary';
import type { RedactionCounts } from './redact';
import { expandWire, type ShareSnapshot } from './snapshot';
import { UPGRADERS, type Upgrader } from './upgrade';
import { crossCheck, MAX_NODES, SHARE_VERSION, WireSchema, type Wire } from './wire';

// Share links: make one (redacted, within a size budget, saying what it left out), and read one back —
// any input, never a throw: a link that cannot be read gets a sentence a person can act on (every view words it
// in its reader's language; `message` is its English).

export const DEFAULT_SHARE_BASE = 'http://127.0.0.1:4173/';

export interface ShareOptions extends SnapshotOptions {
  /** The page the link opens. Default: the local preview server. */
  base?: string;
  /** Longest URL to aim for; default from the node count (see urlBudget). */
  maxUrlLength?: number;
}

/** 2,000 characters (what chat tools and issue trackers keep intact) up to 64 nodes, 16 KB up to 1024. */
export function urlBudget(nodeCount: number): number {
  return nodeCount <= 64 ? 2000 : nodeCount <= 1024 ? 16 * 1024 : MAX_FRAGMENT_CHARS;
}

export interface SharePreview {
  /** Exactly what the receiver will read: the link decoded again. */
  snapshot: ShareSnapshot;
  url: string;
  urlLength: number;
  budget: number;
  /** False when the link is longer than the budget even after every drop (it still opens). */
  fits: boolean;
  /** What was left out, in the order it was dropped, each with a sentence for the sender. */
  dropped: Dropped[];
  /** How many distinct hostnames, addresses and paths were replaced. */
  redacted: RedactionCounts;
}

export type ShareResult = ({ ok: true } & SharePreview) | { ok: false; error: ShareError };

export function previewShare(job: JobModel, diagnosis: Diagnosis, options: ShareOptions = {}): ShareResult {
  const tooLarge = (): ShareResult => ({
    ok: false,
    error: shareError('too-large', sentence('link.diagnosisTooLarge', { nodes: String(job.nodes.length) })),
  });
  if (job.nodes.length > MAX_NODES) return tooLarge();
  const base = shareBase(options.base);
  const { wire, dropped, redacted } = buildWire(job, diagnosis, options);
  // Never aim past what a reader accepts, whatever the caller asks.
  const hardCap = base.length + '#share=1.'.length + MAX_FRAGMENT_CHARS;
  const budget = Math.min(options.maxUrlLength ?? urlBudget(job.nodes.length), hardCap);
  const fitted = fit(wire, base, budget);
  if (fitted.url.length > hardCap) return tooLarge();
  const decoded = decodeShare(fitted.url);
  if (!decoded.ok) return decoded;
  return {
    ok: true,
    snapshot: decoded.snapshot,
    url: fitted.url,
    urlLength: fitted.url.length,
    budget,
    fits: fitted.url.length <= budget,
    dropped: [...dropped, ...fitted.dropped],
    redacted,
  };
}

/** The same as previewShare, named for callers that want the link (`skewscope analyze --share-url`). */
export function encodeShare(job: JobModel, diagnosis: Diagnosis, options: ShareOptions = {}): ShareResult {
  return previewShare(job, diagnosis, options);
}

export function shareBase(base: string | undefined): string {
  const b = (base ?? DEFAULT_SHARE_BASE).trim();
  const hash = b.indexOf('#');
  return hash < 0 ? b : b.slice(0, hash);
}

const urlOf = (base: string, w: Wire) => `${base}#share=${seal(SHARE_VERSION, JSON.stringify(w), DICTIONARY_V1)}`;

interface Step {
  what: Dropped['what'];
  applies(w: Wire): boolean;
  apply(w: Wire): string;
}

/** Cheapest loss first: per-rank detail, evidence lines, events other than launch and failure, notes, the rest. */
const STEPS: Step[] = [
  {
    what: 'ranks',
    applies: (w) => w.N.r !== undefined,
    apply: (w) => {
      delete w.N.r;
      return 'per-rank detail (the global ranks of each node)';
    },
  },
  {
    what: 'evidence',
    applies: (w) => w.e.length > 0 || w.j[1] !== null,
    apply: (w) => {
      const n = w.e.length;
      w.e = [];
      w.j[1] = null;
      w.j[12] = null;
      if (w.f) {
        w.f[5] = [];
        if (w.f[3]) w.f[3][3] = null;
      }
      if (w.W) w.W[1] = null;
      for (const f of w.F) f[4] = [];
      for (const t of w.T) t[5] = null;
      for (const k of w.k) k[5] = null;
      return `the ${n} evidence line${n === 1 ? '' : 's'}`;
    },
  },
  {
    what: 'events',
    applies: (w) => w.N.e.some((e) => leanEvents(e).length < e.length),
    apply: (w) => {
      w.N.e = w.N.e.map(leanEvents);
      return 'per-node events other than the launch and the failure';
    },
  },
  {
    what: 'notes',
    applies: (w) => w.q.length > 0,
    apply: (w) => {
      w.q = [];
      return 'the analysis notes (assumptions about times and zones)';
    },
  },
  {
    what: 'timeline',
    applies: (w) => w.N.e.some((e) => e.length > 0) || w.N.a.some((x) => x !== null) || w.N.z.some((x) => x !== null),
    apply: (w) => {
      w.N.e = w.N.e.map(() => []);
      w.N.a = w.N.a.map(() => null);
      w.N.z = w.N.z.map(() => null);
      return "the remaining per-node events (launch, failure) and each log's first and last time";
    },
  },
];

function fit(wire: Wire, base: string, budget: number): { url: string; dropped: Dropped[] } {
  const w = structuredClone(wire);
  const dropped: Dropped[] = [];
  let url = urlOf(base, w);
  for (const step of STEPS) {
    if (url.length <= budget) break;
    if (!step.applies(w)) continue;
    const what = step.apply(w);
    if (!w.o.includes(step.what)) w.o.push(step.what);
    const before = url.length;
    url = urlOf(base, w);
    dropped.push({
      what: step.what,
      message: `Left out ${what} to keep the link under ${budget.toLocaleString('en')} characters (${before.toLocaleString('en')} → ${url.length.toLocaleString('en')}).`,
    });
  }
  return { url, dropped };
}

// ——— Reading a link ———

export type ShareErrorCode = EnvelopeError | 'newer-version' | 'older-version' | 'invalid';

export interface ShareError {
  code: ShareErrorCode;
  /** What is wrong, for the views to word. */
  sentence: Sentence;
  /** The sentence in English. */
  message: string;
}

export function shareError(code: ShareErrorCode, said: Sentence): ShareError {
  return { code, sentence: said, message: sentenceText('en', said) };
}

export type Decoded = { ok: true; snapshot: ShareSnapshot } | { ok: false; error: ShareError };

export { UPGRADERS, type Upgrader };

const MESSAGES: Record<Exclude<ShareErrorCode, 'newer-version' | 'older-version' | 'invalid'>, Sentence> = {
  'not-a-share-link': sentence('link.notALink'),
  'bad-version': sentence('link.badVersion'),
  'too-large': sentence('link.tooLarge'),
  'bad-base64': sentence('link.badBase64'),
  truncated: sentence('link.truncated'),
  'bad-deflate': sentence('link.badDeflate'),
  'too-large-inflated': sentence('link.tooLargeInflated', { mb: String(MAX_INFLATED_BYTES / 1024 / 1024) }),
  checksum: sentence('link.checksum'),
  'bad-json': sentence('link.badJson'),
};

export function decodeShare(input: unknown, options: { upgraders?: Upgrader[] } = {}): Decoded {
  try {
    if (typeof input !== 'string') return fail('not-a-share-link', MESSAGES['not-a-share-link']);
    const fragment = parseFragment(input);
    if (!fragment.ok) return fail(fragment.code, MESSAGES[fragment.code]);
    const { version } = fragment;
    const formats = { version: String(version), reads: String(SHARE_VERSION) };
    if (version > SHARE_VERSION) return fail('newer-version', sentence('link.newer', formats));
    // The chain of upgrades from the link's format to the current one, known before anything is unpacked.
    const upgraders = options.upgraders ?? UPGRADERS;
    const chain: Upgrader[] = [];
    for (let from = version; from < SHARE_VERSION; from++) {
      const up = upgraders.find((u) => u.from === from);
      if (!up) return fail('older-version', sentence('link.older', formats));
      chain.push(up);
    }
    const opened = unpack(fragment.payload, chain[0] ? chain[0].dictionary : DICTIONARY_V1);
    if (!opened.ok) return fail(opened.code, MESSAGES[opened.code]);
    let wire: unknown = opened.json;
    for (const up of chain) {
      const old = v.safeParse(up.schema, wire);
      if (!old.success) return fail('invalid', invalidMessage(old.issues[0]));
      wire = up.up(old.output);
    }
    const parsed = v.safeParse(WireSchema, wire);
    if (!parsed.success) return fail('invalid', invalidMessage(parsed.issues[0]));
    const problem = crossCheck(parsed.output);
    if (problem) return fail('invalid', sentence('link.invalid', { detail: problem }));
    const snapshot = expandWire(parsed.output, SHARE_VERSION);
    for (const f of snapshot.findings) {
      for (const a of f.advice) {
        if (!rebuildAdvice(a.id, a.values))
          return fail('invalid', sentence('link.foreignAdvice', { advice: a.id, finding: f.code }));
      }
    }
    return { ok: true, snapshot };
  } catch {
    return fail('invalid', sentence('link.unreadable'));
  }
}

function fail(code: ShareErrorCode, said: Sentence): Decoded {
  return { ok: false, error: shareError(code, said) };
}

const FIELD_NAMES: Record<string, string> = {
  a: 'the skewscope version',
  c: 'the creation time',
  n: 'the title',
  w: 'the view',
  o: 'the list of omitted parts',
  d: 'the verdict',
  t: 'the start time',
  s: 'the skew',
  j: 'the job facts',
  N: 'the nodes',
  I: 'the event ids',
  m: 'the missing nodes',
  k: 'the clock offsets',
  f: 'the failure',
  F: 'the findings',
  T: 'the limits',
  q: 'the notes',
  e: 'the evidence lines',
};
const COLUMN_NAMES: Record<string, string> = {
  i: 'names',
  h: 'hostnames',
  g: 'group ranks',
  l: 'lags',
  x: 'store hosts',
  f: 'failure stages',
  r: 'global ranks',
  a: 'first lines',
  z: 'last lines',
  e: 'events',
};

/**
 * Which part of a link failed its check and how, in the schema's own words (English, shown as code): what a
 * maintainer needs to see; the sentence around it says what it means for the reader.
 */
function invalidMessage(issue: v.BaseIssue<unknown> | undefined): Sentence {
  if (!issue) return sentence('link.invalidBare');
  const path = issue.path ?? [];
  const where: string[] = [];
  path.forEach((item, i) => {
    const key = item.key;
    if (i === 0 && typeof key === 'string') where.push(FIELD_NAMES[key] ?? 'an unknown field');
    else if (i === 1 && path[0]?.key === 'N' && typeof key === 'string') where.push(COLUMN_NAMES[key] ?? 'a column');
    else if (typeof key === 'number') where.push(`item ${key + 1}`);
    else if (typeof key === 'string') where.push(`“${key.slice(0, 24)}”`);
  });
  let what = issue.message;
  if (/^Invalid key/.test(what)) what = `an unexpected field ${issue.received}`;
  else if (issue.kind === 'schema' && /^Invalid type/.test(what))
    what = `expected ${issue.expected ?? 'something else'}, got ${issue.received}`;
  else if (/^Invalid/.test(what))
    what = what.replace(/^Invalid \w+: Expected/, 'expected').replace(' but received ', ', got ');
  // Our own words (“an unknown finding code”): say what was found.
  else if (issue.kind === 'schema') what = `${what} (${issue.received})`;
  const place = where.length ? `${where.join(', ')}: ` : '';
  return sentence('link.invalid', { detail: cap(`${place}${what}`, 186) });
}

function cap(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}
