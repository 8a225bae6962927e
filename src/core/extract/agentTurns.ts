import { CATALOGUE } from '../catalogue';
import type { IdentityHint, LogEvent } from '../model';
import { newStream, type StreamState } from './stream';

// Several torchrun agents one after another in one unlabelled Slurm job output, in formats that print no
// process id (torch ≤ 2.4): `srun torchrun …` without `-l` writes every node's output to `slurm-%j.out`, and
// when one node starts so late that the others have already failed, each agent's lines stand in a block of
// their own. Each block begins after the previous agent's end (its failure, srun's report of its exit) — the
// job script's lines between (a `date`, a build that delayed the node) belong to the agent that follows —
// and holds its own launch block. Interleaved agents cannot be told apart this way and stay one stream
// (counted in `agents`); a node run again by the job script is not split (its blocks name the same host).

/** The launch block torchrun's launcher prints first (a launch entry with fields of its own): one per process. */
const LAUNCH_BLOCKS = new Set(
  CATALOGUE.filter((e) => e.kind === 'launch' && CATALOGUE.some((f) => f.blockOf === e.id)).map((e) => e.id),
);
const ENDS = new Set<LogEvent['kind']>(['failure', 'error', 'exit']);
/** Agents told apart this way per file. */
const MAX_TURNS = 64;

/** The stream key of the k-th agent (k ≥ 2) of a file split this way (agentRoute.ts isAgentKey knows it). */
const turnKey = (k: number): string => `agent ${k}`;

/**
 * The unlabelled stream of a scheduler's output split into one stream per agent, when its agents ran one after
 * another and their blocks name different hosts or ranks; otherwise the stream as it was.
 */
export function splitAgentTurns(s: StreamState, hintsOf: (s: StreamState) => IdentityHint[]): StreamState[] {
  const evs = s.x.events;
  const heads = evs.filter((e) => LAUNCH_BLOCKS.has(e.id));
  if (heads.length < 2 || heads.length > MAX_TURNS) return [s];
  // Where each later agent's lines begin: after the last end of the agent before it.
  const cuts: number[] = [];
  for (let k = 1; k < heads.length; k++) {
    let cut = -1;
    for (const e of evs)
      if (e.line > heads[k - 1]!.line && e.line < heads[k]!.line && ENDS.has(e.kind)) cut = Math.max(cut, e.line);
    if (cut < 0) return [s];
    cuts.push(cut);
  }
  const turns = [s, ...cuts.map((_, k) => newStream(s.x.file, turnKey(k + 2)))];
  const byTurn = (line: number) => {
    let k = 0;
    while (k < cuts.length && line > cuts[k]!) k++;
    return k;
  };
  const first: LogEvent[] = [];
  for (const e of evs) {
    const k = byTurn(e.line);
    (k === 0 ? first : turns[k]!.x.events).push(e);
  }
  const whole = s.x.events;
  s.x.events = first;
  // Each block must name its node, and no two the same one: else it is one node run again.
  if (!namesApart(turns.map((t) => nodeNames(hintsOf(t))))) {
    s.x.events = whole;
    return [s];
  }
  // The signs that counted agents in the one stream (each block's own rank) now count one agent per stream.
  s.agentKeys.clear();
  for (const t of turns.slice(1)) {
    const e = t.x.events[0]!;
    t.x.firstLine = { line: e.line, text: e.text, clocks: e.clocks };
    t.x.lastLine = { line: t.x.events.at(-1)!.line, text: t.x.events.at(-1)!.text, clocks: t.x.events.at(-1)!.clocks };
    t.x.torchEvidence = [`line ${e.line}: a launch block of its own after the agent before it ended`];
    t.x.formats = { ...s.x.formats };
  }
  s.x.lastLine = { line: first.at(-1)!.line, text: first.at(-1)!.text, clocks: first.at(-1)!.clocks };
  return turns;
}

function namesApart(names: string[][]): boolean {
  const seen = new Set<string>();
  for (const n of names) {
    if (n.length === 0 || n.some((v) => seen.has(v))) return false;
    for (const v of n) seen.add(v);
  }
  return true;
}

function nodeNames(hints: IdentityHint[]): string[] {
  return hints
    .filter((h) => h.kind === 'hostname' || h.kind === 'node-rank' || h.kind === 'group-rank')
    .map((h) => `${h.kind === 'hostname' ? 'host' : 'rank'}:${h.value.toLowerCase()}`);
}
