import { effectsOf } from '../catalogue';
import { NOT_KEPT_ID, notKeptOf } from '../extract/keep';
import type { Attempt, EvidenceLine, LogEvent, NodeEvent } from '../model';
import { boundedCount } from '../numbers';
import { isoOrNull } from '../time';

// A node's agent runs: the first, then one per restart of its worker group (`--max-restarts`). Each restart
// says what failed before it and how many attempts were left; each rendezvous result says which attempt it
// completed (`restart_count`). A `--log-dir` tree keeps one `attempt_N` folder per run.

const ATTEMPT_DIR = /(?:^|[\\/])attempt_(\d{1,6})[\\/]/;

const ev = (e: { file: string; line: number; text: string }): EvidenceLine => ({
  file: e.file,
  line: e.line,
  text: e.text,
});

function attemptOfFile(file: string): number | null {
  const m = ATTEMPT_DIR.exec(file);
  return m ? Number(m[1]) : null;
}

const byLine = (evs: LogEvent[]) =>
  [...evs].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));

/**
 * The attempt each event belongs to: its `attempt_N` folder, else the restarts before it in its file. Only a
 * restart that uses up one of --max-restarts starts an attempt; a membership change starts a new round of
 * the same attempt (restart_count stays).
 */
export function attemptOf(evs: LogEvent[]): Map<LogEvent, number> {
  const out = new Map<LogEvent, number>();
  const restartsSoFar = new Map<string, number>();
  for (const e of byLine(evs)) {
    const dir = attemptOfFile(e.file);
    const n = restartsSoFar.get(e.file) ?? 0;
    out.set(e, dir ?? n);
    if (effectsOf(e.id).newAttempt) restartsSoFar.set(e.file, n + 1);
    // Restarts a stream too long to keep whole left out still count (extract/keep.ts).
    else if (e.id === NOT_KEPT_ID) restartsSoFar.set(e.file, n + (notKeptOf(e)?.restarts ?? 0));
  }
  return out;
}

/**
 * The events of the node's last rendezvous round: after the last restart of its worker group (a new attempt
 * or a membership change) in each file, and only the files of its highest `attempt_N` folder. What failed
 * before a restart that went on belongs to the restart's story, not to how the node ended.
 */
export function lastRound(evs: LogEvent[]): LogEvent[] {
  let top = -1;
  for (const e of evs) top = Math.max(top, attemptOfFile(e.file) ?? -1);
  // Per file: where the last round begins — the first rendezvous after the last restart (the restart's own
  // stopping of the workers, SIGTERM and all, belongs to the round it ended).
  const restartAt = new Map<string, number>();
  const roundAt = new Map<string, number>();
  for (const e of byLine(evs)) {
    if (e.kind === 'restart') {
      restartAt.set(e.file, e.line);
      roundAt.set(e.file, Infinity);
    } else if (e.kind === 'rendezvous-begin' && restartAt.has(e.file) && roundAt.get(e.file) === Infinity)
      roundAt.set(e.file, e.line);
  }
  return evs.filter((e) => {
    const dir = attemptOfFile(e.file);
    if (dir !== null && dir < top) return false;
    const from = roundAt.get(e.file);
    // A restart with no rendezvous after it: the log ends in the restart; its own lines are the last round.
    return from === undefined || e.line >= (from === Infinity ? restartAt.get(e.file)! : from);
  });
}

/** Attempts kept per node; a log appended to across hundreds of restarts keeps the first and the last ones. */
export const MAX_ATTEMPTS = 64;

