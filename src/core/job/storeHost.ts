import { effectsOf } from '../catalogue';
import { endpointHost } from '../identity';
import type { IdentityHint, JobFacts, LogEvent } from '../model';
import { bestHint } from './group';

// Which node hosts the rendezvous store: the one whose log says it does (the c10d host line, the static
// master waiting for clients); else, static: node_rank 0; c10d: the node whose name is the endpoint's host.

export function isStoreHost(identity: IdentityHint[], id: string, facts: JobFacts): boolean {
  if (identity.some((h) => h.kind === 'store-host')) return true;
  const host = bestHint(identity, 'hostname');
  const name = bestHint(identity, 'name');
  const rank = bestHint(identity, 'group-rank') ?? bestHint(identity, 'node-rank');
  if (facts.backend === 'static' || facts.backend === null) return rank?.value === '0';
  const endpoint = facts.rdzvEndpoint ? endpointHost(facts.rdzvEndpoint).toLowerCase() : null;
  return (
    endpoint !== null && [host?.value, name?.value, id].some((v) => v !== undefined && v.toLowerCase() === endpoint)
  );
}

/** The node got through to the store host: it joined, completed the rendezvous, or lost the connection later. */
export function reachedStore(evs: LogEvent[]): boolean {
  return evs.some((e) => {
    const s = effectsOf(e.id).store;
    return s === 'reached' || s === 'lost';
  });
}
