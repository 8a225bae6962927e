import { describe, expect, it } from 'vitest';
import { diagnose, FINDING_CODES } from '../src/core/index';
import type { Diagnosis, JobModel } from '../src/core/index';
import { analyseTexts, corpusText, mapLines } from './helpers';

// The diagnosis on the real scenarios (late node named, the limit that fired named, advice that matches the
// backend and the version) and on variations of them for what the corpus lacks.

/** Move a glog line's time (MMDD HH:MM:SS) by some seconds, date included. */
function shiftGlog(line: string, seconds: number): string {
  return line.replace(/^([IWE])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)/, (_, lv, mo, d, h, mi, se) => {
    const t = new Date(Date.UTC(2026, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se)) + seconds * 1000);
    const p2 = (n: number) => String(n).padStart(2, '0');
    return `${lv}${p2(t.getUTCMonth() + 1)}${p2(t.getUTCDate())} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}`;
  });
}

function scenario(name: string, files: string[]): JobModel {
  return analyseTexts(Object.fromEntries(files.map((f) => [f, corpusText(name, f)])));
}
const NODES4 = ['node0.log', 'node1.log', 'node2.log', 'node3.log'];
const codes = (dx: Diagnosis) => dx.findings.map((f) => f.code);
const find = (dx: Diagnosis, code: string) => dx.findings.find((f) => f.code === code);
const commands = (dx: Diagnosis) => dx.findings.flatMap((f) => f.advice.map((a) => a.command ?? '')).join('\n');

