import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CAPTURED, analyseTexts, corpusText } from './helpers';

// Several agents in one unlabelled file (src/core/extract/agentRoute.ts), from a real torch 2.6 run: the four
// node logs of torch2.6-s4_c10d_join_timeout30_node3_late (c10d, endpoint node0, node3 launched 45 s late), put
// into one file the two ways a cluster does it. glog's process id tells the agents apart.

const SCENARIO = 'torch2.6-s4_c10d_join_timeout30_node3_late';
const NODES = ['node0.log', 'node1.log', 'node2.log', 'node3.log'];
const logs = NODES.map((f) => corpusText(SCENARIO, f));

/** One node's log after another, as the unlabelled output of `srun torchrun …` collects when tasks end in turn. */
const oneAfterAnother = logs.join('');

/**
 * Two agents writing one log while both run: node0 and node1 (launched 1 s apart) each print their launch and
 * rendezvous lines, then each fails (the join timeout) and prints its traceback, node0 first.
 */
function sharedByTwo(): string {
  const [a, b] = [logs[0]!, logs[1]!].map((log) => {
    const lines = log.split('\n');
    const cut = lines.findIndex((l) => l.startsWith('Traceback'));
    return [lines.slice(0, cut).join('\n') + '\n', lines.slice(cut).join('\n')];
  });
  return a![0]! + b![0]! + a![1]! + b![1]!;
}

const lagOf = (job: ReturnType<typeof analyseTexts>) =>
  job.nodes.map((n) => n.lagSeconds).sort((a, b) => (a ?? 0) - (b ?? 0));

describe('agents in one unlabelled file', () => {
  it('a Slurm job output holding every node one after another: one node per agent, the late one named', () => {
    const job = analyseTexts({ 'slurm-4242.out': oneAfterAnother });
    expect(job.nodes).toHaveLength(4);
    expect(job.nodes.every((n) => n.agents === 1)).toBe(true);
    const lags = lagOf(job);
    expect(lags[3]).toBeGreaterThan(44);
    expect(lags[3]).toBeLessThan(46);
    expect(job.verdict).toBe('failed');
    const late = job.failure?.lateNodes ?? [];
    expect(late).toHaveLength(1);
    // The late agent is the one whose lines came from node3's log (its pid, 2642).
    const node = job.nodes.find((n) => n.id === late[0])!;
    expect(node.events.some((e) => e.text.includes(' 2642 torch/distributed/'))).toBe(true);
  });

  it('an ordinary log holding agents one after another is one node run again, not several nodes', () => {
    const job = analyseTexts({ 'train.log': oneAfterAnother });
    expect(job.nodes).toHaveLength(1);
  });

  it('agents that run at the same time in one log are told apart by their process ids', () => {
    const job = analyseTexts({ 'train.log': sharedByTwo() });
    expect(job.nodes).toHaveLength(2);
    expect(job.nodes.every((n) => n.agents === 1)).toBe(true);
    const lags = lagOf(job);
    expect(lags[0]).toBe(0);
    expect(lags[1]).toBeGreaterThan(0.9);
    expect(lags[1]).toBeLessThan(1.1);
  });
});

// Before torch 2.5 nothing on a line names the agent that printed it. A static agent's launch block still says
// its rank (`rdzv_configs : {'rank': 3, …}`), so an unlabelled Slurm output holding every node of the real
// 1.13 run torch1.13-static-nonhost-late-fail (4 nodes, untimed, node3 launched 320 s late) holds four agents:
// none of the four is missing, and with no times nothing says which one was late.
describe('agents in one unlabelled file without process ids', () => {
  const dir = path.join(CAPTURED, 'torch1.13-static-nonhost-late-fail');
  const text = NODES.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('');

  it('counts every launch block of its own static rank as an agent, so no node is missing', () => {
    const job = analyseTexts({ 'slurm-5511.out': text });
    expect(job.nodes).toHaveLength(1);
    expect(job.nodes[0]!.agents).toBe(4);
    expect(job.missingCount).toBe(0);
    expect(job.verdict).toBe('failed');
    expect(job.failure?.stage).toBe('rank-assignment');
    // No times, no labels: the late one cannot be told, and no node is blamed.
    expect(job.failure?.lateNodes ?? []).toEqual([]);
    expect(job.failure?.absent ?? []).toEqual([]);
  });

  it('a node run again in one log keeps its rank: one agent', () => {
    const node1 = readFileSync(path.join(dir, 'node1.log'), 'utf8');
    const job = analyseTexts({ 'train.log': node1 + node1 });
    expect(job.nodes[0]!.agents).toBe(1);
  });
});

// The same in a scheduler's output when the agents ran one after another: each block after the previous
// agent's end is an agent of its own. The real 1.13 run torch1.13-static-host-late-fail (static, timeout=30,
// the store host node0 launched 60 s after node1): the clients gave up before the host started, so an
// unlabelled `srun` output holds node1's block, node2's, then node0's.
describe('agents one after another in a Slurm output without process ids', () => {
  const dir = path.join(CAPTURED, 'torch1.13-static-host-late-fail');
  const block = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  const text = ['node1.log', 'node2.log', 'node0.log'].map(block).join('');

  it('splits the blocks into nodes named by their ranks, and names the store host late', () => {
    const job = analyseTexts({ 'slurm-7781.out': text });
    expect(job.nodes.map((n) => n.id).sort()).toEqual(['node-rank-0', 'node-rank-1', 'node-rank-2']);
    expect(job.nodes.every((n) => n.agents === 1)).toBe(true);
    expect(job.verdict).toBe('failed');
    expect(job.failure?.stage).toBe('store-connect');
    expect(job.failure?.lateNodes).toEqual(['node-rank-0']);
  });

  it('an ordinary log keeps them as one node; a job script running one node again is not split', () => {
    expect(analyseTexts({ 'train.log': text }).nodes).toHaveLength(1);
    const again = block('node1.log') + block('node1.log');
    expect(analyseTexts({ 'slurm-7782.out': again }).nodes).toHaveLength(1);
  });
});
