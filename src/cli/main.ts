import { ALL_ANCHORS, buildJob, diagnose } from '../core/index';
import { LANGS, words, type Lang } from '../core/i18n';
import { sentenceText } from '../i18n/sentence';
import { DIGEST_USAGE, digestMain } from './digest';
import { collectInputs, InputError } from './files';
import { heapStatsLine, heapStatsWanted, sampleHeap, startHeapSampler } from './heapStats';
import { extractAll, isPoolWorker, poolHeapPeak, runPoolWorker } from './pool';
import { renderReport } from './report';
import { diagnosisJson, encodeShare, shareMarkdown, DEFAULT_SHARE_BASE } from '../share/index';

// `skewscope analyze <files|folders…> [--json | --markdown] [--share-url [--share-base URL]] [--lang en|zh] [--correct-clocks]`.
// Exit codes: 0 healthy, 1 a failure or risk found, 2 bad usage or unreadable input.

const USAGE = `usage: skewscope analyze <files|folders…> [--json | --markdown] [--share-url [--share-base URL]]
                         [--lang en|zh] [--correct-clocks]
       skewscope digest <files|folders|-…> [--out FILE] …   one node's logs as a small digest (digest --help)
       skewscope anchors        print the catalogue's anchor strings, one per line

Reads per-node torchrun logs (plain, .gz, .zip, .tar, .tar.gz; folders are walked) and digests made on the nodes
(told by their content, whatever their names), and tells which node was late, which startup stage failed and
which timeout fired.
--correct-clocks subtracts the clock offsets estimated from the rendezvous (time zones are always corrected).
--markdown prints a report to paste into an issue; --share-url prints a link that opens this diagnosis in
the dashboard (no log in it; addresses and paths redacted), at --share-base (default ${DEFAULT_SHARE_BASE}).
Exit codes: 0 healthy, 1 failed / incomplete / no torchrun logs, 2 bad usage or unreadable input.
`;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return cmd ? 0 : 2;
  }
  if (cmd === 'anchors') {
    process.stdout.write(ALL_ANCHORS.join('\n') + '\n');
    return 0;
  }
  if (cmd === 'digest') {
    if (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h') {
      process.stdout.write(DIGEST_USAGE);
      return rest.length === 0 ? 2 : 0;
    }
    return digestMain(rest);
  }
  if (cmd !== 'analyze') {
    process.stderr.write(`skewscope: unknown command '${cmd}'\n${USAGE}`);
    return 2;
  }
  let json = false;
  let markdown = false;
  let shareUrl = false;
  let shareBase: string | null = null;
  let correctClocks = false;
  let lang: Lang = 'en';
  const paths: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--json') json = true;
    else if (a === '--markdown') markdown = true;
    else if (a === '--share-url') shareUrl = true;
    else if (a === '--share-base' || a.startsWith('--share-base=')) {
      const v = a.includes('=') ? a.slice(13) : rest[++i];
      if (!v || !/^https?:\/\/\S+$/.test(v)) {
        process.stderr.write(`skewscope: --share-base takes an http(s) URL\n`);
        return 2;
      }
      shareBase = v;
    } else if (a === '--correct-clocks') correctClocks = true;
    else if (a === '--lang' || a.startsWith('--lang=')) {
      const v = a.includes('=') ? a.slice(7) : rest[++i];
      if (!v || !LANGS.includes(v as Lang)) {
        process.stderr.write(`skewscope: --lang takes one of ${LANGS.join(', ')}\n`);
        return 2;
      }
      lang = v as Lang;
    } else if (a.startsWith('-')) {
      process.stderr.write(`skewscope: unknown option '${a}'\n${USAGE}`);
      return 2;
    } else paths.push(a);
  }
  if ((json && (markdown || shareUrl)) || (shareBase !== null && !shareUrl)) {
    process.stderr.write(`skewscope: --json goes alone; --share-base goes with --share-url\n${USAGE}`);
    return 2;
  }
  if (paths.length === 0) {
    process.stderr.write(`skewscope: name at least one log file or folder\n${USAGE}`);
    return 2;
  }
  let inputs;
  try {
    inputs = await collectInputs(paths);
  } catch (e) {
    if (e instanceof InputError) {
      process.stderr.write(`skewscope: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if (inputs.length === 0) {
    process.stderr.write(`skewscope: ${words(lang).ui.noFiles}\n`);
    return 2;
  }
  const stats = heapStatsWanted();
  if (stats) startHeapSampler();
  const extracts = await extractAll(inputs);
  // Empty files and files without torch lines are normal in a --log-dir tree: the report lists them.
  const unreadable = extracts.filter((x) => x.problem && !['not-a-log', 'empty'].includes(x.problem.code));
  for (const x of unreadable) process.stderr.write(`skewscope: ${sentenceText(lang, x.problem!.sentence)}\n`);
  if (unreadable.length === extracts.length) return 2;
  const job = buildJob(extracts, { correctClocks });
  const dx = diagnose(job, lang);
  if (stats) sampleHeap();
  let link: string | null = null;
  if (shareUrl) {
    const shared = encodeShare(job, dx, { lang, base: shareBase ?? DEFAULT_SHARE_BASE });
    if (!shared.ok) {
      process.stderr.write(`skewscope: ${shared.error.message}\n`);
      return 2;
    }
    for (const d of shared.dropped) process.stderr.write(`skewscope: ${d.message}\n`);
    link = shared.url;
  }
  const text = json
    ? diagnosisJson(job, dx)
    : markdown
      ? shareMarkdown(job, dx, { lang }, lang, link)
      : link !== null
        ? link + '\n'
        : renderReport(job, dx, lang);
  if (stats) {
    sampleHeap();
    const w = poolHeapPeak();
    process.stderr.write(heapStatsLine(w.bytes, w.workers));
  }
  process.stdout.write(text);
  return job.verdict === 'healthy' ? 0 : 1;
}

if (isPoolWorker()) runPoolWorker();
else
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`skewscope: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 2;
    },
  );
