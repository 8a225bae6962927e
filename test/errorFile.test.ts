import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseTexts } from './helpers';

// A real torchelastic error.json, written by Debian's torch 1.13 for a worker wrapped with @record whose
// store_util.synchronize timed out (test/fixtures/errorjson/make_error_json.py made it).
const ERROR_JSON = readFileSync(path.join(__dirname, 'fixtures/errorjson/error.json'), 'utf8');

describe('torchelastic error.json', () => {
  it('is read as the failure it records, with its time and the frames that classify it', () => {
    const job = analyseTexts({ 'node1_logdir/job_x1y2z3w4/attempt_0/0/error.json': ERROR_JSON });
    expect(job.files[0]!.problem).toBeNull();
    expect(job.nodes).toHaveLength(1);
    const node = job.nodes[0]!;
    expect(node.id).toBe('node1');
    expect(node.failureStage).toBe('rank-assignment');
    const ev = node.events.find((e) => e.id === 'socket-timeout')!;
    expect(ev.time).toBe(new Date(1795980667 * 1000).toISOString());
    expect(job.verdict).toBe('failed');
  });

  it('joins the console log of the same node and dates its failure', () => {
    const console = "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group\n";
    const job = analyseTexts({
      'node1.log': console,
      'node1_logdir/job_x1y2z3w4/attempt_0/0/error.json': ERROR_JSON,
    });
    expect(job.nodes).toHaveLength(1);
    expect(job.nodes[0]!.files).toHaveLength(2);
  });

  it('a JSON file that is not an error file is said to be so', () => {
    const job = analyseTexts({ 'node1_logdir/job_x1y2z3w4/attempt_0/0/error.json': '{"foo": 1' });
    expect(job.files[0]!.problem?.code).toBe('not-a-log');
  });
});
