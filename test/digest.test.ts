import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildJob } from '../src/core/index';
import type { FileExtract, JobModel } from '../src/core/model';
import {
  DIGEST_BUDGET_BYTES,
  DIGEST_CAP_BYTES,
  DIGEST_VERSION,
  decodeDigest,
  encodeDigest,
  sniffDigest,
  type LineText,
} from '../src/core/digest';
import { crc32Hex } from '../src/core/digest/crc';
import { collectInputs } from '../src/cli/files';
import { extractAll } from '../src/cli/pool';
import { readInput } from '../src/ingest/archive/index';
import { english, sentenceText } from '../src/i18n/sentence';

// A digest is the node's logs as the job builder sees them: the job model built from digests must be the one
// built from the logs, on every real scenario (the guard for the model changing under the digest format).

const FIXTURES = path.join(__dirname, 'fixtures');
const dirsOf = (root: string) =>
  readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(root, d.name))
    .sort();
const SCENARIOS = [...dirsOf(path.join(FIXTURES, 'corpus')), ...dirsOf(path.join(FIXTURES, 'captured'))];
const NOW = Date.parse('2026-03-01T00:00:00Z');
const NODE = { name: 'test-node', host: 'test-host' };
const enc = new TextEncoder();

function digestOf(extracts: FileExtract[], lineText: LineText = null): string {
  return encodeDigest(extracts, { producer: 'skewscope test', node: NODE, lineText }).text;
}

/** The digest read back through the same reader as any dropped file, in small chunks. */
function readBack(name: string, text: string, chunk = 4093): FileExtract[] {
  const bytes = enc.encode(text);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  return readInput(name, chunks);
}

/** The logs' extracts, one digest per node of the job they make (files of no node in one more). */
function perNode(extracts: FileExtract[], job: JobModel): FileExtract[][] {
  const left = new Set(extracts);
  const groups = job.nodes.map((n) => {
    const mine = extracts.filter((x) => left.has(x) && n.files.includes(x.file));
    for (const x of mine) left.delete(x);
    return mine;
  });
  return [...groups, [...left]].filter((g) => g.length > 0);
}

/**
 * Equal except where a line's text was: every difference must be a string under a text-bearing key
 * (`text`, `evidence`, `torchVersionEvidence`) that lost text — empty, or cut where the quote began.
 */
function expectEqualButTexts(got: unknown, want: unknown, at = 'job'): void {
  if (typeof want === 'string' && typeof got === 'string' && got !== want) {
    const key = at
      .split('.')
      .pop()!
      .replace(/\[\d+\]$/, '');
    expect(['text', 'evidence', 'torchVersionEvidence'], `${at} differs`).toContain(key);
    const kept = got.endsWith('…') ? got.slice(0, -1) : got;
    expect(want.startsWith(kept), `${at}: "${got}" is not "${want}" with its text left out`).toBe(true);
    return;
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    expect(got.length, `${at} length`).toBe(want.length);
    want.forEach((w, i) => expectEqualButTexts(got[i], w, `${at}[${i}]`));
    return;
  }
  if (typeof want === 'object' && want !== null && typeof got === 'object' && got !== null) {
    expect(Object.keys(got).sort(), `${at} keys`).toEqual(Object.keys(want).sort());
    for (const k of Object.keys(want))
      expectEqualButTexts((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], `${at}.${k}`);
    return;
  }
  expect(got, at).toEqual(want);
}

