// Archives read as streams (src/ingest/archive/): real corpus logs packed in the test with fflate, a minimal tar
// writer below and the system `tar`, fed in chunks of every awkward size, then analysed like dropped files.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync as zlibGzip } from 'node:zlib';
import { Zip, ZipDeflate, ZipPassThrough, gzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { collectInputs } from '../src/cli/files';
import { extractAll } from '../src/cli/pool';
import { buildJob, createExtractor } from '../src/core/index';
import type { FileExtract, JobModel } from '../src/core/model';
import { TarReader, createInputReader, inputKind, parsePax, readInput } from '../src/ingest/archive/index';
import type { ArchiveLimits, TarEntry } from '../src/ingest/archive/index';
import { mergeExtracts, nextPastedName, pastedPath, pruneOverrides, sourcesOf } from '../src/ingest/merge';
import { CORPUS } from './helpers';

const S5 = 'torch1.13-s5_c10d_moderate_skew_logdir_tee';
const S2 = 'torch2.6-s2_static_timeout30_node3_late';
const S7 = 'torch2.6-s7_c10d_logdir_tee_filter';
const enc = new TextEncoder();

/** Every file of a corpus scenario (truth.json aside), by its path inside the scenario folder. */
function scenarioFiles(scenario: string): Map<string, Uint8Array> {
  const root = path.join(CORPUS, scenario);
  const out = new Map<string, Uint8Array>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else if (name !== 'truth.json') out.set(path.relative(root, abs).split(path.sep).join('/'), readFileSync(abs));
    }
  };
  walk(root);
  return out;
}

// --- a minimal tar writer: ustar headers, GNU long names, pax path records ---------------------------------------

