import type * as v from 'valibot';
import { DICTIONARY_V1 } from './dictionary';
import { WireV1Schema, type Wire, type WireV1 } from './wire';

// Links of older formats keep opening: each upgrader turns format `from` into `from + 1`.
//
// 1 → 2: format 1 carried the analysis' notes and the failure's reasons as words (in the sender's language),
// and the timeout that fired without saying where its value came from. Format 2 carries codes with values
// and the limit's source. A format-1 link's words are kept as they are, in the language they were written in
// (code `text`, with the link's language: the views mark them so); its limit is the one
// in force with that value, with the source the limits table gave it. Format 2's commands run as shown, so
// advice says how it is given: format 1's rdzv_conf was a flag, its upgrade and init_process_group lines knew
// neither the install nor the backend.

export interface Upgrader {
  from: number;
  /** The preset dictionary format `from` was deflated with, if any. */
  dictionary?: Uint8Array;
  schema: v.GenericSchema;
  up(wire: unknown): unknown;
}

function v1ToV2(old: unknown): Wire {
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
  } as Wire;
}

const V1_ADVICE_DEFAULTS: Partial<Record<string, Record<string, string>>> = {
  'rdzv-conf': { form: 'flag' },
  'upgrade-torch': { install: 'unknown' },
  'pg-timeout': { backend: '' },
};

/** Every upgrade from an older format, oldest first. */
export const UPGRADERS: Upgrader[] = [{ from: 1, dictionary: DICTIONARY_V1, schema: WireV1Schema, up: v1ToV2 }];