export function nodeAttempts(
  evs: LogEvent[],
  attempt: Map<LogEvent, number>,
  timeOf: (e: LogEvent) => number | null,
): { attempts: Attempt[]; dropped: number } {
  const byAttempt = new Map<number, LogEvent[]>();
  const formed = new Set<number>();
  let restarted = false;
  for (const e of evs) {
    if (e.id === NOT_KEPT_ID) continue;
    const a = attempt.get(e) ?? 0;
    const list = byAttempt.get(a) ?? [];
    list.push(e);
    byAttempt.set(a, list);
    if (effectsOf(e.id).newAttempt) restarted = true;
    if (e.kind === 'rendezvous-complete') {
      const rc = boundedCount(e.fields.restart_count) ?? a;
      formed.add(rc);
      if (rc > 0) restarted = true;
      if (!byAttempt.has(rc)) byAttempt.set(rc, []);
    }
    if (a > 0) restarted = true;
  }
  if (!restarted) return { attempts: [], dropped: 0 };
  const indices = [...byAttempt.keys()].sort((x, y) => x - y);
  const kept =
    indices.length <= MAX_ATTEMPTS
      ? indices
      : [...indices.slice(0, MAX_ATTEMPTS / 2), ...indices.slice(-MAX_ATTEMPTS / 2)];
  const attempts = kept.map((index): Attempt => {
    const mine = byAttempt.get(index)!;
    const first = mine[0] ?? null;
    const restart = mine.find((e) => effectsOf(e.id).newAttempt) ?? null;
    let failed: LogEvent | undefined;
    if (restart)
      for (const e of mine)
        if ((e.kind === 'failure' || e.kind === 'error') && e.file === restart.file && e.line <= restart.line)
          failed = e;
    const t = first ? timeOf(first) : null;
    return {
      index,
      start: t === null ? null : isoOrNull(t),
      failure: restart ? { stage: failed?.stage ?? null, evidence: ev(failed ?? restart) } : null,
      attemptsLeft: restart ? boundedCount(restart.fields.left) : null,
      maxRestarts: restart ? boundedCount(restart.fields.max) : null,
      formedWorld: formed.has(index),
      evidence: ev(restart ?? first ?? evs[0]!),
    };
  });
  return { attempts, dropped: indices.length - kept.length };
}

/** Tag node events with their attempt, when the node restarted. */
export function tagAttempts(events: NodeEvent[], source: LogEvent[], attempt: Map<LogEvent, number>): void {
  const key = (e: { file: string; line: number; id: string }) => `${e.file}\n${e.line}\n${e.id}`;
  const byKey = new Map(source.map((e) => [key(e), attempt.get(e) ?? 0]));
  for (const e of events) {
    const a = byKey.get(key(e));
    if (a !== undefined) e.attempt = a;
  }
}

/** Progress past the start of the workers: a process group, a step, a finish. */
const PAST_START = new Set(['pg-ready', 'first-step', 'exit']);

/** The attempt an event says it belongs to (`restart_count=N`, a reply file under `attempt_N`), if any. */
function statedAttempt(e: LogEvent): number {
  return boundedCount(e.fields.restart_count) ?? boundedCount(e.fields.attempt) ?? attemptOfFile(e.file) ?? 0;
}

/**
 * The node restarted and its log ends before the new round shows any outcome — the restart in the log, or
 * above it (the log begins in attempt N > 0: whatever failed first is not shown).
 */
/**
 * How far into the job's restarts the node's last round is: the highest attempt any of its events states
 * (`restart_count=N`, `attempt_N`), or the restarts its log shows — comparable across nodes.
 */
export function lastRoundIndex(evs: LogEvent[]): number {
  let stated = 0;
  let restarts = 0;
  for (const e of evs) {
    stated = Math.max(stated, statedAttempt(e));
    if (e.kind === 'restart') restarts += 1;
  }
  return Math.max(stated, restarts);
}

/** The node's last round went past the start of its workers. */
export function lastRoundProgressed(evs: LogEvent[]): boolean {
  return lastRound(evs).some((e) => PAST_START.has(e.kind));
}

export function endsInRestart(evs: LogEvent[]): boolean {
  const last = lastRound(evs);
  if (last.some((e) => PAST_START.has(e.kind))) return false;
  return last.length < evs.length || evs.some((e) => statedAttempt(e) > 0);
}