describe('digest ↔ logs: the same job model on every scenario', () => {
  it('covers every corpus and captured scenario', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(50);
  });

  for (const dir of SCENARIOS) {
    const name = `${path.basename(path.dirname(dir))}/${path.basename(dir)}`;
    it(name, async () => {
      const logs = await extractAll(await collectInputs([dir]));
      const want = buildJob(logs, { nowMs: NOW });
      expect(want.nodes.length).toBeGreaterThan(0);

      // One digest per node, line texts kept as printed: the very same model.
      const groups = perNode(logs, want);
      const raw: LineText = (t) => t;
      const withLines = groups.flatMap((g, i) => readBack(`digests/${i}.skewscope.json`, digestOf(g, raw)));
      expect(withLines).toEqual(groups.flat());
      expect(buildJob(withLines, { nowMs: NOW })).toEqual(buildJob(groups.flat(), { nowMs: NOW }));

      // One digest per file, in the order the logs were read: the model of the logs themselves.
      const perFile = logs.flatMap((x, i) => readBack(`d/${i}.json`, digestOf([x], raw)));
      expect(buildJob(perFile, { nowMs: NOW })).toEqual(want);

      // Without line texts (the default): equal but for the texts.
      const bare = groups.flatMap((g, i) => readBack(`digests/${i}.skewscope.json`, digestOf(g)));
      expectEqualButTexts(buildJob(bare, { nowMs: NOW }), buildJob(groups.flat(), { nowMs: NOW }));
    });
  }
});

/** Every line text an extract holds (events, block lines, first and last lines). */
function lineTextsOf(x: unknown, out: string[] = []): string[] {
  if (Array.isArray(x)) for (const y of x) lineTextsOf(y, out);
  else if (typeof x === 'object' && x !== null) {
    const o = x as Record<string, unknown>;
    if (typeof o.line === 'number' && typeof o.text === 'string') out.push(o.text);
    for (const v of Object.values(o)) lineTextsOf(v, out);
  }
  return out;
}

/** A digest with its body changed and its checksum made again (what a careful forger would do). */
function resealed(text: string, change: (d: Record<string, unknown>) => void): string {
  const { check: _check, ...body } = JSON.parse(text) as Record<string, unknown>;
  change(body);
  const json = JSON.stringify(body);
  return `${json.slice(0, -1)},"check":"${crc32Hex(json)}"}\n`;
}

describe('digest sizes, privacy and the cap', () => {
  const truthOf = (dir: string) =>
    JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as { outcome: string };

  it('a node of a normal startup fits in the budget; no digest reaches the cap; no line text without --with-lines', async () => {
    let normal = 0;
    for (const dir of SCENARIOS) {
      const logs = await extractAll(await collectInputs([dir]));
      const job = buildJob(logs, { nowMs: NOW });
      const healthy = truthOf(dir).outcome === 'success' && job.nodes.every((n) => n.attempts.length === 0);
      for (const g of perNode(logs, job)) {
        const d = encodeDigest(g, { producer: 'skewscope test', node: NODE });
        expect(d.overflow).toBeNull();
        expect(d.bytes).toBeLessThan(DIGEST_CAP_BYTES / 4);
        // One file may hold several nodes (a Slurm output with srun -l labels): the budget is per node.
        const nodes = job.nodes.filter((n) => n.files.some((f) => g.some((x) => x.file === f))).length;
        if (healthy && nodes > 0) {
          normal += nodes;
          expect(d.bytes / nodes, `${dir}: ${g[0]!.file}`).toBeLessThanOrEqual(DIGEST_BUDGET_BYTES);
        }
        // Privacy: no line of the logs is in the digest, not even quoted in evidence.
        const texts = [...new Set(lineTextsOf(g).map((t) => t.trim()))].filter((t) => t.length >= 24);
        const quoted = (digest: string, t: string) => digest.includes(JSON.stringify(t).slice(1, -1));
        for (const t of texts) expect(quoted(d.text, t), `${dir}: "${t}"`).toBe(false);
        // (The same check finds them when lines are asked for.)
        const raw = encodeDigest(g, { producer: 'skewscope test', node: NODE, lineText: (t) => t }).text;
        expect(texts.every((t) => quoted(raw, t))).toBe(true);
      }
    }
    expect(normal).toBeGreaterThanOrEqual(40);
  });

  it('over its cap, a digest leaves events out, counts them, and still reads back', async () => {
    const dir = SCENARIOS.find((d) => d.endsWith('torch2.6-c10d-logdir-restart-noshare'))!;
    const logs = await extractAll(await collectInputs([dir]));
    const all = logs.reduce((n, x) => n + x.streams.reduce((k, s) => k + s.events.length, 0), 0);
    // The cap sits between this job's digest without events (its 40 files' identities) and the whole digest.
    const cap = 48 * 1024;
    expect(encodeDigest(logs, { producer: 'skewscope test', node: NODE }).bytes).toBeGreaterThan(cap + 8 * 1024);
    const d = encodeDigest(logs, { producer: 'skewscope test', node: NODE, capBytes: cap });
    expect(d.bytes).toBeLessThanOrEqual(cap);
    expect(d.overflow!.events).toBeGreaterThan(0);
    expect(Object.values(d.overflow!.byId).reduce((a, b) => a + b, 0)).toBe(d.overflow!.events);
    const back = decodeDigest(d.text, 'x.json');
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const kept = back.digest.files.reduce((n, x) => n + x.streams.reduce((k, s) => k + s.events.length, 0), 0);
    expect(kept + d.overflow!.events).toBe(all);
    expect(back.digest.overflow).toEqual(d.overflow);
    // Info events went first: failures and launches are still there.
    const ids = new Set(back.digest.files.flatMap((x) => x.streams.flatMap((s) => s.events.map((e) => e.kind))));
    expect(ids.has('failure')).toBe(true);
    expect(ids.has('launch')).toBe(true);
  });
});

