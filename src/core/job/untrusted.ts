import { effectsOf } from '../catalogue';
import { statedSeconds } from '../durations';
import type { EvidenceLine, JobFacts, LogEvent, Note } from '../model';
import { boundedCount, boundedSeconds } from '../numbers';

// Numbers the lines print are untrusted: each reader (numbers.ts, durations.ts) refuses a value no real job has
// where it parses it, and the job goes on without it. This step says which were refused — the value as printed,
// never as a number — so a forged `max_nodes : 4294967296` is flagged, not silently missing.

/** Refused values named one by one; a hostile file may hold thousands, the first few make the point. */
const MAX_FLAGGED = 4;
const COUNT_FACTS = ['minNodes', 'maxNodes', 'nprocPerNode', 'worldNodes'] as const;
/** Counts agents print that attempts and node identity read (`restart_count=N`, `N/M attempts left`, `group_rank=N`). */
const COUNT_FIELDS = ['restart_count', 'left', 'max', 'group_rank'];

export function refusedNumbers(events: LogEvent[], facts: JobFacts): Note[] {
  const out: Note[] = [];
  const seen = new Set<string>();
  const flag = (at: EvidenceLine | LogEvent, what: string, raw: string) => {
    const key = `${what}\n${raw}`;
    if (seen.has(key) || !/\d/.test(raw)) return;
    seen.add(key);
    if (out.length < MAX_FLAGGED) {
      const value = raw.trim().length > 40 ? `${raw.trim().slice(0, 40)}…` : raw.trim();
      // A block field (`max_nodes : N` under the launch config) is on its own line, not the block's first.
      const line = ('blockLines' in at ? at.blockLines?.[what]?.line : undefined) ?? at.line;
      out.push({ code: 'number-refused', values: { file: at.file, line, what, value } });
    }
  };
  for (const e of events) {
    const fx = effectsOf(e.id);
    for (const fact of COUNT_FACTS) {
      const field = fx.facts?.[fact];
      const raw = field === undefined ? undefined : e.fields[field];
      if (field && raw !== undefined && boundedCount(raw) === null) flag(e, field, raw);
    }
    for (const d of [fx.limit, fx.waitedSinceLaunch]) {
      const raw = d ? e.fields[d.field] : undefined;
      if (d && raw !== undefined && statedSeconds(e.fields, d) === null) flag(e, d.field, raw);
    }
    for (const field of COUNT_FIELDS) {
      const raw = e.fields[field];
      if (raw !== undefined && boundedCount(raw) === null) flag(e, field, raw);
    }
  }
  const ev = facts.rdzvConfigsEvidence;
  for (const [k, v] of Object.entries(facts.rdzvConfigs ?? {}))
    if (ev && k.endsWith('timeout') && boundedSeconds(v, 's') === null) flag(ev, k, v);
  return out;
}
