import { sentence, sentenceText, type Sentence } from '../i18n/sentence';
import type { IdentityHint } from './model';
import { boundedCount } from './numbers';

// Node identity from file and folder names. Real names carry it in many shapes: `node3.log`,
// `trainjob-worker-1.log` (Kubeflow: master-0 is node_rank 0, worker-k is node_rank k+1), `…-rank-5.out`,
// `node1_logdir/<run>_<rand>/attempt_0/1/stdout.log` (a torchrun --log-dir tree), `error-<jobid>-3.out`.

interface NameRule {
  re: RegExp;
  /** Name to give the node (from the match). */
  name: (m: RegExpExecArray) => string;
  /** node_rank implied by the name, if any (null: the number in the name is no rank a job has). */
  nodeRank?: (m: RegExpExecArray) => number | null;
  confidence: IdentityHint['confidence'];
  why: (name: string) => Sentence;
}

/** A hint with where it came from: the sentence, and its English words for the JSON. */
export function hint(
  kind: IdentityHint['kind'],
  value: string,
  why: Sentence,
  confidence: IdentityHint['confidence'],
): IdentityHint {
  return { kind, value, sentence: why, evidence: sentenceText('en', why), confidence };
}

const NAME_RULES: NameRule[] = [
  {
    // Slurm's per-node output (`--output=%x-%j-%N.out`, `slurm-%j-%N.out`): the node name follows the job id.
    // A node name carries a digit (gpu-c07, cn-g04), so `run-20240521-final` is no node.
    re: /^[A-Za-z][\w.]{0,62}?[-_]\d{3,12}[-_](?<host>[A-Za-z][A-Za-z0-9-]{0,62}\d[A-Za-z0-9-]{0,62})$/,
    name: (m) => m.groups!.host!,
    confidence: 'medium',
    why: (name) => sentence('hint.slurmNodeInName', { name }),
  },
  {
    re: /^(?<job>.*?)[-_]?(?<role>master|launcher)[-_](?<i>\d+)$/i,
    name: (m) => m[0],
    nodeRank: () => 0,
    confidence: 'medium',
    why: (name) => sentence('hint.kubeflowMaster', { name }),
  },
  {
    re: /^(?<job>.*?)[-_]?worker[-_](?<i>\d+)$/i,
    name: (m) => m[0],
    nodeRank: (m) => rankOf(m.groups!.i, 1),
    confidence: 'medium',
    why: (name) => sentence('hint.kubeflowWorker', { name }),
  },
  {
    re: /(?:^|[-_.])(?:node[-_]?rank|noderank|nr)[-_]?(?<i>\d+)(?:[-_.]|$)/i,
    name: (m) => `node${m.groups!.i}`,
    nodeRank: (m) => rankOf(m.groups!.i, 0),
    confidence: 'medium',
    why: (name) => sentence('hint.nodeRankInName', { name }),
  },
  {
    // JobSet / Kubeflow Trainer v2 pods carry two indices (`llm-sft-node-0-1`: replicated job 0, pod 1): both
    // are part of the name, or every pod of the job would be one node.
    re: /(?:^|[-_.])(?<n>(?:node|host|nd|gpu|compute)[-_]?(?<i>\d+)(?:-\d{1,6}){0,2})(?:[-_.]|$)/i,
    name: (m) => m.groups!.n!,
    confidence: 'medium',
    why: (name) => sentence('hint.nodeNumberInName', { name }),
  },
  {
    // `trainer-rank-5.out`, `job_rank3.log`: launchers that write one file per node name it by its rank.
    re: /(?:^|[-_.])rank[-_]?(?<i>\d+)(?:[-_.]|$)/i,
    name: (m) => `rank-${m.groups!.i}`,
    confidence: 'low',
    why: (name) => sentence('hint.rankInName', { name }),
  },
];

const GENERIC_STEMS =
  /^(?:stdout|stderr|out|err|log|logs|output|console|error|train|run|job|slurm|torchrun|plog|debug|device-\d{1,4}|\d+)$/i;
/** Ascend's per-process logs (`plog-41207_20250912101912.log`, `device-3_20250912101913.log`) are named for a
 * process, not a node: the folder they were collected in names the node (`npu-a01/plog/plog-….log`). */
const PROCESS_LOG = /^(?:plog|device)-\d{1,10}_\d{8,20}$/i;
const ARCHIVE_SUFFIX = /\.(?:tar\.gz|tgz|tar\.bz2|tar|zip|gz)$/i;
const LOGDIR_RUN = /^(?<run>.+)_(?<rand>[a-z0-9_]{8})$/;

