import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { version } from '../../package.json';
import { buildJob } from '../core/index';
import { appendAll } from '../core/arrays';
import { DIGEST_BUDGET_BYTES, DIGEST_CAP_BYTES, MAX_DIGEST_BYTES, encodeDigest, type LineText } from '../core/digest';
import type { FileExtract } from '../core/model';
import { createInputReader } from '../ingest/archive/index';
import { DEFAULT_REDACTION, Redactor } from '../share/redact';
import { collectInputs, InputError, type InputFile } from './files';
import { extractAll } from './pool';

// `skewscope digest <paths…|->`: one node's logs, read on the node with the same core as `analyze`, as one
// small JSON digest that `analyze` and the dashboard read like the logs themselves (docs/cluster.md).
// Exit codes as `analyze`: 0 healthy, 1 failed / incomplete / no torchrun logs, 2 bad usage or unreadable input.

export const DIGEST_USAGE = `usage: skewscope digest <files|folders|archives|-…> [--out FILE] [--node NAME] [--no-prefix]
                        [--stdin-name FILE] [--with-lines | --raw-lines] [--max-bytes N]

Reads one node's torchrun logs (as analyze does; - reads standard input) and prints one JSON digest: the events
the analysis reads with their fields and line numbers, clocks, identity, per-file problems. No line text unless
--with-lines (addresses and paths redacted as in share links) or --raw-lines (as printed).
--out FILE     write it there instead of standard output (folders are made)
               In paths and --out: %N the node name, %h the host name, %j $SLURM_JOB_ID, %n $SLURM_NODEID,
               %t $SLURM_PROCID, %% a percent sign (srun … skewscope digest logs/%N.log --out digests/%N.json)
--node NAME    the node's name (default $SLURMD_NODENAME, else the host name); the files are put under NAME/,
               as if the logs had been copied into a folder named for the node (--no-prefix: names as given).
               Standard input is named NAME.log, or --stdin-name FILE (put under NAME/; .gz, .tar.gz, .zip
               are unpacked: kubectl exec POD -- tar czf - -C /logs . | skewscope digest - --stdin-name logs.tar.gz)
--max-bytes N  hard cap (default ${DIGEST_CAP_BYTES}); past it events are left out, and counted in the digest
Exit codes: 0 healthy, 1 failed / incomplete / no torchrun logs, 2 bad usage or unreadable input.
`;

