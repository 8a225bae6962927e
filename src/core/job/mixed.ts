import { effectsOf } from '../catalogue';
import { endpointHost } from '../identity';
import type { MixedJobs, StreamExtract } from '../model';
import type { NodeGroup } from './group';

// Logs of different runs dropped together: their streams must not be paired into nodes (rank 0 of run A is
// not rank 0 of run B), and the user must be told. A stream's run is what its own lines say: the rendezvous
// id its agent used and the endpoint (host and port) it met at.

export interface RunKey {
  runId: string | null;
  endpoint: string | null;
}

function runKeyOf(s: StreamExtract): RunKey {
  let runId: string | null = null;
  let endpoint: string | null = null;
  for (const e of s.events) {
    const fx = effectsOf(e.id);
    const id = fx.runIdField ? e.fields[fx.runIdField]?.trim() : undefined;
    if (id && id !== 'none' && runId === null) runId = id;
    const ep = fx.facts?.endpoint ? e.fields[fx.facts.endpoint]?.trim() : undefined;
    if (ep && endpoint === null) endpoint = normaliseEndpoint(ep);
    if (runId !== null && endpoint !== null) break;
  }
  return { runId, endpoint };
}

function normaliseEndpoint(ep: string): string {
  const port = /:(\d{1,5})\s*$/.exec(ep)?.[1] ?? '';
  return `${endpointHost(ep).toLowerCase()}:${port}`;
}

const conflicts = (a: RunKey, b: RunKey) =>
  (a.runId !== null && b.runId !== null && a.runId !== b.runId) ||
  (a.endpoint !== null && b.endpoint !== null && a.endpoint !== b.endpoint);

export interface Runs {
  /** The run of each stream; -1 for a stream that says nothing of its run. */
  runOf: Map<StreamExtract, number>;
  keys: RunKey[];
}

/** Streams partitioned into runs by the keys their lines print; one run for a single job. */
export function splitRuns(streams: StreamExtract[]): Runs {
  const keys: RunKey[] = [];
  const runOf = new Map<StreamExtract, number>();
  for (const s of streams) {
    const k = runKeyOf(s);
    if (k.runId === null && k.endpoint === null) {
      runOf.set(s, -1);
      continue;
    }
    let run = keys.findIndex((x) => !conflicts(x, k));
    if (run < 0) {
      run = keys.length;
      keys.push({ ...k });
    } else {
      keys[run]!.runId ??= k.runId;
      keys[run]!.endpoint ??= k.endpoint;
    }
    runOf.set(s, run);
  }
  return { runOf, keys };
}

/**
 * The runs as the user should see them, when there is more than one. Agents that met at the same endpoint but
 * used different rendezvous ids are one job that could never meet (RUN_ID_MISMATCH), not a mix of runs.
 */
export function mixedJobsOf(runs: Runs, groups: NodeGroup[], ids: string[]): MixedJobs | null {
  if (runs.keys.length < 2) return null;
  const endpoints = new Set(runs.keys.map((k) => k.endpoint ?? ''));
  if (endpoints.size === 1) return null;
  const out: MixedJobs['groups'] = runs.keys.map((k) => ({ key: describe(k), nodes: [], files: [] }));
  groups.forEach((g, i) => {
    const run = g.streams.map((s) => runs.runOf.get(s) ?? -1).find((r) => r >= 0);
    if (run === undefined) return;
    out[run]!.nodes.push(ids[i]!);
    for (const s of g.streams) if (!out[run]!.files.includes(s.file)) out[run]!.files.push(s.file);
  });
  const ids2 = new Set(runs.keys.map((k) => k.runId ?? ''));
  return { by: ids2.size > 1 ? 'run-id' : 'endpoint', groups: out.filter((g) => g.nodes.length > 0) };
}

/** A run as torchrun's own flags name it (`rdzv_id=trainjob-b, rdzv_endpoint=node0:29600`): the same in every language. */
function describe(k: RunKey): string {
  return [k.runId ? `rdzv_id=${k.runId}` : null, k.endpoint ? `rdzv_endpoint=${k.endpoint}` : null]
    .filter(Boolean)
    .join(', ');
}
