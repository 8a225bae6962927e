// The app's single store. Workers and the pool live outside it (they are not data); the store holds only what
// the views render. The job itself lives in the job worker (jobClient.ts): the store holds the view of it.
import { create } from 'zustand';
import { readViewFragment } from './fragment';
import { storedLang, storeLang } from './prefs';
import { appendAll } from '../core/arrays';
import type { FileExtract } from '../core/model';
import {
  filesFromDataTransfer,
  filesFromList,
  loadExample,
  type Lang,
  type Overrides,
  runPool,
  unreadableExtract,
  sourcesOf,
  pastedPath,
  nextPastedName,
  type Collected,
  type InputFile,
  type PoolListener,
  type PoolRun,
  type ResultView,
} from '../ingest/index';
import { createJobClient, type JobClient } from './jobClient';
import type { JobAnswers, JobRequest } from './jobProtocol';
import type { MixedQuestion } from './mixedRuns';
import { useViewStore } from './view';
import { summariseProgress, type ProgressSummary } from './progress';

/** `analysing`: every file is read and the job is being built from them. */
export type Phase = 'idle' | 'collecting' | 'parsing' | 'analysing' | 'done';

/** What went wrong outside any one file; `detail` is the browser's or the analysis' own message. */
export interface AppError {
  code: 'nothing-dropped' | 'collect-failed' | 'analysis-failed';
  detail: string | null;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
export type FileStatus = 'queued' | 'reading' | 'done';

export interface FileRow {
  path: string;
  /** Null until a worker starts on it, for a large drop (see SIZES_ON_PAGE). */
  bytes: number | null;
  bytesDone: number;
  status: FileStatus;
  /** The run that read it: one drop, pick or paste, with what was added while it was being read. */
  run: number;
}

export interface AppState {
  phase: Phase;
  files: FileRow[];
  /** The run's reading progress (its files only), updated a few times a second. */
  progress: ProgressSummary;
  /** What the views draw of the job: set when the verdict is in, again when everything is. */
  view: ResultView | null;
  /** An analysis is under way while `view` shows the one before (a correction, more files read). */
  updating: boolean;
  lang: Lang;
  /** Switches the language of the words on screen (the reader's choice is remembered by chooseLang). */
  setLang(lang: Lang): void;
  /** The reader picked a language: switched to and remembered in this browser. */
  chooseLang(lang: Lang): void;
  /** The files themselves by path (handles, not contents), for the evidence viewer to read lines from. */
  sources: Record<string, File>;
  /** The user's corrections (file → node, node names, a file's year or zone). */
  overrides: Overrides;
  setOverrides(next: Overrides): void;
  /** True when the user stopped the run; the job then covers only the files that finished. */
  cancelled: boolean;
  error: AppError | null;
  /** The run being read, or the last one read: the progress panel shows its files. */
  run: number;
  /**
   * Call synchronously from the drop handler (the browser clears the DataTransfer afterwards). Drops, picks and
   * pastes add to the job on screen (a file with the same path replaces the one read before); reset() clears it.
   */
  dropTransfer(data: DataTransfer): void;
  pickFiles(list: FileList | null): void;
  /** Analyse pasted text as one more file named `name` (which names the node, like a file name does). */
  pasteText(name: string, text: string): void;
  /** The name a paste gets when the user gives none: `pasted-1.log`, then the next free number. */
  nextPasteName(): string;
  /** Analyse the real example job bundled with the app. */
  openExample(): void;
  cancel(): void;
  reset(): void;
  /**
   * Set when the files just read are another run than the job on screen (which stays on screen meanwhile):
   * the page asks whether to add them to it or to start a new job with them.
   */
  mixed: MixedQuestion | null;
  /** `add`: one job of every file, as a drop always makes; `new`: the job of the files just read alone. */
  answerMixed(choice: 'add' | 'new'): void;
  /** Asks the job worker about the job on screen (a share link, the exports, an evidence line's text). */
  ask<K extends JobRequest['kind']>(request: Extract<JobRequest, { kind: K }>): Promise<JobAnswers[K]>;
}

interface Run {
  id: number;
  pool: PoolRun | null;
  /** The run's input files by pool index. */
  inputs: InputFile[];
  /** Rows of earlier runs that this run's files replace: put back if the replacement is not read (cancel). */
  replaced: Map<string, FileRow>;
  /** Set by reset(): nothing the run reports is kept. */
  dead: boolean;
  startedAt: number;
  /** Files finished, and how many were when the last partial analysis was asked for. */
  finished: number;
  analysedAt: { files: number; time: number };
}

/** The run being read. */
let current: Run | null = null;
let runIds = 0;
/** Bumped by reset() and cancel(): folder walks that started before are dropped when they end. */
let epoch = 0;
/** Drops still being listed (folders walked, the example fetched). */
let collecting = 0;
/** What every read input yielded (the names of its extracts: the job worker has the extracts), by its path. */
const yielded = new Map<string, { file: File | null; extracts: { file: string }[] }>();
/** The file rows, changed in place by the pool's reports and handed to the views a few times a second. */
let rows: FileRow[] = [];
let rowIndex = new Map<string, number>();
/**
 * The analysis whose view is awaited, whether it is the one that ends a run, and the run whose files it asks
 * about (they may be another run than the job on screen).
 */
let asked: { seq: number; final: boolean; run: number | null } | null = null;
/** The run whose files the mixed-runs question is about, while it is asked. */
let asking: number | null = null;
let client: JobClient | null = null;

const rowKey = (run: number, path: string) => `${run}\u0000${path}`;
/**
 * Up to this many files, their sizes are read when they are dropped; beyond, the parse workers say them as they
 * start each file: a File of a dropped folder stats its file on disk, synchronously, when asked for its size
 * on the page (a 4,096-file folder froze the page for over a second doing so).
 */
const SIZES_ON_PAGE = 128;
/** Row updates reach the views at most this often: a 4,096-file drop sends thousands of reports. */
const FLUSH_MS = 150;
/**
 * A partial analysis is asked for after this long, then each time the files read have grown fourfold: a few
 * views while a large drop is read (each costs the job worker a build and the page a redraw), not one per file.
 */
const FIRST_PARTIAL_MS = 1000;
const PARTIAL_GAP_MS = 1500;
const PARTIAL_GROWTH = 4;
/** Past this share of a run's files read, the final analysis is close: no more partial ones. */
const LAST_PARTIAL_SHARE = 0.8;

type Data = Pick<
  AppState,
  | 'phase'
  | 'files'
  | 'progress'
  | 'view'
  | 'updating'
  | 'cancelled'
  | 'error'
  | 'overrides'
  | 'sources'
  | 'run'
  | 'mixed'
>;

const idle = (): Data => ({
  phase: 'idle',
  files: [],
  progress: summariseProgress([], null),
  view: null,
  updating: false,
  cancelled: false,
  error: null,
  overrides: {},
  sources: {},
  run: 0,
  mixed: null,
});

/** The address bar's `#lang=`, else the language chosen before in this browser, else the browser's own. */
const initialLang = (): Lang =>
  (typeof location !== 'undefined' ? readViewFragment(location.hash).lang : null) ??
  storedLang() ??
  (typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('zh') ? 'zh' : 'en');

export const useAppStore = create<AppState>()((set, get) => {
  /** Where the app rests when nothing is being read: the job on screen, or the empty page. */
  const restingPhase = (): Phase => {
    if (current) return 'parsing';
    if (collecting > 0) return 'collecting';
    if (asked?.final) return 'analysing';
    return get().view || rows.length > 0 ? 'done' : 'idle';
  };

  const setRows = (next: FileRow[]) => {
    rows = next;
    rowIndex = new Map(next.map((row, i) => [rowKey(row.run, row.path), i]));
  };

  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (flushTimer !== null) clearTimeout(flushTimer);
    flushTimer = null;
    const run = get().run;
    // The progress only: the rows go to the views when the files change (a drop, a run's end), so a report from
    // a worker never re-renders the results drawn so far.
    set({
      progress: summariseProgress(
        rows.filter((r) => r.run === run),
        current?.startedAt ?? null,
      ),
    });
  };
  const scheduleFlush = () => {
    flushTimer ??= setTimeout(flush, FLUSH_MS);
  };

  const patchRow = (run: Run, index: number, patch: Partial<FileRow>) => {
    const path = run.inputs[index]?.path;
    if (run.dead || path === undefined) return;
    const at = rowIndex.get(rowKey(run.id, path));
    if (at === undefined) return;
    rows[at] = { ...rows[at]!, ...patch };
    scheduleFlush();
  };

  const jobClient = (): JobClient =>
    (client ??= createJobClient({
      view: (seq, view, overrides) => {
        if (!asked || seq < asked.seq) return;
        const shown = get().view;
        // A view on screen stays until the next one is whole: the page never goes back to a verdict alone.
        if (!view.complete && shown?.complete) return;
        const done = view.complete && seq === asked.seq;
        const final = done && asked.final;
        if (done) asked = null;
        set({
          view,
          overrides,
          updating: !done,
          ...(final || (done && !current) ? { phase: restingPhase() } : {}),
        });
      },
      empty: (seq, overrides) => {
        if (!asked || seq !== asked.seq) return;
        asked = null;
        set({ view: null, overrides, updating: false, phase: restingPhase() });
      },
      failed: (seq, message) => {
        if (!asked || seq < asked.seq) return;
        asked = null;
        set({
          view: null,
          updating: false,
          phase: restingPhase(),
          error: { code: 'analysis-failed', detail: message },
        });
      },
      diagnosis: (seq, diagnosis) => {
        const view = get().view;
        if (view && view.gen === seq) set({ view: { ...view, diagnosis } });
      },
      mixed: (seq, question) => {
        if (!asked || seq !== asked.seq) return;
        const { final, run } = asked;
        asked = null;
        // While the other run's files are still read, the job on screen stays as it is; the question waits for
        // all of them.
        if (!final || run === null) return;
        asking = run;
        set({ mixed: question, updating: false, phase: restingPhase() });
      },
    }));

  /** The inputs read so far, in every run, in the order they were listed. */
  const donePaths = () => rows.filter((row) => row.status === 'done').map((row) => row.path);

  /**
   * The inputs `run` read, when the job holds inputs of earlier runs too: the job worker checks that they are
   * the same run (the same rendezvous) before the job of them all replaces the one on screen.
   */
  const addedBy = (run: Run | null): string[] | null => {
    if (!run) return null;
    const mine: string[] = [];
    let others = false;
    for (const row of rows) {
      if (row.status !== 'done') continue;
      if (row.run === run.id) mine.push(row.path);
      else others = true;
    }
    return others && mine.length > 0 ? mine : null;
  };

  /**
   * Asks the job worker for the job of every file read so far, in every run, with the user's corrections;
   * `of` is the run being read or just read, whose files may be another run than the job on screen.
   */
  const analyse = (final: boolean, of: Run | null = null) => {
    const paths = donePaths();
    const run = current;
    const added = addedBy(of);
    const seq = jobClient().analyse({
      paths,
      overrides: get().overrides,
      lang: get().lang,
      partial: run ? { filesRead: paths.length, filesTotal: rows.length } : null,
      prune: !run,
      added,
    });
    asked = { seq, final, run: added && of ? of.id : null };
    set({ sources: sourcesOf(paths, yielded) });
    return paths;
  };

  /** While a run reads many files: the job of those read so far, each time they have grown fourfold. */
  const maybePartial = (run: Run) => {
    if (current !== run || asked) return;
    const now = performance.now();
    const total = run.inputs.length;
    if (run.finished >= total * LAST_PARTIAL_SHARE) return;
    if (now - run.startedAt < FIRST_PARTIAL_MS || now - run.analysedAt.time < PARTIAL_GAP_MS) return;
    if (run.finished < Math.max(1, run.analysedAt.files * PARTIAL_GROWTH)) return;
    run.analysedAt = { files: run.finished, time: now };
    flush();
    analyse(false, run);
  };

  /** What inputs no longer in the job yielded. */
  const forgetUnread = () => {
    const done = new Set(donePaths());
    for (const path of [...yielded.keys()]) if (!done.has(path)) yielded.delete(path);
  };

  const finish = (run: Run) => {
    if (run.dead) return;
    if (current === run) current = null;
    // Files of this run left unread (cancelled) give back the rows they were to replace.
    if (run.replaced.size > 0)
      setRows(
        rows.map((row) => (row.run === run.id && row.status !== 'done' ? (run.replaced.get(row.path) ?? row) : row)),
      );
    forgetUnread();
    analyse(true, run);
    flush();
    set({ phase: restingPhase(), files: rows.slice() });
  };

  /** The rows with `run`'s new files added; a file whose path is already listed replaces that row. */
  const withRows = (files: FileRow[], run: Run, inputs: InputFile[], failed: string[]): FileRow[] => {
    const paths = new Set([...inputs.map((f) => f.path), ...failed]);
    const kept: FileRow[] = [];
    for (const row of files) {
      // Files a cancelled run left unread are not part of the job.
      if (row.run !== run.id && row.status !== 'done') continue;
      if (paths.has(row.path)) {
        if (row.run !== run.id) run.replaced.set(row.path, row);
        continue;
      }
      kept.push(row);
    }
    const status = (done: boolean): FileStatus => (done ? 'done' : 'queued');
    const sized = inputs.length <= SIZES_ON_PAGE;
    return [
      ...kept,
      ...inputs.map((f) => ({
        path: f.path,
        bytes: sized ? f.file.size : null,
        bytesDone: 0,
        status: status(false),
        run: run.id,
      })),
      ...failed.map((path) => ({ path, bytes: 0, bytesDone: 0, status: status(true), run: run.id })),
    ];
  };

  const listenerFor = (run: Run): PoolListener => {
    const done = (i: number, names: string[]) => {
      const input = run.inputs[i];
      if (run.dead || !input) return;
      yielded.set(input.path, { file: input.file, extracts: names.map((file) => ({ file })) });
      run.finished += 1;
      const at = rowIndex.get(rowKey(run.id, input.path));
      patchRow(run, i, { status: 'done', bytesDone: (at !== undefined ? rows[at]!.bytes : null) ?? 0 });
      maybePartial(run);
    };
    return {
      started: (i, bytes) => patchRow(run, i, { status: 'reading', bytes }),
      progress: (i, bytesDone) => patchRow(run, i, { bytesDone }),
      finished: done,
      crashed: (i, taskId, extract) => {
        const input = run.inputs[i];
        if (run.dead || !input) return;
        jobClient().put(input.path, [extract], taskId);
        done(i, [extract.file]);
      },
    };
  };

  /** Reads files into the job on screen: into the run being read if there is one, else in a new run. */
  const ingest = (collected: Collected) => {
    // A drop while the mixed-runs question is open answers it: the files read stay in the job, as drops add.
    if (asking !== null) {
      asking = null;
      set({ mixed: null });
    }
    // One row per path: of several files with the same path, the last one wins.
    const byPath = new Map(collected.files.map((f) => [f.path, f]));
    const failures = collected.failures.filter((f) => !byPath.has(f.path));
    const live = current && current.pool?.running ? current : null;
    const reading = new Set(live?.inputs.map((f) => f.path));
    const inputs = [...byPath.values()].filter((f) => !reading.has(f.path));
    if (inputs.length === 0 && failures.length === 0) {
      if (!live) set({ phase: restingPhase(), error: { code: 'nothing-dropped', detail: null } });
      return;
    }
    const now = performance.now();
    const run: Run = live ?? {
      id: ++runIds,
      pool: null,
      inputs: [],
      replaced: new Map(),
      dead: false,
      startedAt: now,
      finished: 0,
      analysedAt: { files: 0, time: now },
    };
    current = run;
    for (const f of failures) {
      const extract: FileExtract = unreadableExtract(f.path, 0, null, f.reason);
      yielded.set(f.path, { file: null, extracts: [{ file: extract.file }] });
      jobClient().put(f.path, [extract], null);
    }
    setRows(
      withRows(
        rows,
        run,
        inputs,
        failures.map((f) => f.path),
      ),
    );
    set({ phase: 'parsing', error: null, run: run.id, files: rows.slice(), ...(live ? {} : { cancelled: false }) });
    flush();
    appendAll(run.inputs, inputs);
    if (live) {
      live.pool!.add(inputs);
      return;
    }
    const jc = jobClient();
    const pool = runPool(inputs, listenerFor(run), { connect: (port) => jc.connect(port) });
    run.pool = pool;
    void pool.settled.then(() => finish(run));
  };

  const collect = (pending: Promise<Collected>) => {
    const at = epoch;
    collecting += 1;
    if (!current) set({ phase: 'collecting', error: null });
    pending.then(
      (collected) => {
        if (at !== epoch) return;
        collecting -= 1;
        ingest(collected);
      },
      (error: unknown) => {
        if (at !== epoch) return;
        collecting -= 1;
        set({
          phase: restingPhase(),
          error: { code: 'collect-failed', detail: errorText(error) },
        });
      },
    );
  };

  return {
    ...idle(),
    lang: initialLang(),
    setOverrides: (overrides) => {
      set({ overrides });
      if (current || donePaths().length === 0) return;
      analyse(false);
      set({ updating: true });
    },
    setLang: (lang) => {
      if (lang === get().lang) return;
      set({ lang });
      if (client) client.setLang(lang);
    },
    chooseLang: (lang) => {
      storeLang(lang);
      get().setLang(lang);
    },
    dropTransfer: (data) => collect(filesFromDataTransfer(data)),
    pickFiles: (list) => ingest({ files: filesFromList(list), failures: [] }),
    pasteText: (name, text) => {
      const path = pastedPath(name, get().nextPasteName());
      const file = new File([text], path.split('/').pop() ?? path, { type: 'text/plain' });
      // No modification time: a paste's "now" says nothing about the year its lines were printed in.
      ingest({ files: [{ path, file, mtimeMs: null }], failures: [] });
    },
    nextPasteName: () => {
      const taken = new Set(rows.map((row) => row.path));
      return nextPastedName((path) => taken.has(path));
    },
    openExample: () => collect(loadExample()),
    cancel: () => {
      const run = current;
      if (!run || get().phase !== 'parsing') return;
      // Folders still being listed are not read either.
      epoch += 1;
      collecting = 0;
      set({ cancelled: true });
      const open = run.pool?.cancel() ?? [];
      client?.discard(open);
    },
    reset: () => {
      epoch += 1;
      collecting = 0;
      if (current) {
        current.dead = true;
        current.pool?.cancel();
      }
      current = null;
      asked = null;
      asking = null;
      yielded.clear();
      setRows([]);
      client?.reset();
      set(idle());
    },
    answerMixed: (choice) => {
      const run = asking;
      if (run === null || current) return;
      asking = null;
      if (choice === 'new') {
        // The job of the files just read alone, as if the page had been started over before they were dropped.
        setRows(rows.filter((row) => row.run === run));
        forgetUnread();
        const view = useViewStore.getState();
        view.selectNode(null);
        view.closeEvidence();
        set({ overrides: {}, cancelled: false, files: rows.slice() });
      }
      analyse(true);
      set({ mixed: null, phase: restingPhase(), updating: true });
    },
    ask: (request) => (client ? client.ask(request) : Promise.reject(new Error('No analysis is on screen.'))),
  };
});
