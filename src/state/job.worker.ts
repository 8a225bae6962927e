// The job worker: owns every extract and the job built from them, so the page never holds nor computes over
// them. Parse workers send it their extracts directly (on ports the page hands over); the page asks it for an
// analysis of the inputs finished so far and receives the views' data in parts: the verdict first, then the
// timeline and the nodes in chunks small enough to be received without freezing the page.
import { buildJob, diagnose } from '../core/index';
import type { FileExtract, JobModel } from '../core/model';
import type { Diagnosis } from '../core/findings';
import type { Lang } from '../core/i18n';
import {
  mergeExtracts,
  nodeView,
  pruneOverrides,
  viewHead,
  viewTimeline,
  type ParseToJob,
  type Yielded,
} from '../ingest/index';
import { diagnosisJson, previewShare, shareMarkdown } from '../share/index';
import type { FromJob, JobAnswers, JobRequest, ToJob } from './jobProtocol';
import { mixedQuestion } from './mixedRuns';

const scope = self as unknown as DedicatedWorkerGlobalScope;

/**
 * Rows, nodes and files per message: each message is received (deserialised) in one task of the page, so each is
 * kept to about 100 KB. A timeline row is 1–2 KB, a node (its identity evidence) 1–10 KB, a file a few hundred
 * bytes: 256 rows and 512 nodes a message took 25–50 and 180–210 ms to receive at 10,000 digests.
 */
const ROWS_PER_MESSAGE = 64;
const NODES_PER_MESSAGE = 64;
const FILES_PER_MESSAGE = 256;
/** How long an analysis waits for inputs the page saw finished but whose extracts are still on their way. */
const MAX_WAIT_MS = 5000;

type Analyse = Extract<ToJob, { type: 'analyse' }>;

/** What every finished input yielded, by its path. */
const inputs = new Map<string, Yielded>();
/** Extracts of inputs still being read, by task. */
const staged = new Map<number, FileExtract[]>();
/** Tasks cancelled: extracts of theirs still in flight are dropped. */
const discarded = new Set<number>();

let pending: Analyse | null = null;
let scheduled = false;
let waitingSince: number | null = null;
let current: { seq: number; job: JobModel; diagnosis: Diagnosis } | null = null;

function post(message: FromJob): void {
  scope.postMessage(message);
}

function commit(path: string, taskId: number | null, extra: FileExtract[] = []): void {
  const extracts = taskId === null ? [] : (staged.get(taskId) ?? []);
  if (taskId !== null) staged.delete(taskId);
  inputs.set(path, { file: null, extracts: [...extracts, ...extra] });
  kick();
}

function fromParser(message: ParseToJob): void {
  if (discarded.has(message.taskId)) return;
  if (message.type === 'extract') {
    const list = staged.get(message.taskId);
    if (list) list.push(message.extract);
    else staged.set(message.taskId, [message.extract]);
  } else commit(message.path, message.taskId);
}

/** Runs the latest analysis asked for once the messages queued before it are handled. */
function kick(): void {
  if (scheduled || !pending) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    void run();
  }, 0);
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function run(): Promise<void> {
  const request = pending;
  if (!request) return;
  const missing = request.paths.some((p) => !inputs.has(p));
  if (missing) {
    // Their extracts come on other channels than the page's request: wait for them, a bounded time.
    const now = Date.now();
    waitingSince ??= now;
    if (now - waitingSince < MAX_WAIT_MS) {
      setTimeout(kick, 100);
      return;
    }
  }
  waitingSince = null;
  pending = null;
  try {
    await analyse(request);
  } catch (error) {
    post({ type: 'failed', seq: request.seq, message: error instanceof Error ? error.message : String(error) });
  }
  kick();
}

const stale = (request: Analyse) => pending !== null && pending.seq > request.seq;