describe('diagnosis on real scenarios', () => {
  it('static 1.13, 345 s late (Kubernetes): the 300 s synchronize fired, and no --rdzv_conf can raise it', () => {
    const job = scenario('torch1.13-capture-k2b', [
      'trainjob-master-0.log',
      'trainjob-worker-0.log',
      'trainjob-worker-1.log',
    ]);
    const dx = diagnose(job);
    expect(codes(dx)).toContain('SKEW_EXCEEDS_STORE_SYNC');
    expect(codes(dx)).not.toContain('SKEW_EXCEEDS_RDZV_TIMEOUT');
    const late = find(dx, 'LATE_NODE')!;
    expect(late.numbers).toMatchObject({ node: 'trainjob-worker-1', first: 'trainjob-master-0' });
    expect(Number(late.numbers.lag)).toBeCloseTo(345, -1);
    expect(late.title).toBe('trainjob-worker-1 started 345 s after trainjob-master-0');
    const sync = find(dx, 'SKEW_EXCEEDS_STORE_SYNC')!;
    expect(sync.detail).toContain('whose limit is 300 s on torch 1.13');
    expect(sync.advice.map((a) => a.id)).toEqual(['upgrade-torch', 'patch-synchronize', 'stage-data']);
    expect(sync.advice[1]!.caveat).toMatch(/Not for production/);
    expect(commands(dx)).toContain("sed -i 's/barrier_timeout: float = 300/barrier_timeout: float = 1800/'");
    // Raising the rendezvous limit alone would not have saved it.
    expect(dx.whatIf).toMatchObject({
      timeoutSeconds: 1800,
      allMadeIt: false,
      blockedBy: { id: 'store-sync', seconds: 300 },
    });
    const sync300 = dx.thresholds.find((t) => t.id === 'store-sync')!;
    expect(sync300).toMatchObject({ seconds: 300, applies: true, knob: null });
    expect(dx.thresholds.find((t) => t.id === 'rdzv-timeout')).toMatchObject({ seconds: 30, from: 'logs' });
  });

  it('static 2.6, node 3 late: the rendezvous timeout (timeout=30) fired; the advice raises `timeout`', () => {
    const dx = diagnose(scenario('torch2.6-s2_static_timeout30_node3_late', NODES4));
    expect(codes(dx).slice(0, 2).sort()).toEqual(['LATE_NODE', 'SKEW_EXCEEDS_RDZV_TIMEOUT']);
    const f = find(dx, 'SKEW_EXCEEDS_RDZV_TIMEOUT')!;
    expect(f.numbers).toMatchObject({ key: 'timeout', limit: 30, backend: 'static' });
    expect(commands(dx)).toContain('--rdzv_conf="timeout=1800"');
    expect(codes(dx)).not.toContain('SKEW_EXCEEDS_STORE_SYNC'); // 2.6 has no 300 s synchronize
    expect(dx.thresholds.find((t) => t.id === 'store-sync')!.applies).toBe(false);
    expect(dx.whatIf).toMatchObject({ allMadeIt: true, blockedBy: null });
    expect(dx.whatIf!.spareSeconds).toBeCloseTo(1800 - 45, -1);
  });

  it('c10d 2.6: join_timeout fired; the advice raises join_timeout, not timeout', () => {
    const dx = diagnose(scenario('torch2.6-s4_c10d_join_timeout30_node3_late', NODES4));
    const f = find(dx, 'SKEW_EXCEEDS_RDZV_TIMEOUT')!;
    expect(f.numbers).toMatchObject({ key: 'join_timeout', limit: 30, backend: 'c10d' });
    const rdzv = f.advice.find((a) => a.id === 'rdzv-conf')!;
    // join_timeout=30 was typed on the command line, which wins over PET_RDZV_CONF: the flag itself is replaced.
    expect(rdzv).toMatchObject({ command: '--rdzv_conf="join_timeout=1800"', goesIn: 'torchrun' });
    expect(rdzv.caveat).toMatch(/a second --rdzv_conf replaces the first/);
    expect(dx.thresholds.find((t) => t.id === 'rdzv-timeout')).toMatchObject({ applies: false });
    expect(dx.thresholds.find((t) => t.id === 'read-timeout')).toMatchObject({
      seconds: 60,
      from: 'default',
      applies: true,
    });
  });

  it('static 1.13, the store host late: clients failed to connect; start the host first', () => {
    const dx = diagnose(scenario('torch1.13-s2_static_timeout_node0_late', NODES4));
    expect(find(dx, 'HOST_NODE_LATE')!.numbers).toMatchObject({ node: 'node0', limitName: 'timeout', limit: 30 });
    const ids = find(dx, 'HOST_NODE_LATE')!.advice.map((a) => a.id);
    expect(ids).toEqual(['start-host-first', 'rdzv-conf']);
    expect(commands(dx)).toContain('--rdzv_conf="timeout=1800"');
  });

  it('pg-init timeout 2.6: init_process_group, not the rendezvous', () => {
    const dx = diagnose(scenario('torch2.6-s9_static_pg_init_timeout20', NODES4));
    const f = find(dx, 'PG_INIT_TIMEOUT')!;
    expect(f.numbers).toMatchObject({ limit: 20, late: 'node2' });
    expect(f.advice[0]!.command).toContain('timeout=datetime.timedelta(seconds=1800)');
    expect(codes(dx)).not.toContain('SKEW_EXCEEDS_RDZV_TIMEOUT');
    expect(dx.thresholds.find((t) => t.id === 'pg-init')).toMatchObject({ seconds: 20, from: 'logs' });
  });

  it('a healthy job past its limit (1.13 static, timeout=30, 45 s late) is flagged as a risk', () => {
    const job = scenario('torch1.13-capture-k1', [
      'trainjob-master-0.log',
      'trainjob-worker-0.log',
      'trainjob-worker-1.log',
      'trainjob-worker-2.log',
    ]);
    const dx = diagnose(job);
    const risk = find(dx, 'SKEW_RISK')!;
    expect(risk.severity).toBe('warning');
    expect(risk.numbers).toMatchObject({ limit: 30, survived: 1 });
    expect(find(dx, 'LATE_NODE')!.numbers.node).toBe('trainjob-worker-2');
  });

  it('pre-launch work with real download/unpack lines is measured per node', () => {
    const dx = diagnose(scenario('torch1.13-capture-p2', ['node0.log', 'node1.log', 'node2.log']));
    const pre = dx.findings.filter((f) => f.code === 'PRELAUNCH_WORK');
    expect(pre.map((f) => f.numbers.node).sort()).toEqual(['node0', 'node1', 'node2']);
    const n1 = pre.find((f) => f.numbers.node === 'node1')!;
    expect(Number(n1.numbers.seconds)).toBeGreaterThanOrEqual(11);
    expect(String(n1.numbers.activity)).toMatch(/download/);
  });

  it('logs without timestamps say so and how to capture them next time', () => {
    const dx = diagnose(
      scenario('torch1.13-s6r_static_store_barrier_300s_rerun', ['node0.log', 'node1.log', 'node2.log']),
    );
    expect(codes(dx)).toContain('SKEW_EXCEEDS_STORE_SYNC');
    const slurm = analyseTexts({ 'slurm-731042.out': corpusText('torch1.13-capture-s1', 'slurm-731042.out') });
    const nt = find(diagnose(slurm), 'NO_TIMESTAMPS')!;
    expect(nt.advice[0]!.command).toMatch(/LOGLEVEL=INFO/);
  });

  it('every finding code has English and Chinese text', () => {
    const dx = diagnose(scenario('torch2.6-s2_static_timeout30_node3_late', NODES4), 'zh');
    expect(find(dx, 'SKEW_EXCEEDS_RDZV_TIMEOUT')!.title).toContain('rendezvous 期限');
    expect(FINDING_CODES.length).toBeGreaterThanOrEqual(16);
  });
});

