import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import { markdownReport } from '../src/share/markdown';
import { analyseTexts } from './helpers';

// What the real captured runs (fixtures/captured, see its README) must not be told beyond culprit, stage and
// limit, which test/captured.test.ts checks: clocks that agree are not accused.

const CAPTURED = path.join(__dirname, 'fixtures', 'captured');
const logsOf = (scenario: string) =>
  Object.fromEntries(
    readdirSync(path.join(CAPTURED, scenario))
      .filter((f) => f.endsWith('.log'))
      .map((f) => [f, readFileSync(path.join(CAPTURED, scenario, f), 'utf8')]),
  );

describe('clocks on an elastic scale-up', () => {
  it('does not accuse the node that joined the second round: it left with the others of that round', () => {
    // One machine, one clock: node3 started 51 s late and joined round 2 (world 3 → 4).
    const job = analyseTexts(logsOf('torch2.6-c10d-elastic-late-join-noshare'));
    expect(job.clockOffsets).toEqual([]);
    expect(job.nodes.find((n) => n.id === 'node3')?.lagSeconds).toBeGreaterThan(45);
  });

  it('still accuses a clock that is off in the round every node took part in', () => {
    const files = logsOf('torch2.6-c10d-elastic-late-join-noshare');
    // node1's clock 40 s fast: every one of its times moves, its releases included.
    files['node1.log'] = files['node1.log']!.replace(/^([IWE]1201 )11:(\d\d):(\d\d)/gm, (_, p, m, s) => {
      const t = Number(m) * 60 + Number(s) + 40;
      return `${p}${String(11 + Math.floor(t / 3600)).padStart(2, '0')}:${String(Math.floor(t / 60) % 60).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
    });
    const job = analyseTexts(files);
    expect(job.clockOffsets.map((o) => [o.node, Math.round(o.offsetSeconds)])).toEqual([['node1', 40]]);
  });
});

describe('a worker that crashed before init_process_group', () => {
  for (const [scenario, crasher, waiters] of [
    ['torch2.6-c10d-crash-before-pg-init', 'node1', ['node0', 'node2']],
    ['torch1.13-c10d-crash-before-pg-init', 'node2', ['node0', 'node1']],
  ] as const) {
    it(`${scenario}: the crash is the cause, the others' waits are consequences, nobody is late`, () => {
      const job = analyseTexts(logsOf(scenario));
      const d = diagnose(job);
      const codes = d.findings.map((f) => f.code);
      expect(codes).toContain('WORKER_CRASH');
      expect(codes).not.toContain('LATE_NODE');
      expect(codes).not.toContain('UNCLASSIFIED_FAILURE');
      const crash = d.findings.find((f) => f.code === 'WORKER_CRASH')!;
      expect(crash.numbers).toMatchObject({ nodes: crasher, waiters: waiters.join(', '), waitStage: 'pg-init' });
      expect(crash.numbers.error).toMatch(/^RuntimeError: skewscope capture: injected failure/);
      expect(d.whatIf).toBeNull();
      const md = markdownReport(job, d);
      expect(md).toContain(`**Caused by:** \`${crasher}\``);
      expect(md).not.toContain('**Late node(s):**');
    });
  }

  it('the Markdown says where the limit that fired comes from', () => {
    const job = analyseTexts(logsOf('torch1.13-c10d-crash-before-pg-init'));
    expect(markdownReport(job, diagnose(job))).toContain(
      '**Timeout that fired:** `pg-init` = 1800 s (default, assumed: no log shows it)',
    );
  });
});

describe('two runs dropped together', () => {
  it('counts lags from the first node of the late node’s own run, and its waiters report it', () => {
    const job = analyseTexts(logsOf('torch2.6-mixed-runs'));
    const d = diagnose(job);
    const late = d.findings.find((f) => f.code === 'LATE_NODE')!;
    expect(late.numbers).toMatchObject({ node: 'node3', first: 'node2' });
    // Run B: node2 at 12:02:46, node3 at 12:03:46 — not 94 s after run A's node0.
    expect(Number(late.numbers.lag)).toBeGreaterThan(55);
    expect(Number(late.numbers.lag)).toBeLessThan(65);
    expect(job.failure?.reportedBy).toEqual(['node2']);
  });

  it('gives no lag to the only timed node of a run (it is late or early against nothing)', () => {
    const job = analyseTexts(logsOf('torch1.13-mixed-runs'));
    expect(job.nodes.find((n) => n.id === 'node2')?.lagSeconds).toBeNull();
    const late = diagnose(job).findings.find((f) => f.code === 'LATE_NODE')!;
    expect(late.numbers.first).not.toBe('node2');
  });
});