type TarFormat = 'ustar' | 'gnu' | 'pax';

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, type: string, opts: { prefix?: string; gnu?: boolean } = {}): Uint8Array {
  const h = new Uint8Array(512);
  const put = (text: string, at: number, max: number) => h.set(enc.encode(text).subarray(0, max), at);
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(1795976149, 12), 136, 12); // the s5 capture's day
  put('        ', 148, 8);
  put(type, 156, 1);
  if (opts.gnu) put('ustar  \0', 257, 8);
  else {
    put('ustar\0', 257, 6);
    put('00', 263, 2);
  }
  if (opts.prefix) put(opts.prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

function padded(data: Uint8Array): Uint8Array[] {
  const pad = (512 - (data.length % 512)) % 512;
  return [data, new Uint8Array(pad)];
}

function paxRecord(key: string, value: string): Uint8Array {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (String(length).length + enc.encode(body).length !== length)
    length = String(length).length + enc.encode(body).length;
  return enc.encode(`${length}${body}`);
}

function tarEntry(name: string, data: Uint8Array, format: TarFormat): Uint8Array[] {
  const bytes = enc.encode(name);
  if (bytes.length <= 100) return [header(name, data.length, '0', { gnu: format === 'gnu' }), ...padded(data)];
  if (format === 'gnu') {
    const long = new Uint8Array(bytes.length + 1);
    long.set(bytes);
    return [
      header('././@LongLink', long.length, 'L', { gnu: true }),
      ...padded(long),
      header(name.slice(0, 100), data.length, '0', { gnu: true }),
      ...padded(data),
    ];
  }
  if (format === 'pax') {
    const record = paxRecord('path', name);
    return [
      header('PaxHeader/long', record.length, 'x'),
      ...padded(record),
      header('long', data.length, '0'),
      ...padded(data),
    ];
  }
  // ustar: the leading directories go into the 155-byte prefix.
  let at = name.indexOf('/');
  while (at >= 0 && name.length - at - 1 > 100) at = name.indexOf('/', at + 1);
  if (at < 0 || at > 155) throw new Error(`cannot split ${name} for ustar`);
  return [header(name.slice(at + 1), data.length, '0', { prefix: name.slice(0, at) }), ...padded(data)];
}

function tar(files: Map<string, Uint8Array>, format: TarFormat = 'ustar', extra: Uint8Array[] = []): Uint8Array {
  const parts: Uint8Array[] = [...extra];
  for (const [name, data] of files) parts.push(...tarEntry(name, data, format));
  parts.push(new Uint8Array(1024));
  return concat(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function* chunks(data: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

/** The files analysed as if dropped one by one (each streamed in 4 KiB chunks). */
function dropped(files: Map<string, Uint8Array>, prefix = ''): FileExtract[] {
  return [...files].map(([name, data]) => {
    const ex = createExtractor(prefix + name);
    for (const c of chunks(data, 4096)) ex.push(c);
    return ex.finish();
  });
}

/** What a person sees of a job: verdict, nodes, late nodes, skew, the stage that failed. */
function summary(job: JobModel) {
  return {
    verdict: job.verdict,
    nodes: job.nodes.map((n) => n.id).sort(),
    late: job.failure?.lateNodes ?? [],
    stage: job.failure?.stage ?? null,
    skew: job.skewSeconds,
    files: job.nodes.map((n) => n.files.length).sort(),
  };
}

/** An extract without the file time (a tar keeps each member's own; a dropped file in this test has none). */
function content(x: FileExtract): FileExtract {
  return { ...x, mtimeMs: null };
}

describe('the tar reader', () => {
  const s5 = scenarioFiles(S5);

  it.each([1, 7, 511, 512, 513, 4096, 65536])('reads a --log-dir tree fed %i bytes at a time', (size) => {
    const archive = tar(s5);
    const seen: { entry: TarEntry; bytes: number }[] = [];
    const reader = new TarReader({
      entry: (entry) => seen.push({ entry, bytes: 0 }),
      data: (chunk) => (seen[seen.length - 1]!.bytes += chunk.length),
      end: () => {},
    });
    for (const c of chunks(archive, size)) reader.push(c);
    reader.finish();
    expect(seen.map((s) => s.entry.path)).toEqual([...s5.keys()]);
    expect(seen.map((s) => s.bytes)).toEqual([...s5.values()].map((d) => d.length));
    expect(seen[0]!.entry.mtimeMs).toBe(1795976149000);
  });

  it.each(['gnu', 'pax', 'ustar'] as const)('keeps paths longer than 100 bytes (%s)', (format) => {
    // A --log-dir tree under a long job folder: the node is named by a folder far from the file name.
    const deep = new Map<string, Uint8Array>();
    for (const [name, data] of s5) {
      deep.set(`var/log/cluster-jobs/2025-11-29/experiment-with-a-rather-long-descriptive-name/${name}`, data);
    }
    expect(Math.max(...[...deep.keys()].map((k) => k.length))).toBeGreaterThan(120);
    const extracts = readInput('deep.tar', chunks(tar(deep, format), 1));
    expect(extracts.map((x) => x.file)).toEqual([...deep.keys()].map((k) => `deep.tar/${k}`));
    expect(summary(buildJob(extracts))).toEqual(summary(buildJob(dropped(deep))));
  });

  it('reads pax records with multi-byte names and the size override', () => {
    const record = concat([paxRecord('path', 'журнал/node2.log'), paxRecord('size', '3')]);
    expect(parsePax(record)).toEqual({ path: 'журнал/node2.log', size: '3' });
  });

  it('skips directories, links and macOS metadata, and ends at the first zero block', () => {
    const log = s5.get('node0.log')!;
    const archive = concat([
      header('logs/', 0, '5'),
      header('logs/latest', 0, '2'),
      ...tarEntry('logs/._node0.log', new Uint8Array([0, 5, 22, 7]), 'ustar'),
      ...tarEntry('logs/node0.log', log, 'ustar'),
      new Uint8Array(512),
      enc.encode('trailing bytes after the end of the archive are ignored'),
    ]);
    const extracts = readInput('a.tar', chunks(archive, 100));
    expect(extracts.map((x) => x.file)).toEqual(['a.tar/logs/node0.log']);
    expect(extracts[0]!.problem).toBeNull();
  });
});

describe('archives on real logs', () => {
  const s5 = scenarioFiles(S5);
  const s2 = scenarioFiles(S2);
  const s7 = scenarioFiles(S7);
  const s5Job = summary(buildJob(dropped(s5)));
  const s2Job = summary(buildJob(dropped(s2)));

  it('the s5 tree as files is a healthy job of node0..node3 (the reference the archives must match)', () => {
    expect(s5Job.verdict).toBe('healthy');
    expect(s5Job.nodes).toEqual(['node0', 'node1', 'node2', 'node3']);
    expect(s2Job.verdict).toBe('failed');
    expect(s2Job.late).toEqual(['node3']);
  });

  it.each([1, 3, 1000, 32768, 1 << 20])(
    'a .tar.gz of a --log-dir tree in %i-byte chunks yields the same nodes',
    (size) => {
      const archive = gzipSync(tar(s5, 'gnu'));
      const extracts = readInput('s5.tar.gz', chunks(archive, size), { mtimeMs: null });
      expect(extracts.map((x) => x.file)).toEqual([...s5.keys()].map((k) => `s5.tar.gz/${k}`));
      expect(summary(buildJob(extracts))).toEqual(s5Job);
      // Member by member, the extract is the one the file gives when dropped unpacked in a folder of that name.
      expect(extracts.map(content)).toEqual(dropped(s5, 's5.tar.gz/'));
    },
  );

  it('a tap sees each member’s bytes as inflated, named as its extract (the evidence viewer unpacks one)', () => {
    const inner = new Map([...s5].map(([k, v]) => [k.endsWith('stdout.log') ? `${k}.gz` : k, v]));
    const zipped = zipSync(Object.fromEntries([...inner].map(([k, v]) => [k, k.endsWith('.gz') ? gzipSync(v) : v])));
    for (const [name, bytes] of [
      ['s5.tar.gz', gzipSync(tar(s5, 'ustar'))],
      ['s5.zip', zipped],
    ] as const) {
      const seen = new Map<string, Uint8Array[]>();
      const extracts: FileExtract[] = [];
      const reader = createInputReader(name, {
        mtimeMs: null,
        onExtract: (x) => extracts.push(x),
        tap: (file, chunk) => seen.set(file, [...(seen.get(file) ?? []), chunk.slice()]),
      });
      for (const chunk of chunks(bytes, 4096)) reader.push(chunk);
      reader.finish();
      for (const [key, data] of s5) {
        const file = `${name}/${key}`;
        expect(extracts.some((x) => x.file === file)).toBe(true);
        expect(new Uint8Array(concat(seen.get(file) ?? []))).toEqual(new Uint8Array(data));
      }
    }
  });

  it('a .tgz made by the system tar (pax format) reads the same', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skewscope-tar-'));
    try {
      const file = path.join(dir, 's7.tgz');
      execFileSync('tar', ['--format=pax', '-czf', file, '-C', path.join(CORPUS, S7), '--exclude=truth.json', '.']);
      const extracts = readInput('s7.tgz', chunks(readFileSync(file), 777));
      expect(extracts.every((x) => x.file.startsWith('s7.tgz/node'))).toBe(true);
      expect(summary(buildJob(extracts))).toEqual(summary(buildJob(dropped(s7))));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a .zip of node logs (deflated with sizes, or streamed with data descriptors) names the late node', () => {
    const files = Object.fromEntries([...s2].map(([k, v]) => [k, v]));
    const sized = zipSync(files, { level: 6 });
    const streamed: Uint8Array[] = [];
    const zip = new Zip((error, data) => {
      if (error) throw error;
      streamed.push(data);
    });
    for (const [name, data] of s2) {
      // Stored (method 0) and deflated members, both with data descriptors, as streaming zippers write them.
      const entry = name === 'node1.log' ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 9 });
      zip.add(entry);
      for (const c of chunks(data, 1000)) entry.push(c);
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
    for (const archive of [sized, concat(streamed)]) {
      for (const size of [1, 64, 65536]) {
        const extracts = readInput('s2.zip', chunks(archive, size));
        expect(extracts.map((x) => x.file)).toEqual([...s2.keys()].map((k) => `s2.zip/${k}`));
        expect(summary(buildJob(extracts))).toEqual(s2Job);
      }
    }
  });

  it('a .gz log keeps its own name; .gz members inside a tar are inflated too', () => {
    const node3 = s2.get('node3.log')!;
    const [one] = readInput('logs/node3.log.gz', chunks(gzipSync(node3), 5));
    expect(one!.file).toBe('logs/node3.log');
    expect(one).toEqual(dropped(new Map([['logs/node3.log', node3]]))[0]);

    const rotated = new Map([...s2].map(([k, v]) => [`${k}.gz`, gzipSync(v)]));
    const extracts = readInput('rotated.tar', chunks(tar(rotated), 333));
    expect(extracts.map((x) => x.file)).toEqual([...s2.keys()].map((k) => `rotated.tar/${k}`));
    expect(summary(buildJob(extracts))).toEqual(s2Job);
  });

  it('a member that is not text is listed as binary even when its first bytes arrive one at a time', () => {
    const files = new Map(s2);
    files.set(
      'core.1234',
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) % 256),
    );
    files.set('inner.zip', zipSync({ 'node9.log': s2.get('node0.log')! }));
    const extracts = readInput('job.tar.gz', chunks(gzipSync(tar(files)), 1));
    const problem = (name: string) => extracts.find((x) => x.file === `job.tar.gz/${name}`)!.problem;
    expect(problem('core.1234')?.code).toBe('binary');
    expect(problem('inner.zip')?.code).toBe('archive-error');
    expect(summary(buildJob(extracts))).toEqual(s2Job);
  });

  it('hands each member over as soon as it is read, before the archive ends', () => {
    const archive = gzipSync(tar(s2));
    const done: string[] = [];
    const reader = createInputReader('s2.tar.gz', { mtimeMs: null, onExtract: (x) => done.push(x.file) });
    // How much of the archive had been pushed when each log's extract came out.
    const pushedWhenDone: number[] = [];
    let pushed = 0;
    for (const c of chunks(archive, 256)) {
      reader.push(c);
      pushed += c.length;
      while (pushedWhenDone.length < done.length) pushedWhenDone.push(pushed);
    }
    reader.finish();
    expect(done).toEqual([...s2.keys()].map((k) => `s2.tar.gz/${k}`));
    // node0.log was out before node2.log's bytes came in, and node2.log before the archive's last bytes.
    expect(pushedWhenDone[0]).toBeLessThan(pushedWhenDone[2]!);
    expect(pushedWhenDone[2]).toBeLessThan(archive.length);
  });
});

describe('damaged archives', () => {
  const s2 = scenarioFiles(S2);

  it('a .tar.gz cut short keeps the files before the cut and names the one it cut', () => {
    const archive = gzipSync(tar(s2));
    const cut = archive.subarray(0, Math.floor(archive.length * 0.7));
    for (const size of [1, 100, 65536]) {
      const extracts = readInput('job.tar.gz', chunks(cut, size));
      expect(extracts.map((x) => [x.file, x.problem?.code ?? null])).toEqual([
        ['job.tar.gz/node0.log', null],
        ['job.tar.gz/node1.log', null],
        ['job.tar.gz/node2.log', null],
        ['job.tar.gz/node3.log', 'archive-error'],
      ]);
      expect(extracts[3]!.problem!.message).toMatch(
        /^Not analysed: job\.tar\.gz (is cut short: its compressed data ends early \(after [\d.]+ KiB\)|is damaged: the archive ends in the middle of node3\.log \(\d+ of 11377 bytes\))\.$/,
      );
      // What was read before the cut is a job of its own: the late node's log is the one lost.
      expect(buildJob(extracts).nodes.map((n) => n.id)).toEqual(['node0', 'node1', 'node2']);
    }
  });

  it('a .tar cut inside a file says which file and how much of it was there', () => {
    const archive = tar(s2);
    const node1Data = 512 + Math.ceil(s2.get('node0.log')!.length / 512) * 512 + 512;
    const cut = archive.subarray(0, node1Data + 1000);
    const extracts = readInput('job.tar', chunks(cut, 512));
    expect(extracts.at(-1)!.file).toBe('job.tar/node1.log');
    expect(extracts.at(-1)!.problem!.message).toMatch(
      /^Not analysed: job\.tar is damaged: the archive ends in the middle of node1\.log \(\d+ of \d+ bytes\)/,
    );
    expect(extracts[0]!.problem).toBeNull();
  });

  it('a damaged header, a .zip cut short and files that are not archives at all each get their own message', () => {
    const archive = tar(s2);
    const broken = archive.slice();
    const second = 512 + Math.ceil(s2.get('node0.log')!.length / 512) * 512;
    broken[second + 10] = broken[second + 10]! ^ 0xff;
    const [first, damaged] = readInput('job.tar', [broken]);
    expect(first!.problem).toBeNull();
    expect(damaged).toMatchObject({
      file: 'job.tar',
      problem: { code: 'archive-error', message: expect.stringContaining(`the header at byte ${second} is damaged`) },
    });

    const zip = zipSync(Object.fromEntries(s2));
    const zipCut = readInput('s2.zip', [zip.subarray(0, zip.length / 2)]);
    expect(zipCut.filter((x) => !x.problem).length).toBeGreaterThanOrEqual(1);
    expect(zipCut.at(-1)!.problem).toMatchObject({
      code: 'archive-error',
      message: expect.stringMatching(/cut short/),
    });

    const text = enc.encode('INFO:torch.distributed.run:just a log\n');
    expect(readInput('notes.zip', [text])[0]!.problem!.message).toBe(
      'notes.zip is not a zip archive (no file entries were found in it).',
    );
    expect(readInput('notes.tar.gz', [text])[0]!.problem!.message).toBe(
      'notes.tar.gz is not gzip-compressed data (its header is wrong).',
    );
    expect(readInput('notes.tar', [text])[0]!.problem!.message).toMatch(
      /^notes\.tar is damaged: this is not a tar archive/,
    );
    expect(readInput('notes.zip', [gzipSync(text)])[0]!.problem!.message).toMatch(/rename it to \.gz/);
    expect(readInput('empty.tar.gz', [])[0]!.problem!.code).toBe('empty');
    expect(readInput('dirs.tar', [concat([header('logs/', 0, '5'), new Uint8Array(1024)])])).toEqual([
      expect.objectContaining({
        file: 'dirs.tar',
        problem: expect.objectContaining({
          code: 'empty',
          message: 'dirs.tar holds no files to read (only folders, links or metadata).',
        }),
      }),
    ]);
  });

  it('a corrupt .gz member inside a tar is that member’s problem; the rest is read', () => {
    const files = new Map([...s2].map(([k, v]) => [`${k}.gz`, gzipSync(v)]));
    const bad = files.get('node1.log.gz')!.slice();
    bad.fill(0x41, 40, 200);
    files.set('node1.log.gz', bad);
    const extracts = readInput('rot.tar', [tar(files)]);
    expect(extracts.map((x) => [x.file, x.problem?.code ?? null])).toEqual([
      ['rot.tar/node0.log', null],
      ['rot.tar/node1.log', 'archive-error'],
      ['rot.tar/node2.log', null],
      ['rot.tar/node3.log', null],
    ]);
  });
});

describe('bombs', () => {
  const s2 = scenarioFiles(S2);

  /** A gzip stream of `mib` MiB of zeros, made by Node's zlib (0.5 s for 300 MiB; fflate's streaming Gzip 2.7 s). */
  function zeroGzip(mib: number): Uint8Array {
    return zlibGzip(new Uint8Array(mib << 20), { level: 9 });
  }

  it('a small .gz that inflates to hundreds of MiB is stopped as a bomb, with the default limits', () => {
    const bomb = zeroGzip(300);
    expect(bomb.length).toBeLessThan(400 * 1024);
    const extracts = readInput('debug.log.gz', chunks(bomb, 65536));
    expect(extracts).toHaveLength(1);
    expect(extracts[0]!.file).toBe('debug.log');
    expect(extracts[0]!.problem).toMatchObject({
      code: 'bomb',
      message: expect.stringMatching(
        /^Not analysed: debug\.log\.gz inflates \d{3,4}:1 \(25\d MiB from \d{3} KiB read\), far beyond what logs compress to: a decompression bomb; reading stopped\.$/,
      ),
    });
  }, 60_000);

  it('a bomb member in a .tar.gz stops there; the logs before it are analysed', () => {
    const limits: Partial<ArchiveLimits> = { ratioAfterBytes: 8 << 20 };
    const files = new Map(s2);
    const zeros = new Uint8Array(64 << 20);
    files.set('node4.log', zeros);
    files.set('node5.log', s2.get('node0.log')!);
    const archive = gzipSync(tar(files));
    const extracts = readInput('job.tar.gz', chunks(archive, 65536), { mtimeMs: null, limits });
    expect(extracts.map((x) => x.problem?.code ?? null)).toEqual([null, null, null, null, 'bomb']);
    expect(extracts[4]!.file).toBe('job.tar.gz/node4.log');
    expect(summary(buildJob(extracts)).late).toEqual(['node3']);
  });

  it('the total cap stops an archive that is too large even at a log-like ratio', () => {
    const archive = gzipSync(tar(s2));
    const limits: Partial<ArchiveLimits> = { maxInflatedBytes: 10_000 };
    const extracts = readInput('job.tar.gz', chunks(archive, 100), { mtimeMs: null, limits });
    expect(extracts.at(-1)!.problem).toMatchObject({
      code: 'bomb',
      message: expect.stringMatching(
        /^Not analysed: job\.tar\.gz inflates past 9\.8 KiB \(from .+ read\), more than a log archive should hold; reading stopped there\.$/,
      ),
    });
    expect(extracts.slice(0, -1).every((x) => x.problem === null)).toBe(true);
  });

  it('an archive of too many files stops at the limit', () => {
    const files = new Map(Array.from({ length: 30 }, (_, i) => [`f${i}.log`, enc.encode('x\n')]));
    const extracts = readInput('many.zip', [zipSync(Object.fromEntries(files))], {
      mtimeMs: null,
      limits: { maxMembers: 25 },
    });
    expect(extracts).toHaveLength(26);
    expect(extracts.at(-1)!.problem!.message).toBe('many.zip holds more than 25 files; reading stopped there.');
  });
});

describe('the CLI reads archives the same way', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'skewscope-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('walks a folder holding a .tgz and a .zip into their members', async () => {
    const s5 = scenarioFiles(S5);
    const s2 = scenarioFiles(S2);
    writeFileSync(path.join(dir, 's5.tgz'), gzipSync(tar(s5, 'pax')));
    writeFileSync(path.join(dir, 's2.zip'), zipSync(Object.fromEntries(s2)));
    writeFileSync(path.join(dir, 'node3.log.gz'), gzipSync(s2.get('node3.log')!));

    const s5x = await extractAll(await collectInputs([path.join(dir, 's5.tgz')]));
    expect(s5x.map((x) => x.file)).toEqual([...s5.keys()].map((k) => `${path.join(dir, 's5.tgz')}/${k}`));
    expect(summary(buildJob(s5x))).toEqual(summary(buildJob(dropped(s5))));

    const zip = await extractAll(await collectInputs([path.join(dir, 's2.zip')]));
    expect(summary(buildJob(zip))).toMatchObject({ verdict: 'failed', late: ['node3'] });

    const [gz] = await extractAll(await collectInputs([path.join(dir, 'node3.log.gz')]));
    expect(gz!.file).toBe(path.join(dir, 'node3.log'));
    expect(gz!.problem).toBeNull();
  });
});

