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
