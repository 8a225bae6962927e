import type * as v from 'valibot';
import { DICTIONARY_V1 } from './dictionary';
import {
  MAX_LATE_LISTED,
  MAX_NAME,
  WireV1Schema,
  WireV2Schema,
  type Wire,
  type WireNumbers,
  type WireV1,
  type WireV2,
} from './wire';

// Links of older formats keep opening: each upgrader turns format `from` into `from + 1`.
//
// 1 → 2: format 1 carried the analysis' notes and the failure's reasons as words (in the sender's language),
// and the timeout that fired without saying where its value came from. Format 2 carries codes with values
// and the limit's source. A format-1 link's words are kept as they are, in the language they were written in
// (code `text`, with the link's language: the views mark them so); its limit is the one
// in force with that value, with the source the limits table gave it. Format 2's commands run as shown, so
// advice says how it is given: format 1's rdzv_conf was a flag, its upgrade and init_process_group lines knew
// neither the install nor the backend.
//
// 2 → 3: format 2 carried LATE_NODE's latest late nodes as one English text (`numbers.worst`: "node7 (283 s),
// node2 (no time)"), which a Chinese page could only re-parse. Format 3 carries them as data, [node, lag ms]
// each, in the finding's seventh place (empty for other findings). A format-2 list is read back into data when
// every entry has that shape (a node of the table by its name, with the table's exact lag); otherwise its text
// stays in `numbers.worst` and is shown as it is.

export interface Upgrader {
  from: number;
  /** The preset dictionary format `from` was deflated with, if any. */
  dictionary?: Uint8Array;
  schema: v.GenericSchema;
  up(wire: unknown): unknown;
}

function v1ToV2(old: unknown): WireV2 {
  const w = old as WireV1;
  const failure = w.f;
  const fired =
    failure && failure[3] !== null
      ? w.T.find((t) => t[1] === failure[3] && t[3] === 1 && t[2] !== 'recommendation')
      : undefined;
  // Format 1's skew covered the nodes that could be placed: with some unplaced it is only a lower bound.
  const placed = w.N.l.filter((l) => l !== null).length;
  const partial = w.s !== null && placed < w.N.l.length;
  return {
    ...w,
    s: partial ? null : w.s,
    S: partial ? [w.s!, placed, w.N.l.length] : null,
    N: { ...w.N },
    M: w.m.length,
    W: null,
    X: null,
    f: failure && [
      failure[0],
      failure[1],
      failure[2],
      failure[3] === null
        ? null
        : [
            fired?.[0] ?? 'unknown',
            failure[3],
            fired && fired[2] !== 'recommendation' ? fired[2] : 'logs',
            fired?.[5] ?? null,
          ],
      failure[4].map((text) => ['text', { text, lang: w.w[0] }]),
      failure[5],
      0,
      [],
    ],
    q: w.q.map((text) => ['text', { text, lang: w.w[0] }]),
    F: w.F.map(([code, severity, numbers, nodes, evidence, advice]) => [
      code,
      severity,
      numbers,
      nodes,
      evidence,
      advice.map(([id, values]) => [id, { ...values, ...V1_ADVICE_DEFAULTS[id] }]),
    ]),
  } as WireV2;
}

type Late = Wire['F'][number][6];

/** The end of one entry of format 2's late-node text, after the name: `(283 s)`, `(4.5 s)`, `(no time)`. */
const WORST_LAG = /^\((?:(\d{1,11}(?:\.\d{1,3})?) s|no time)\)$/;

function v2ToV3(old: unknown): Wire {
  const w = old as WireV2;
  const byName = new Map(w.N.i.map((id, i) => [id, i]));
  const ref = (name: string): number | string | null => byName.get(name) ?? (name.length <= MAX_NAME ? name : null);
  const ms = (seconds: number): number | null => {
    const x = Math.round(seconds * 1000);
    return Number.isFinite(x) && x >= 0 && x <= 1e10 ? x : null;
  };
  /** The late nodes the text lists, or null when any entry is not what format 2 wrote. */
  const listed = (text: string): Late | null => {
    const out: Late = [];
    for (const part of text.split(', ')) {
      // `node7 (283 s)`: the name is everything before the last ` (`.
      const at = part.lastIndexOf(' (');
      const m = at > 0 ? WORST_LAG.exec(part.slice(at + 1)) : null;
      const node = m ? ref(part.slice(0, at)) : null;
      if (!m || node === null) return null;
      const i = typeof node === 'number' ? node : undefined;
      const stated = m[1] === undefined ? null : ms(Number(m[1]));
      if (m[1] !== undefined && stated === null) return null;
      // The node table holds the lag the text was rounded from.
      const exact = i === undefined ? null : (w.N.l[i] ?? null);
      out.push([node, stated === null ? null : (exact ?? stated)]);
    }
    return out.length <= MAX_LATE_LISTED ? out : null;
  };
  /** A single late node: the finding's `node` and `lag`. */
  const single = (numbers: WireNumbers): Late => {
    const node = numbers.node;
    const r =
      Array.isArray(node) && node.length === 1 && typeof node[0] === 'number'
        ? node[0]
        : typeof node === 'string'
          ? ref(node)
          : null;
    const lag = typeof numbers.lag === 'number' ? ms(numbers.lag) : null;
    return r === null || (numbers.lag !== null && lag === null) ? [] : [[r, lag]];
  };
  return {
    ...w,
    F: w.F.map(([code, severity, numbers, nodes, evidence, advice]) => {
      if (code !== 'LATE_NODE') return [code, severity, numbers, nodes, evidence, advice, []];
      const { worst, ...rest } = numbers;
      if (typeof worst !== 'string') return [code, severity, numbers, nodes, evidence, advice, single(numbers)];
      const late = listed(worst);
      return late
        ? [code, severity, rest, nodes, evidence, advice, late]
        : [code, severity, numbers, nodes, evidence, advice, []];
    }),
  };
}

const V1_ADVICE_DEFAULTS: Partial<Record<string, Record<string, string>>> = {
  'rdzv-conf': { form: 'flag' },
  'upgrade-torch': { install: 'unknown' },
  'pg-timeout': { backend: '' },
};

/** Every upgrade from an older format, oldest first. */
export const UPGRADERS: Upgrader[] = [
  { from: 1, dictionary: DICTIONARY_V1, schema: WireV1Schema, up: v1ToV2 },
  { from: 2, dictionary: DICTIONARY_V1, schema: WireV2Schema, up: v2ToV3 },
];
