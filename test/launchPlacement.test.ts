import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseTexts } from './helpers';

// torch ≤ 2.0 prints no time at default settings. A job script that prints `date` before torchrun gives each
// node a time: the launch is placed there (a bound, said in a note), and the skew among nodes is measured.
// The fixture is a real torch 1.13 run (node3 injected 45 s late) with the line a batch script prints.

const DIR = path.join(__dirname, 'fixtures', 'excerpts', 'slurm-1.13-c10d-untimed-script-date-node3-late');
const files = () =>
  Object.fromEntries(
    readdirSync(DIR)
      .filter((f) => f.endsWith('.out'))
      .map((f) => [f, readFileSync(path.join(DIR, f))]),
  );

describe('a launch placed by the job script’s date line', () => {
  it('measures the skew the run had and names the late node from it', () => {
    const job = analyseTexts(files());
    expect(job.nodes.every((n) => n.launchTime !== null)).toBe(true);
    expect(job.skewSeconds).toBeGreaterThan(43);
    expect(job.skewSeconds).toBeLessThan(47);
    expect(job.failure?.lateNodes).toEqual(['node3']);
    // node3's own failure states how long it waited since its launch: that derivation outranks the script's time.
    const placed = job.notes.filter((n) => n.code === 'launch-script-clock');
    expect(placed.map((n) => n.values.node).sort()).toEqual(['node0', 'node1', 'node2']);
  });

  it('is not taken from a date printed after torchrun started', () => {
    // The same logs with the date line moved to the end (an "END:" line): no launch time, no skew.
    const moved = Object.fromEntries(
      Object.entries(files()).map(([f, b]) => {
        const lines = b.toString('utf8').split('\n');
        const date = lines.splice(1, 1)[0]!.replace('START', 'END');
        return [f, [...lines, date].join('\n')];
      }),
    );
    const job = analyseTexts(moved);
    const punctual = job.nodes.filter((n) => n.id !== 'node3');
    expect(punctual.map((n) => n.launchTime)).toEqual([null, null, null]);
    expect(job.notes.some((n) => n.code === 'launch-script-clock')).toBe(false);
  });
});

// torch ≤ 2.0's agent lines carry no time, but the etcd rendezvous it starts at once logs with one (`INFO
// 2021-11-04 07:10:03,118 Attempting to join next rendezvous`, shape of excerpt set 6's etcd-1.10 fixture).
describe('a launch placed by the first timed line just below it', () => {
  const node = (name: string, hh: string, mm: string, failure: string) =>
    [
      'INFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs:',
      '  entrypoint       : /workspace/train.py',
      '  min_nodes        : 2',
      '  max_nodes        : 2',
      '  rdzv_backend     : etcd',
      "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group",
      `INFO 2021-11-04 ${hh}:${mm}:03,118 Etcd machines: ['http://0.0.0.0:2379']`,
      `INFO 2021-11-04 ${hh}:${mm}:03,190 Attempting to join next rendezvous`,
      `INFO 2021-11-04 ${hh}:${mm}:03,207 Joined rendezvous version 1 as rank ${name.slice(1)}. Full state: {'status': 'joinable', 'version': '1', 'participants': [0]}`,
      failure,
    ].join('\n') + '\n';

  it('measures the skew and names the node that came after the others had given up', () => {
    const job = analyseTexts({
      'w0.log': node(
        'w0',
        '07',
        '10',
        'INFO 2021-11-04 07:25:03,200 Rendezvous timeout occurred in EtcdRendezvousHandler',
      ),
      'w1.log': node(
        'w1',
        '07',
        '27',
        'INFO 2021-11-04 07:27:41,611 Rendezvous for run_id=j1 was observed to be closed',
      ),
    });
    expect(job.skewSeconds).toBe(1020);
    expect(job.failure?.lateNodes).toEqual(['w1']);
    expect(job.notes.filter((n) => n.code === 'launch-clock-below').map((n) => n.values.node)).toEqual(['w0', 'w1']);
  });

  it('is not taken from a time after the startup ended', () => {
    const job = analyseTexts({
      'w0.log': [
        'INFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs:',
        'ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 11) of binary: python',
        'INFO 2021-11-04 07:10:03,118 Attempting to join next rendezvous',
      ].join('\n'),
    });
    expect(job.nodes[0]!.launchTime).toBeNull();
  });
});