describe('names', () => {
  it('tells archives from logs by their names', () => {
    expect(['a.log', 'a.log.gz', 'a.tgz', 'A.TAR.GZ', 'a.tar', 'a.zip', 'a.gz.log'].map(inputKind)).toEqual([
      'plain',
      'gz',
      'tar.gz',
      'tar.gz',
      'tar',
      'zip',
      'plain',
    ]);
  });
});

describe('adding files to a job', () => {
  const s2 = scenarioFiles(S2);
  const extract = (name: string, text = 'x\n') => {
    const ex = createExtractor(name);
    ex.push(typeof text === 'string' ? enc.encode(text) : text);
    return ex.finish();
  };

  it('merges what each input yielded; a later input with the same name replaces the earlier one', () => {
    const first = dropped(new Map([...s2].slice(0, 2)));
    const second = dropped(new Map([...s2].slice(2)));
    const yielded = new Map([
      ['node0.log', { file: null, extracts: [first[0]!] }],
      ['node1.log', { file: null, extracts: [first[1]!] }],
      ['more.zip', { file: null, extracts: second }],
    ]);
    const merged = mergeExtracts(['node0.log', 'node1.log', 'more.zip'], yielded);
    expect(summary(buildJob(merged))).toMatchObject({ verdict: 'failed', late: ['node3'] });

    const again = extract('node1.log', 'replaced\n');
    yielded.set('node1.log.gz', { file: null, extracts: [again] });
    const replaced = mergeExtracts(['node0.log', 'node1.log', 'more.zip', 'node1.log.gz'], yielded);
    expect(replaced.map((x) => x.file)).toEqual(['node0.log', 'node2.log', 'node3.log', 'node1.log']);
    expect(replaced.at(-1)).toBe(again);
  });

  it('keeps each file’s bytes reachable and drops corrections for files that left the job', () => {
    const file = new File(['x'], 'node3.log.gz');
    const sources = sourcesOf(
      ['node3.log.gz'],
      new Map([['node3.log.gz', { file, extracts: [extract('node3.log')] }]]),
    );
    expect(sources).toEqual({ 'node3.log.gz': file, 'node3.log': file });

    const overrides = { fileNode: { 'a.log': 'n1', 'gone.log': 'n2' }, nodeName: { n1: 'first' } };
    expect(pruneOverrides(overrides, [extract('a.log')])).toEqual({
      fileNode: { 'a.log': 'n1' },
      nodeName: { n1: 'first' },
    });
    expect(pruneOverrides(overrides, [extract('a.log'), extract('gone.log')])).toBe(overrides);
  });

  it('names pastes pasted-1.log, pasted-2.log… unless the user names them', () => {
    const taken = new Set(['pasted-1.log']);
    expect(nextPastedName((p) => taken.has(p))).toBe('pasted-2.log');
    expect(pastedPath('  node3.log ', 'pasted-2.log')).toBe('node3.log');
    expect(pastedPath(' ../', 'pasted-2.log')).toBe('pasted-2.log');
  });
});
