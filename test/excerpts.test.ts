import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointHost } from '../src/core/identity';
import type { FailureStage, JobModel, Verdict } from '../src/core/model';
import { analyseTexts } from './helpers';

// Excerpts shaped exactly like the logs people posted in public issue threads when a multi-node start failed
// (own hosts and values, the thread cited in each expect.json; see test/fixtures/excerpts/README.md), with the
// diagnosis a careful reader gives: the verdict, the stage, and the culprit when the text can tell.

const EXCERPTS = path.join(__dirname, 'fixtures', 'excerpts');

interface Expect {
  source: string | string[];
  shapes: string[];
  verdict: Verdict;
  stage: FailureStage | null;
  culprit: string[] | null;
  confidence: 'high' | 'low';
  why: string;
}

/** c10d's rendezvous store is a TCPStore: a client that cannot reach it is the same failure as a static one. */
const CONNECT: FailureStage[] = ['store-connect', 'rendezvous-connection'];
const sameStage = (a: FailureStage | undefined, b: FailureStage) =>
  a === b || (a !== undefined && CONNECT.includes(a) && CONNECT.includes(b));

function read(dir: string): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, r);
      else if (e.name !== 'expect.json') files[`${path.basename(dir)}/${r}`] = readFileSync(p);
    }
  };
  walk(dir, '');
  return files;
}

/** The names a node goes by: its id, hostname, and its file stems (excerpts name culprits by either). */
function namesOf(job: JobModel, id: string): string[] {
  const n = job.nodes.find((x) => x.id === id)!;
  // The store host also goes by the address the others connected to (`master_addr`, the c10d endpoint).
  const endpoint = n.isStoreHost && job.job.rdzvEndpoint ? endpointHost(job.job.rdzvEndpoint) : '';
  return [n.id, n.hostname ?? '', endpoint, ...n.files.map((f) => path.basename(f).replace(/\.[^.]+$/, ''))].filter(
    Boolean,
  );
}

const dirs = readdirSync(EXCERPTS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('real-shaped excerpts from public threads', () => {
  for (const name of dirs) {
    const want = JSON.parse(readFileSync(path.join(EXCERPTS, name, 'expect.json'), 'utf8')) as Expect;
    it(name, () => {
      const job = analyseTexts(read(path.join(EXCERPTS, name)), 4093, Date.UTC(2026, 11, 1));
      expect(job.verdict, want.why).toBe(want.verdict);
      if (want.verdict === 'failed' && want.stage)
        expect(sameStage(job.failure?.stage, want.stage), `stage ${job.failure?.stage}, want ${want.stage}`).toBe(true);
      if (want.verdict === 'failed' && want.culprit && want.culprit.length) {
        // Present culprits by any name they go by; absent ones (a store host with no log) by the name the logs use.
        const named = [...job.failure!.lateNodes.flatMap((id) => namesOf(job, id)), ...job.failure!.absent];
        for (const c of want.culprit) expect(named, `culprit ${c}`).toContain(c);
      }
      if (want.verdict === 'failed' && want.culprit && want.culprit.length === 0)
        expect([...job.failure!.lateNodes, ...job.failure!.absent], 'no node is to blame').toEqual([]);
    });
  }
});
