import { ENTRY } from '../catalogue';
import type { IdentityField } from '../catalogue';
import { sentence, type Sentence } from '../../i18n/sentence';
import { hint, hostFromNodeId } from '../identity';
import type { IdentityHint, LogEvent } from '../model';
import type { StreamState } from './stream';

// Who a stream is, from what its recognised lines say (each entry declares which of its fields name a host
// or a rank) and from the prefixes that name a host without splitting the file.

const RDZV_RANK = /'rank':\s*(\d{1,7})/;
const NODE_RANK_FLAG = /--node[_-]rank[= ](\d{1,7})/;

/** The value an identity rule reads from an event's field (a rank inside an rdzv_configs dict, a flag's value…). */
export function identityValue(rule: IdentityField, e: LogEvent): string | null {
  const raw = e.fields[rule.field];
  if (raw === undefined) return null;
  switch (rule.read) {
    case 'c10d-node-id':
      return hostFromNodeId(raw);
    case 'rdzv-rank':
      return RDZV_RANK.exec(raw)?.[1] ?? null;
    case 'node-rank-flag':
      return NODE_RANK_FLAG.exec(raw)?.[1] ?? null;
    case 'trim':
      return raw.trim() || null;
    default:
      return raw.trim() || null;
  }
}

function evidenceOf(rule: IdentityField, e: LogEvent, value: string): Sentence {
  // Line numbers as written (`line 1234`), not grouped like counts.
  const line = String(rule.field === 'rdzv_configs' ? (e.blockLines?.rdzv_configs?.line ?? e.line) : e.line);
  const raw = e.fields[rule.field] ?? '';
  const shown = raw.length > 80 ? raw.slice(0, 80) + '…' : raw;
  switch (rule.read) {
    case 'c10d-node-id':
      return sentence('hint.nodeId', { line, id: raw });
    case 'rdzv-rank':
      return sentence('hint.rdzvRank', { line, configs: shown });
    case 'node-rank-flag':
      return sentence('hint.nodeRankFlag', { line, value });
    default:
      return sentence('hint.field', { line, field: rule.field, value: shown, entry: e.id });
  }
}

export function contentHints(s: StreamState): IdentityHint[] {
  const hints: IdentityHint[] = [];
  const seen = new Set<string>();
  const add = (h: IdentityHint) => {
    const k = `${h.kind}:${h.value}`;
    if (seen.has(k)) return;
    seen.add(k);
    hints.push(h);
  };
  const sole = new Map<string, IdentityHint[]>();
  for (const e of s.x.events) {
    const fx = ENTRY.get(e.id)?.effects;
    if (!fx) continue;
    for (const rule of fx.identity ?? []) {
      const value = identityValue(rule, e);
      if (value === null) continue;
      if (!rule.onlyIfSole) add(hint(rule.kind, value, evidenceOf(rule, e, value), 'high'));
      else {
        const k = `${e.id}:${rule.field}`;
        const got = sole.get(k) ?? [];
        if (!got.some((h) => h.value === value)) got.push(hint(rule.kind, value, evidenceOf(rule, e, value), 'medium'));
        sole.set(k, got);
      }
    }
    if (fx.store === 'hosts')
      add(hint('store-host', 'store', sentence('hint.line', { line: String(e.line), text: brief(e.text) }), 'high'));
  }
  for (const got of sole.values()) if (got.length === 1) add(got[0]!);
  // A host named on the lines (NCCL's `host:pid:tid`) when it is the only one: one file, one node.
  if (s.prefixHosts.size === 1) {
    const [host, n] = [...s.prefixHosts][0]!;
    add(hint('hostname', host, sentence('hint.ncclHost', { n, host }), 'medium'));
  }
  return hints;
}

function brief(text: string): string {
  const t = text.trim();
  return t.length > 100 ? t.slice(0, 100) + '…' : t;
}