describe('reading a digest: told by content, checked, refused with a reason', () => {
  const dir = SCENARIOS.find((d) => d.endsWith('torch2.6-s2_static_timeout30_node3_late'))!;
  let logs: FileExtract[] = [];
  let text = '';
  const load = async () => {
    if (logs.length) return;
    logs = (await extractAll(await collectInputs([dir]))).filter((x) => !x.problem);
    text = digestOf(logs.slice(0, 1));
  };

  it('sniffs the opening, whatever the name, with whitespace and a byte-order mark', () => {
    const b = (s: string) => enc.encode(s);
    expect(sniffDigest(b('{"format":"skewscope-digest","version":1'))).toBe('yes');
    expect(sniffDigest(b('\uFEFF {\n  "format" : "skewscope-digest",'))).toBe('yes');
    expect(sniffDigest(b('{"form'))).toBe('more');
    expect(sniffDigest(b(''))).toBe('more');
    // JSON-lines logs and torchelastic error files start with `{"` too.
    expect(sniffDigest(b('{"time":"2024-06-12T10:22:33Z","msg":"x"}'))).toBe('no');
    expect(sniffDigest(b('{"message": {"message": "RuntimeError'))).toBe('no');
    expect(sniffDigest(b('[I 2024-06-12 10:22:33] torch.distributed.run'))).toBe('no');
    expect(sniffDigest(b(' '.repeat(400)))).toBe('no');
  });

  it('a digest named like a log, fed a byte at a time, gives its extracts', async () => {
    await load();
    const back = readBack(
      'node0.log',
      digestOf(logs.slice(0, 1), (t) => t),
      1,
    );
    expect(back).toEqual(logs.slice(0, 1));
  });

  it('a digest cut short, changed, of a newer format or with invalid content is refused with its reason; the rest is analysed', async () => {
    await load();
    const cases: [string, string, RegExp][] = [
      ['cut.json', text.slice(0, 700), /cut short \(its JSON ends early\)/],
      ['edited.json', text.replace('"line":70', '"line":71'), /was changed after skewscope made it/],
      [
        'newer.json',
        resealed(text, (d) => {
          d.version = DIGEST_VERSION + 1;
          d.producer = 'skewscope 9.0.0';
        }),
        new RegExp(`digest of format ${DIGEST_VERSION + 1}, made by skewscope 9\\.0\\.0; .*update skewscope`),
      ],
      [
        'bogus.json',
        resealed(text, (d) => {
          (d.files as { streams: { events: { kind: string }[] }[] }[])[0]!.streams[0]!.events[0]!.kind = 'bogus';
        }),
        /not a valid skewscope digest: files\[0\]\.streams\[0\]\.events\[0\]\.kind: an unknown event kind/,
      ],
    ];
    for (const [name, bad, why] of cases) {
      const got = readBack(name, bad);
      expect(got).toHaveLength(1);
      expect(got[0]!.file).toBe(name);
      expect(got[0]!.streams).toEqual([]);
      expect(got[0]!.problem?.code).toBe('unreadable');
      expect(got[0]!.problem?.message, name).toMatch(why);
      // The other nodes' logs are analysed as if the bad digest were not there.
      const job = buildJob([...got, ...logs.slice(1)], { nowMs: NOW });
      expect(job.nodes.map((n) => n.id).sort()).toEqual(['node1', 'node2', 'node3']);
      expect(job.files.find((f) => f.file === name)?.problem?.message).toMatch(why);
    }
  });

  it('a file problem travels as its sentence; one without (an older digest) or unknown here shows its English words', () => {
    const notes = readInput('notes.txt', [enc.encode('meeting notes\nnothing about torch here\n')]);
    expect(notes[0]!.problem?.sentence).toEqual({ key: 'file.noTorch', values: { file: 'notes.txt', lines: 2 } });
    const made = digestOf(notes);
    expect(readBack('d.json', made)[0]!.problem).toEqual(notes[0]!.problem);
    expect(sentenceText('zh', readBack('d.json', made)[0]!.problem!.sentence)).toBe(
      'notes.txt 中没有 torchrun 或 torch.distributed 的日志行（已读取 2 行）',
    );
    type Problem = { problem: Record<string, unknown> };
    const without = resealed(made, (d) => delete (d.files as Problem[])[0]!.problem.sentence);
    const newer = resealed(made, (d) => {
      (d.files as Problem[])[0]!.problem.sentence = { key: 'file.fromTheFuture', values: {} };
    });
    for (const old of [without, newer]) {
      const problem = readBack('d.json', old)[0]!.problem!;
      expect(problem.message).toBe('notes.txt holds no torchrun or torch.distributed lines (2 lines read)');
      expect(problem.sentence).toEqual(english(problem.message));
    }
  });

  it('a digest reformatted (jq ., an editor) still reads: the check is over the content, not the spacing', async () => {
    await load();
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    expect(readBack('pretty.json', pretty)).toEqual(readBack('plain.json', text));
  });

  it('a key that would reach a prototype is dropped, not followed', async () => {
    await load();
    const bad = resealed(text, (d) => {
      const e = (d.files as { streams: { events: { fields: object }[] }[] }[])[0]!.streams[0]!.events[0]!;
      e.fields = JSON.parse('{"__proto__": {"polluted": "yes"}, "ok": "1"}');
    });
    const got = readBack('proto.json', bad);
    const fields = got[0]!.streams[0]!.events[0]!.fields;
    expect(fields).toEqual({ ok: '1' });
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the equality check itself fails on a difference outside line texts', () => {
    const job = { nodes: [{ id: 'a', text: 'x', lagSeconds: 1 }] };
    expect(() => expectEqualButTexts({ nodes: [{ id: 'a', text: '', lagSeconds: 1 }] }, job)).not.toThrow();
    expect(() => expectEqualButTexts({ nodes: [{ id: 'b', text: '', lagSeconds: 1 }] }, job)).toThrow();
    expect(() => expectEqualButTexts({ nodes: [{ id: 'a', text: 'y', lagSeconds: 1 }] }, job)).toThrow();
    expect(() => expectEqualButTexts({ nodes: [{ id: 'a', text: '', lagSeconds: 2 }] }, job)).toThrow();
  });
});
