import { effectsOf } from '../../catalogue';
import { hostFromNodeId } from '../../identity';
import type { NodeView } from './view';

// What an address says before any node is blamed: a number that is no host name, a loopback address that
// each node reaches only itself at, the same machine under two names.

export const LOOPBACK = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[?::1\]?|\[?::ffff:127\.[\d.]{1,11}\]?)$/i;

/** `host` and `host.domain` name the same machine. */
export function sameHost(a: string, b: string): boolean {
  const short = (h: string) => h.toLowerCase().split('.')[0]!;
  return a.toLowerCase() === b.toLowerCase() || (!/^\d/.test(a) && !/^\d/.test(b) && short(a) === short(b));
}

/** Digits only, or 0.0.0.x: what a number given as a host name resolves to. */
export function bogusHost(host: string): string | null {
  if (/^\d{1,12}$/.test(host)) {
    const n = Number(host);
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  }
  return /^0\.0\.0\.\d{1,3}$|^\[?::ffff:0\.0\.0\.\d{1,3}\]?$/.test(host) ? host.replace(/^\[?::ffff:|\]$/g, '') : null;
}

/**
 * The rendezvous endpoint is a loopback address while the logs show the job on two machines or more (null when
 * not): each reaches only itself there. Nodes simulated on one machine (its own loopback) are not told apart
 * by this — only host names the logs print say the nodes are separate machines.
 */
export function loopbackEndpoint(endpointHost: string | null, views: NodeView[]): string | null {
  if (endpointHost === null || !LOOPBACK.test(endpointHost)) return null;
  return machinesNamed(views).size > 1 ? endpointHost : null;
}

/** Host names of the job's machines: the nodes' own, and those their lines name for themselves. */
function machinesNamed(views: NodeView[]): Set<string> {
  const out = new Set<string>();
  const add = (h: string | undefined) => {
    const v = h?.trim().toLowerCase();
    if (v && !LOOPBACK.test(v)) out.add(v.split('.')[0]!);
  };
  for (const v of views) {
    add(v.node.hostname ?? undefined);
    for (const e of v.events)
      for (const rule of effectsOf(e.id).identity ?? [])
        if (rule.kind === 'hostname')
          add(rule.read === 'c10d-node-id' ? hostFromNodeId(e.fields[rule.field] ?? '') : e.fields[rule.field]);
    if (out.size > 1) break;
  }
  return out;
}