describe('diagnosis on variations', () => {
  const s2 = () => Object.fromEntries(NODES4.map((f) => [f, corpusText('torch2.6-s2_static_timeout30_node3_late', f)]));

  it('a whole-hour zone shift on one node is a time zone, not skew', () => {
    // node1 logged in UTC+8 (the zone only shows at the rendezvous, so use a run that completes one).
    const healthy = Object.fromEntries(NODES4.map((f) => [f, corpusText('torch2.6-s1_static_healthy_info', f)]));
    healthy['node1.log'] = mapLines(healthy['node1.log']!, (l) => shiftGlog(l, 8 * 3600));
    const job = analyseTexts(healthy);
    expect(job.clockOffsets).toMatchObject([
      { node: 'node1', kind: 'time-zone', offsetSeconds: 8 * 3600, applied: true },
    ]);
    expect(job.skewSeconds).toBeGreaterThan(6);
    expect(job.skewSeconds).toBeLessThan(10);
    const dx = diagnose(job);
    expect(find(dx, 'TZ_MISMATCH')!.numbers).toMatchObject({ node: 'node1', hours: 8 });
    expect(codes(dx)).not.toContain('LATE_NODE');
  });

  it('a clock a few seconds off is reported with its bound, and corrected on request', () => {
    const healthy = Object.fromEntries(NODES4.map((f) => [f, corpusText('torch2.6-s1_static_healthy_info', f)]));
    healthy['node2.log'] = mapLines(healthy['node2.log']!, (l) => shiftGlog(l, 7));
    const job = analyseTexts(healthy);
    const off = job.clockOffsets.find((o) => o.node === 'node2')!;
    expect(off.kind).toBe('clock');
    expect(off.offsetSeconds).toBeGreaterThan(6);
    expect(off.offsetSeconds).toBeLessThan(8);
    expect(off.applied).toBe(false);
    expect(find(diagnose(job), 'CLOCK_OFFSET')!.numbers.bound).toBe(0.25);
    // Corrected on request: node2's lag drops by the offset.
    const lagBefore = job.nodes.find((n) => n.id === 'node2')!.lagSeconds!;
    const corrected = analyseTexts(healthy, 997, undefined, { correctClocks: true });
    const lagAfter = corrected.nodes.find((n) => n.id === 'node2')!.lagSeconds!;
    expect(lagBefore - lagAfter).toBeCloseTo(off.offsetSeconds, 0);
  });

  it('a missing node is named and suspected', () => {
    const files = s2();
    delete files['node3.log'];
    const dx = diagnose(analyseTexts(files));
    expect(find(dx, 'NODE_LOG_MISSING')!.numbers).toMatchObject({
      missing: 'node3 (group_rank 3)',
      expected: 4,
      present: 3,
    });
  });

  /** A log cut where its agent says the workers finished: what it held while they still ran. */
  const beforeFinish = (text: string) => text.slice(0, text.indexOf('\n', text.lastIndexOf('step ')) + 1);

  it('a watchdog timeout deep into training is not a startup problem: no rendezvous advice', () => {
    const line =
      '[rank3]:[E1129 19:02:11.061694977 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=48211, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600018 milliseconds before timing out.';
    const healthy = Object.fromEntries(NODES4.map((f) => [f, corpusText('torch2.6-s1_static_healthy_info', f)]));
    // The watchdog fires while the workers run: before the agent could say they finished.
    healthy['node3.log'] = beforeFinish(healthy['node3.log']!) + line + '\n';
    const dx = diagnose(analyseTexts(healthy));
    expect(find(dx, 'NOT_A_STARTUP_PROBLEM')!.numbers).toMatchObject({ seq: '48211', limit: 600 });
    expect(commands(dx)).not.toContain('rdzv_conf');
  });

  it('HCCL link timeouts on Ascend get HCCL_CONNECT_TIMEOUT advice', () => {
    const healthy = Object.fromEntries(NODES4.map((f) => [f, corpusText('torch2.6-s1_static_healthy_info', f)]));
    healthy['node2.log'] =
      beforeFinish(healthy['node2.log']!) +
      '[ERROR] HCCL(2717288,python3):2026-11-29-18:29:50.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[5] timeout[120]\n';
    const dx = diagnose(analyseTexts(healthy));
    const f = find(dx, 'COMM_INIT_TIMEOUT')!;
    expect(f.numbers).toMatchObject({ lib: 'HCCL', limit: 120 });
    expect(f.advice[0]!.command).toMatch(/^export HCCL_CONNECT_TIMEOUT=600/);
  });
});