interface DigestArgs {
  paths: string[];
  stdinName: string | null;
  out: string | null;
  node: string | null;
  prefix: boolean;
  lines: 'none' | 'redacted' | 'raw';
  maxBytes: number;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): DigestArgs {
  const a: DigestArgs = {
    paths: [],
    stdinName: null,
    out: null,
    node: null,
    prefix: true,
    lines: 'none',
    maxBytes: DIGEST_CAP_BYTES,
  };
  const value = (i: number, name: string): [string, number] => {
    const arg = argv[i]!;
    if (arg.startsWith(`${name}=`)) return [arg.slice(name.length + 1), i];
    const v = argv[i + 1];
    if (v === undefined) throw new UsageError(`${name} takes a value`);
    return [v, i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const is = (name: string) => arg === name || arg.startsWith(`${name}=`);
    if (arg === '-') a.paths.push(arg);
    else if (is('--out')) [a.out, i] = value(i, '--out');
    else if (is('--node')) [a.node, i] = value(i, '--node');
    else if (is('--stdin-name')) [a.stdinName, i] = value(i, '--stdin-name');
    else if (arg === '--no-prefix') a.prefix = false;
    else if (arg === '--with-lines') a.lines = 'redacted';
    else if (arg === '--raw-lines') a.lines = 'raw';
    else if (is('--max-bytes')) {
      let v: string;
      [v, i] = value(i, '--max-bytes');
      const n = Number(v);
      if (!Number.isInteger(n) || n < 4096 || n > MAX_DIGEST_BYTES)
        throw new UsageError(`--max-bytes takes a whole number from 4096 to ${MAX_DIGEST_BYTES}`);
      a.maxBytes = n;
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
    else a.paths.push(arg);
  }
  if (a.paths.length === 0) throw new UsageError('name at least one log file or folder (or - for standard input)');
  if (a.paths.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read once');
  if (a.stdinName !== null && !/^[\w.+-]{1,128}$/.test(a.stdinName))
    throw new UsageError('--stdin-name takes a file name (letters, digits, . _ + -), e.g. pod.log or logs.tar.gz');
  if (a.node !== null && !/^[^/\\\s]{1,128}$/.test(a.node))
    throw new UsageError('--node takes a name of 1 to 128 characters without slashes or spaces');
  return a;
}

/** `%N`, `%h`, `%j`, `%n`, `%t`, `%%` in paths and --out, as Slurm writes them in its own file name patterns. */
export function expandPattern(pattern: string, node: string, env: NodeJS.ProcessEnv = process.env): string {
  return pattern.replace(/%([%Nhjnt])/g, (_m, c: string) => {
    switch (c) {
      case '%':
        return '%';
      case 'N':
        return node;
      case 'h':
        return hostname();
      case 'j':
        return env.SLURM_JOB_ID ?? 'nojob';
      case 'n':
        return env.SLURM_NODEID ?? '0';
      default:
        return env.SLURM_PROCID ?? '0';
    }
  });
}

/** Standard input read like a file of that name. */
async function extractStdin(name: string): Promise<FileExtract[]> {
  const out: FileExtract[] = [];
  const reader = createInputReader(name, { mtimeMs: null, onExtract: (x) => out.push(x) });
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    reader.push(chunk);
    if (reader.stopped) break;
  }
  reader.finish();
  return out;
}

function lineText(mode: DigestArgs['lines']): LineText {
  if (mode === 'raw') return (t) => t;
  if (mode === 'none') return null;
  // Host names stay (the digest names its node anyway; a pseudonym per digest would not match across nodes).
  const redactor = new Redactor(buildJob([]), { ...DEFAULT_REDACTION, hostnames: false });
  return (t) => redactor.text(t);
}

/** A path as a relative one: separators unified, empty, `.` and `..` parts dropped. */
function inside(name: string): string {
  return name
    .split(/[\\/]+/)
    .filter((p) => p !== '' && p !== '.' && p !== '..')
    .join('/');
}

function kib(n: number): string {
  return `${(n / 1024).toFixed(1)} KiB`;
}

export async function digestMain(argv: string[]): Promise<number> {
  let args: DigestArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`skewscope: ${e.message}\n${DIGEST_USAGE}`);
    return 2;
  }
  const host = hostname();
  const node = args.node ?? (process.env.SLURMD_NODENAME || host);
  const inputs: InputFile[] = [];
  const names = new Set<string>();
  try {
    const paths = args.paths.filter((p) => p !== '-').map((p) => expandPattern(p, node));
    for (const f of await collectInputs(paths)) {
      // Under the node's folder: paths as analyze names them, with no way out of it (no leading /, no ..).
      const name = args.prefix ? `${node}/${inside(f.name)}` : f.name;
      // The same file named twice is read once (a digest holds each name once).
      if (names.has(name)) continue;
      names.add(name);
      inputs.push({ ...f, name });
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`skewscope: ${e.message}\n`);
    return 2;
  }
  const extracts = await extractAll(inputs);
  if (args.paths.includes('-')) {
    const name = args.stdinName ?? `${node}.log`;
    appendAll(extracts, await extractStdin(args.prefix && args.stdinName ? `${node}/${name}` : name));
  }
  if (extracts.length === 0) {
    process.stderr.write(`skewscope: no files to read in ${args.paths.join(' ')}\n`);
    return 2;
  }

  const encoded = encodeDigest(extracts, {
    producer: `skewscope ${version}`,
    node: { name: node, host },
    lineText: lineText(args.lines),
    capBytes: args.maxBytes,
  });
  const unreadable = extracts.filter((x) => x.problem && !['not-a-log', 'empty'].includes(x.problem.code));
  for (const x of unreadable) process.stderr.write(`skewscope: ${x.problem!.message}\n`);
  const o = encoded.overflow;
  if (o)
    process.stderr.write(
      `skewscope: the digest passed its ${kib(o.capBytes)} cap: ${o.events} events${o.files ? ` and ${o.files} files` : ''} left out (counted in it)\n`,
    );
  if (args.out === null) process.stdout.write(encoded.text);
  else {
    const file = expandPattern(args.out, node);
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await writeFile(file, encoded.text);
    const events = extracts.reduce((n, x) => n + x.streams.reduce((k, s) => k + s.events.length, 0), 0);
    const over = encoded.bytes > DIGEST_BUDGET_BYTES ? ` (over the ${kib(DIGEST_BUDGET_BYTES)} budget)` : '';
    process.stderr.write(
      `skewscope: digest of ${node}: ${extracts.length} file${extracts.length === 1 ? '' : 's'}, ${events} events, ${kib(encoded.bytes)}${over} → ${file}\n`,
    );
  }
  if (unreadable.length === extracts.length) return 2;
  return buildJob(extracts).verdict === 'healthy' ? 0 : 1;
}