/** A rank read from a file name (`worker-99999999999999999999`), range-checked like one read from a line. */
function rankOf(digits: string | undefined, plus: number): number | null {
  const n = boundedCount(digits);
  return n === null ? null : n + plus;
}

function stem(name: string): string {
  return name.replace(/\.(?:log|txt|out|err|stdout|stderr)(?:\.\d+)?$/i, '').replace(/\.(?:log|txt|out)$/i, '');
}

/**
 * Identity hints from a path like `job/node1_logdir/s5-job_8qsqphfk/attempt_0/0/stdout.log`.
 * Parts nearest the file count first; a --log-dir layout names the agent's run folder.
 */
export function hintsFromPath(path: string): IdentityHint[] {
  const parts = path.split(/[\\/]/).filter(Boolean);
  const hints: IdentityHint[] = [];
  const file = parts[parts.length - 1] ?? path;
  // torchrun --log-dir: <root>/<run_id>_<rand>/attempt_<n>/<local_rank>/{stdout,stderr}.log|error.json
  const attemptAt = parts.findIndex((p) => /^attempt_\d+$/.test(p));
  if (attemptAt > 0 && attemptAt + 1 < parts.length) {
    const runDir = parts[attemptAt - 1]!;
    const run = LOGDIR_RUN.exec(runDir);
    const layout = `${runDir}/${parts[attemptAt]}/${parts[attemptAt + 1]}`;
    hints.push(
      hint(
        'logdir',
        parts.slice(0, attemptAt).join('/'),
        run ? sentence('hint.logdirRun', { layout, run: run.groups!.run! }) : sentence('hint.logdir', { layout }),
        'high',
      ),
    );
    hints.push(
      hint(
        'label',
        `local_rank ${parts[attemptAt + 1]}`,
        sentence('hint.logdirFolder', { folder: parts[attemptAt + 1]!, attempt: parts[attemptAt]! }),
        'high',
      ),
    );
  }
  const candidates = [stem(file), ...parts.slice(0, -1).reverse()];
  for (const [i, raw] of candidates.entries()) {
    const part = raw.replace(/[-_](?:logdir|logs?|output)$/i, '');
    if (GENERIC_STEMS.test(part) || /^attempt_\d+$/.test(part) || LOGDIR_RUN.test(part)) continue;
    if (i === 0 && PROCESS_LOG.test(part)) continue;
    let matched = false;
    for (const rule of NAME_RULES) {
      const m = rule.re.exec(part);
      if (!m) continue;
      hints.push(hint('name', rule.name(m), rule.why(raw), rule.confidence));
      const rank = rule.nodeRank?.(m) ?? null;
      if (rank !== null) hints.push(hint('node-rank', String(rank), rule.why(raw), 'low'));
      matched = true;
      break;
    }
    if (matched) return hints;
    // A file named for itself (`ascend-n0.log`) is not named by its folder: files of one folder are often
    // several nodes (a folder of pasted logs), and its name would make them one.
    if (i === 0 && attemptAt < 0) break;
    // A file named for its role (`console.log`, `stdout.log`) in a folder of its own (`npu-02/console.log`)
    // is named by that folder, whatever the folder's shape: a folder per node is how logs are collected.
    // (An archive is a folder too: `npu-02.tar.gz/console.log` is npu-02's.)
    const folder = raw.replace(ARCHIVE_SUFFIX, '');
    if (i > 0 && attemptAt < 0 && folder !== '' && !GENERIC_STEMS.test(folder)) {
      hints.push(hint('name', folder, sentence('hint.folderName', { folder: raw, file }), 'low'));
      return hints;
    }
  }
  // No recognisable shape: the file name itself still tells files apart.
  const s = stem(file);
  if (!GENERIC_STEMS.test(s)) hints.push(hint('name', s, sentence('hint.fileName', { file }), 'low'));
  return hints;
}

/** c10d node ids are `<fqdn or addr>_<pid>_<local_id>`. */
export function hostFromNodeId(nodeId: string): string {
  return nodeId.replace(/_\d+_\d+$/, '');
}

/** `node0:29500` → `node0`; `[::1]:29400` → `::1`. */
export function endpointHost(endpoint: string): string {
  const m = /^\[?([^\]]+?)\]?(?::\d+)?$/.exec(endpoint.trim());
  return m ? m[1]! : endpoint;
}