describe('docs/findings.md', () => {
  it('documents every finding code', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../docs/findings.md', import.meta.url), 'utf8');
    for (const code of FINDING_CODES) expect(doc, code).toContain(`\`${code}\``);
  });
});

describe('nodes on different rendezvous ids', () => {
  it('are told they can never meet, instead of being told to wait longer', () => {
    const sc = 'torch2.6-s4_c10d_join_timeout30_node3_late';
    const files = Object.fromEntries(NODES4.map((f) => [f, corpusText(sc, f)]));
    files['node3.log'] = files['node3.log']!.replaceAll('s4-job', '8f3c2a71-node3');
    const dx = diagnose(analyseTexts(files));
    const f = find(dx, 'RUN_ID_MISMATCH')!;
    expect(f.numbers.ids).toBe("'s4-job', '8f3c2a71-node3'");
    expect(f.advice[0]!.id).toBe('same-rdzv-id');
    expect(codes(dx)).not.toContain('SKEW_EXCEEDS_RDZV_TIMEOUT');
    expect(find(diagnose(scenario(sc, NODES4)), 'RUN_ID_MISMATCH')).toBeUndefined();
  });
});

describe('version inferred from the prefix', () => {
  it('a glog prefix with a process id is 2.5+: the 300 s synchronize does not apply', () => {
    const job = scenario('torch2.6-s1_static_healthy_info', NODES4);
    expect(job.job.torchVersion).toBe('2.5+');
    expect(job.job.torchVersionEvidence).toMatch(/process id/);
    expect(diagnose(job).thresholds.find((t) => t.id === 'store-sync')!.applies).toBe(false);
  });

  it('a glog prefix with a thread id is 2.3–2.4: it may', () => {
    const line = 'I0807 20:59:57.533000 140145133409408 torch/distributed/run.py:675] Using nproc_per_node=8.\n';
    const job = analyseTexts({ 'node0.log': line });
    expect(job.job.torchVersion).toBe('2.3–2.4');
    expect(diagnose(job).thresholds.find((t) => t.id === 'store-sync')!.applies).toBe(true);
  });
});