async function analyse(request: Analyse): Promise<void> {
  const { seq, paths, lang, partial } = request;
  if (request.prune) {
    const keep = new Set(paths);
    for (const path of [...inputs.keys()]) if (!keep.has(path)) inputs.delete(path);
  }
  const extracts = mergeExtracts(paths, inputs);
  const overrides = pruneOverrides(request.overrides, extracts);
  if (extracts.length === 0) {
    current = null;
    post({ type: 'empty', seq, overrides });
    return;
  }
  const job = buildJob(extracts, { overrides });
  if (request.added) {
    // Another run than the job on screen: that job stays (and answers the page's requests) until the page says.
    const question = mixedQuestion(job, namesOf(request.added));
    if (question) {
      post({ type: 'mixed', seq, question });
      return;
    }
  }
  const diagnosis = diagnose(job, lang);
  current = { seq, job, diagnosis };
  const head = viewHead(seq, job, diagnosis, extracts, partial);
  const { files } = head.job;
  post({ type: 'head', seq, view: { ...head, job: { ...head.job, files: [] }, gaps: {} }, overrides });
  // A newer request (more files read, a correction) makes the rest of this one moot.
  await nextTask();
  if (stale(request)) return;
  const { timeline, skew, fired } = viewTimeline(job, diagnosis);
  post({ type: 'timeline', seq, timeline: timeline && { ...timeline, rows: [] }, skew, fired });
  const rows = timeline?.rows ?? [];
  for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE)
    post({ type: 'rows', seq, rows: rows.slice(i, i + ROWS_PER_MESSAGE) });
  for (let i = 0; i < job.nodes.length; i += NODES_PER_MESSAGE)
    post({ type: 'nodes', seq, nodes: job.nodes.slice(i, i + NODES_PER_MESSAGE).map(nodeView) });
  for (let i = 0; i < files.length; i += FILES_PER_MESSAGE) {
    const some = files.slice(i, i + FILES_PER_MESSAGE);
    const gaps: typeof head.gaps = {};
    for (const f of some) if (head.gaps[f.file]) gaps[f.file] = head.gaps[f.file]!;
    post({ type: 'files', seq, files: some, gaps });
  }
  post({ type: 'end', seq });
}

/** The names the job knows the inputs' files by (an archive's members, a `.gz`'s log). */
function namesOf(paths: string[]): Set<string> {
  const out = new Set<string>();
  for (const path of paths) for (const x of inputs.get(path)?.extracts ?? []) out.add(x.file);
  return out;
}

function relang(lang: Lang): void {
  // An analysis not run yet is made in the new language; the one on screen gets its words again.
  if (pending) pending = { ...pending, lang };
  if (!current) return;
  current.diagnosis = diagnose(current.job, lang);
  post({ type: 'diagnosis', seq: current.seq, diagnosis: current.diagnosis });
}

function evidenceText(job: JobModel, file: string, line: number): string | null {
  const same = (e: { file: string; line: number }) => e.file === file && e.line === line;
  for (const e of job.failure?.evidence ?? []) if (same(e)) return e.text;
  for (const n of job.nodes) for (const e of n.events) if (same(e)) return e.text;
  for (const o of job.clockOffsets) if (same(o.evidence)) return o.evidence.text;
  return null;
}

function answer(request: JobRequest): JobAnswers[JobRequest['kind']] {
  if (!current) throw new Error('No analysis is on screen.');
  const { job, diagnosis } = current;
  switch (request.kind) {
    case 'share':
      return previewShare(job, diagnosis, request.options);
    case 'link': {
      // The url only: the preview's decoded snapshot of a 4,096-node job takes the page a while to receive.
      const result = previewShare(job, diagnosis, request.options);
      return result.ok ? result.url : null;
    }
    case 'markdown':
      return shareMarkdown(job, diagnosis, {}, request.lang);
    case 'json':
      return diagnosisJson(job, diagnosis);
    case 'evidence-text':
      return evidenceText(job, request.file, request.line);
  }
}

scope.onmessage = (event: MessageEvent<ToJob>) => {
  const message = event.data;
  switch (message.type) {
    case 'port':
      message.port.onmessage = (e: MessageEvent<ParseToJob>) => fromParser(e.data);
      return;
    case 'put':
      return commit(message.path, message.taskId, message.extracts);
    case 'discard':
      for (const id of message.taskIds) {
        staged.delete(id);
        discarded.add(id);
      }
      return;
    case 'analyse':
      pending = message;
      return kick();
    case 'lang':
      return relang(message.lang);
    case 'reset':
      inputs.clear();
      staged.clear();
      pending = null;
      current = null;
      return;
    case 'request':
      try {
        post({ type: 'answer', id: message.id, ok: true, value: answer(message.request) });
      } catch (error) {
        post({
          type: 'answer',
          id: message.id,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        });
      }
  }
};
