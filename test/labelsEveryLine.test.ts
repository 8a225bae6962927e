import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineScanner, streamLabelProbe } from '../src/core/lineScanner';
import type { JobModel } from '../src/core/model';
import { CAPTURED, analyseTexts, filesUnder } from './helpers';

// A tool that labels a node's output puts its label before every line, not only before PyTorch's formatted
// ones: torchx's `trainer/0 `, a quote marker `> `, grep's `node0.log:14:` (shapes: shared/docs/
// real-world-variants.md, "Added in front by launchers" and "Also seen"). The lines behind the label that carry
// no format (traceback frames, launch-config fields, the exception) must read as they do unlabelled: the real
// captured runs below, labelled the way each tool does it, give the same verdict, stage and culprit as bare.
// The same holds for what a paste does to the text: an indent, lost indentation, a terminal's hard wrap, an
// export's one ingest time in front of every line.

const stem = (f: string) => path.basename(f).replace(/\.[^.]+$/, '');

function run(scenario: string): Record<string, string> {
  const dir = path.join(CAPTURED, scenario);
  const files: Record<string, string> = {};
  for (const f of filesUnder(dir)) if (/\.(log|out)$/.test(f)) files[f] = readFileSync(path.join(dir, f), 'utf8');
  return files;
}

function label(files: Record<string, string>, f: (line: string, i: number, file: string, k: number) => string) {
  const out: Record<string, string> = {};
  Object.entries(files).forEach(([file, text], k) => {
    const lines = text.split('\n');
    const last = lines.length - 1;
    out[file] = lines.map((l, i) => (i === last && l === '' ? l : f(l, i, file, k))).join('\n');
  });
  return out;
}

/** Verdict, stage and the culprits by the file each was read from (a label may name the node differently). */
function reading(job: JobModel): string {
  const files = (id: string) =>
    job.nodes
      .find((n) => n.id === id)
      ?.files.map(stem)
      .join('+') ?? id;
  const culprits = [...(job.failure?.lateNodes ?? []).map(files), ...(job.failure?.absent ?? [])].sort();
  return `${job.verdict} ${job.failure?.stage ?? '-'} [${culprits.join(', ')}]`;
}

const SCENARIOS = [
  'torch2.6-c10d-nonhost-late-fail',
  'torch2.6-c10d-host-late-fail-default',
  'torch2.6-static-connect-retry-success',
  'torch1.13-c10d-restart-once',
  'torch1.13-c10d-host-late-fail',
  'torch2.6-c10d-host-late-fail',
  'torch2.6-static-host-late-fail',
  'torch2.6-static-never-starts',
  'torch1.13-static-host-late-fail',
  'torch1.13-static-nonhost-late-fail',
  'torch1.13-static-rank-assignment-300s',
  'torch1.13-c10d-crash-before-pg-init',
  'torch1.13-c10d-restart-once',
];

