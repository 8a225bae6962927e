// The page's side of the job worker: starts it, forwards what the store asks, and puts the views' data back
// together from the parts it arrives in. Every message handler here only stores what arrived; the store hears
// of a view twice: when its verdict is in (head), and when its nodes and timeline rows are all in (complete).
import type { FileExtract, Overrides } from '../core/model';
import type { TimelineRow } from '../core/timeline';
import type { Coverage, Diagnosis, Lang, NodeView, ResultView } from '../ingest/index';
import type { FromJob, JobAnswers, JobRequest, ToJob } from './jobProtocol';
import type { MixedQuestion } from './mixedRuns';

export interface JobListener {
  /** A view of analysis `seq`: its head (complete false), then the whole of it (complete true). */
  view(seq: number, view: ResultView, overrides: Overrides): void;
  /** No input yielded any extract. */
  empty(seq: number, overrides: Overrides): void;
  failed(seq: number, message: string): void;
  /** Analysis `seq` found the added files another run than the job on screen; no view of it comes. */
  mixed(seq: number, question: MixedQuestion): void;
  /** The diagnosis of the view of analysis `seq`, in another language. */
  diagnosis(seq: number, diagnosis: Diagnosis): void;
}

export interface AnalyseOptions {
  paths: string[];
  overrides: Overrides;
  lang: Lang;
  partial: Coverage | null;
  prune: boolean;
  added: string[] | null;
}

export interface JobClient {
  connect(port: MessagePort): void;
  put(path: string, extracts: FileExtract[], taskId: number | null): void;
  discard(taskIds: number[]): void;
  /** Asks for an analysis; returns its sequence number (views of older ones are stale once a newer one is in). */
  analyse(options: AnalyseOptions): number;
  setLang(lang: Lang): void;
  reset(): void;
  ask<K extends JobRequest['kind']>(request: Extract<JobRequest, { kind: K }>): Promise<JobAnswers[K]>;
}

interface Assembly {
  seq: number;
  head: ResultView;
  overrides: Overrides;
  timeline: Pick<ResultView, 'timeline' | 'skew' | 'fired'> | null;
  rows: TimelineRow[];
  nodes: NodeView[];
  files: ResultView['job']['files'];
  gaps: ResultView['gaps'];
}

/**
 * What took the page a while in a message from the job worker, as a User Timing measure (`skewscope receive head`,
 * `skewscope handle end`): the benchmarks read them to say which of the main thread's long tasks is which.
 */
const TIMED_FROM_MS = 4;
function timed(name: string, start: number, end: number): void {
  if (end - start >= TIMED_FROM_MS) performance.measure(`skewscope ${name}`, { start, end });
}

/** From this many nodes the verdict is shown as soon as it is in, before the nodes and the timeline. */
export const HEAD_FIRST_FROM = 256;

export function createJobClient(listener: JobListener): JobClient {
  const worker = new Worker(new URL('./job.worker.ts', import.meta.url), { type: 'module', name: 'skewscope-job' });
  const send = (message: ToJob, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  let seqs = 0;
  let ids = 0;
  let building: Assembly | null = null;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  worker.onmessage = (event: MessageEvent<FromJob>) => {
    const start = performance.now();
    // The message is deserialised here, on first access.
    const m = event.data;
    const received = performance.now();
    try {
      handle(m);
    } finally {
      timed(`receive ${m.type}`, start, received);
      timed(`handle ${m.type}`, received, performance.now());
    }
  };
  const handle = (m: FromJob) => {
    switch (m.type) {
      case 'head':
        building = {
          seq: m.seq,
          head: m.view,
          overrides: m.overrides,
          timeline: null,
          rows: [],
          nodes: [],
          files: [],
          gaps: {},
        };
        // A small job's rest follows within milliseconds: its views appear together, as one.
        if (m.view.nodeCount >= HEAD_FIRST_FROM) listener.view(m.seq, m.view, m.overrides);
        return;
      case 'timeline':
        if (building?.seq === m.seq) building.timeline = { timeline: m.timeline, skew: m.skew, fired: m.fired };
        return;
      case 'rows':
        if (building?.seq === m.seq) for (const row of m.rows) building.rows.push(row);
        return;
      case 'nodes':
        if (building?.seq === m.seq) for (const node of m.nodes) building.nodes.push(node);
        return;
      case 'files':
        if (building?.seq !== m.seq) return;
        for (const file of m.files) building.files.push(file);
        Object.assign(building.gaps, m.gaps);
        return;
      case 'end': {
        const b = building;
        if (b?.seq !== m.seq || !b.timeline) return;
        building = null;
        const { timeline, skew, fired } = b.timeline;
        listener.view(
          m.seq,
          {
            ...b.head,
            job: { ...b.head.job, nodes: b.nodes, files: b.files },
            gaps: b.gaps,
            timeline: timeline && { ...timeline, rows: b.rows },
            skew,
            fired,
            complete: true,
          },
          b.overrides,
        );
        return;
      }
      case 'empty':
        return listener.empty(m.seq, m.overrides);
      case 'failed':
        return listener.failed(m.seq, m.message);
      case 'mixed':
        return listener.mixed(m.seq, m.question);
      case 'diagnosis':
        if (building?.seq === m.seq) building.head = { ...building.head, diagnosis: m.diagnosis };
        return listener.diagnosis(m.seq, m.diagnosis);
      case 'answer': {
        const w = waiting.get(m.id);
        if (!w) return;
        waiting.delete(m.id);
        if (m.ok) w.resolve(m.value);
        else w.reject(new Error(m.message));
      }
    }
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    const message = event.message || 'the analysis stopped unexpectedly';
    listener.failed(seqs, message);
    for (const w of waiting.values()) w.reject(new Error(message));
    waiting.clear();
  };

  return {
    connect: (port) => send({ type: 'port', port }, [port]),
    put: (path, extracts, taskId) => send({ type: 'put', path, extracts, taskId }),
    discard: (taskIds) => taskIds.length > 0 && send({ type: 'discard', taskIds }),
    analyse: (options) => {
      const seq = ++seqs;
      send({ type: 'analyse', seq, ...options });
      return seq;
    },
    setLang: (lang) => send({ type: 'lang', lang }),
    reset: () => {
      building = null;
      send({ type: 'reset' });
    },
    ask: <K extends JobRequest['kind']>(request: Extract<JobRequest, { kind: K }>) =>
      new Promise<JobAnswers[K]>((resolve, reject) => {
        const id = ++ids;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        send({ type: 'request', id, request });
      }),
  };
}