describe('a label before every line of a node', () => {
  for (const scenario of SCENARIOS) {
    const bare = run(scenario);
    const want = reading(analyseTexts(bare));

    // torchx labels a process's own output; a run captured through kubectl's timestamps or srun's labels is not that.
    const stamped = Object.values(bare).some((t) => /^\d{4}-|^\d{1,5}: /.test(t));
    if (!stamped)
      it(`${scenario}: torchx's app/replica label`, () => {
        const job = analyseTexts(label(bare, (l, _i, _f, k) => `trainer/${k} ${l}`));
        expect(reading(job)).toBe(want);
      });

    it(`${scenario}: quoted from an e-mail`, () => {
      expect(reading(analyseTexts(label(bare, (l) => `> ${l}`)))).toBe(want);
    });

    // An issue's code block indented by four spaces (NVIDIA/nccl#1409 pastes its `[rank7]:` lines so): Slurm
    // labels, kubectl timestamps and exception lines count at a line's start again once the indent is removed.
    it(`${scenario}: indented by four spaces`, () => {
      expect(reading(analyseTexts(label(bare, (l) => (l ? `    ${l}` : l))))).toBe(want);
    });

    // Pasted with the indentation lost (real-world-variants.md, "traceback indentation stripped"): the launch
    // block's fields still name the node's rank.
    it(`${scenario}: indentation stripped`, () => {
      expect(reading(analyseTexts(label(bare, (l) => l.trimStart())))).toBe(want);
    });

    // Copied from a terminal 120 columns wide (the hard-wrapped excerpts in test/fixtures/excerpts): every longer
    // line broken into pieces of exactly 120, the message or frame going on without a prefix.
    it(`${scenario}: hard-wrapped at 120 columns`, () => {
      const wrapped = label(bare, (l) => (l.length > 120 ? (l.match(/.{1,120}/g) ?? [l]).join('\n') : l));
      expect(reading(analyseTexts(wrapped))).toBe(want);
    });

    // A log export that stamped every line with the one time it shipped them (real-world-variants.md: CloudWatch
    // `2023-03-09T10:53:23.670-05:00<TAB>` with every line the same), in front of PyTorch's own moving times.
    if (scenario.startsWith('torch2.6'))
      it(`${scenario}: behind an export's one ingest time`, () => {
        expect(reading(analyseTexts(label(bare, (l) => `2026-12-01T12:30:00.000-05:00\t${l}`)))).toBe(want);
      });

    // Pasted outside a code block on a forum that curls quotes (Discourse, a word processor, a chat app): every
    // `File "…"` frame and quoted value opens with “ or ‘ and closes with ” or ’.
    it(`${scenario}: quotes curled by a typographer`, () => {
      const curl = (l: string) =>
        l
          .replace(/'([^'\n]*)'/g, '\u2018$1\u2019')
          .replace(/"([^"\n]*)"/g, '\u201c$1\u201d')
          .replace(/'/g, '\u2019');
      const curled = label(bare, curl);
      expect(
        Object.values(curled)
          .join('')
          .match(/[\u2018-\u201d]/g)?.length ?? 0,
      ).toBeGreaterThan(0);
      expect(reading(analyseTexts(curled))).toBe(want);
    });

    // Relayed by a runner that labels its subprocess's streams (`accelerate test`: `stderr: ` / `stdout: `,
    // the shape of excerpt set 11's accelerate thread), in front of whatever labels the lines already carry.
    it(`${scenario}: relayed with a stream label`, () => {
      expect(reading(analyseTexts(label(bare, (l, i) => (l ? `${i % 3 ? 'stderr' : 'stdout'}: ${l}` : l))))).toBe(want);
      expect(reading(analyseTexts(label(bare, (l) => (l ? `[stderr] ${l}` : l))))).toBe(want);
    });

    // Copied from a paste site's numbered view (`  12. `, excerpt set 12's pastebin copy) or printed by
    // `cat -n` (`    12<TAB>`): the number is the line's own, and what follows it counts at the line's start.
    it(`${scenario}: numbered by a paste site or cat -n`, () => {
      expect(reading(analyseTexts(label(bare, (l, i) => `${String(i + 1).padStart(3)}. ${l}`)))).toBe(want);
      expect(reading(analyseTexts(label(bare, (l, i) => `${String(i + 1).padStart(6)}\t${l}`)))).toBe(want);
    });

    it(`${scenario}: grep -n over the node files`, () => {
      const job = analyseTexts(label(bare, (l, i, f) => `${path.basename(f)}:${i + 1}:${l}`));
      expect(reading(job)).toBe(want);
    });
  }

  it("keeps a job script's first lines, before torchx's label is known, with the node they came from", () => {
    // Each node's file starts with the script's own `Job N step 0 on nodeK` and `START: <date>` lines (the only
    // clock of an untimed 1.13 run): under torchx's label they are still that node's launch.
    const dir = path.join(CAPTURED, '..', 'excerpts', 'slurm-1.13-c10d-untimed-script-date-node3-late');
    const bare: Record<string, string> = {};
    for (const f of filesUnder(dir)) if (f.endsWith('.out')) bare[f] = readFileSync(path.join(dir, f), 'utf8');
    const want = reading(analyseTexts(bare));
    expect(want).toBe('failed rendezvous-timeout [node3]');
    const job = analyseTexts(label(bare, (l, _i, _f, k) => `trainer/${k} ${l}`));
    expect(job.nodes).toHaveLength(4);
    expect(reading(job)).toBe(want);
  });

  it('names a node whose every line carries one label by its file, so a missing one is named like its siblings', () => {
    const job = analyseTexts(label(run('torch2.6-static-never-starts'), (l, _i, _f, k) => `${k}: ${l}`));
    expect(job.nodes.map((n) => n.id).sort()).toEqual(['node0', 'node1', 'node2']);
    expect(job.missingNodes).toEqual(['node3 (group_rank 3)']);
  });
});

describe('the stream probe behind a label', () => {
  const handed = (lines: string[]) => {
    const seen: number[] = [];
    const s = new LineScanner(['Rendezvous'], (l) => seen.push(l.line), {});
    s.setStreamProbe(streamLabelProbe());
    s.push(new TextEncoder().encode(lines.join('\n') + '\n'));
    s.finish();
    return seen;
  };

  it("hands on the first line of each torchx replica and each grep'd file, not each grep line number", () => {
    expect(
      handed([
        'trainer/0 Rendezvous',
        'trainer/0 noise',
        'trainer/1 noise',
        'trainer/1 more',
        'node0.log:7:noise',
        'node0.log:8:noise',
        'node1.log:2026-11-29T19:28:27.521333963Z noise',
      ]),
    ).toEqual([1, 3, 5, 7]);
  });

  it("tells apart the Slurm tasks inside one grep'd file", () => {
    expect(handed(['slurm-88.out:10:0: Rendezvous', 'slurm-88.out:11:0: noise', 'slurm-88.out:12:1: noise'])).toEqual([
      1, 3,
    ]);
  });
});
