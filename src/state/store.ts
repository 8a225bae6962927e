// The app's single store. Workers and the pool live outside it (they are not data); the store holds
// only what the views render.
import { create } from 'zustand';
import { readViewFragment } from './fragment';
import { storedLang, storeLang } from './prefs';
import { appendAll } from '../core/arrays';
import type { FileExtract, JobModel } from '../core/model';
import {
  assembleJob,
  filesFromDataTransfer,
  filesFromList,
  loadExample,
  diagnoseJob,
  type Diagnosis,
  type Lang,
  type Overrides,
  runPool,
  unreadableExtract,
  mergeExtracts,
  sourcesOf,
  pruneOverrides,
  pastedPath,
  nextPastedName,
  type Collected,
  type InputFile,
  type PoolListener,
  type PoolRun,
  type Yielded,
} from '../ingest/index';

export type Phase = 'idle' | 'collecting' | 'parsing' | 'done';

/** What went wrong outside any one file; `detail` is the browser's or the analysis' own message. */
export interface AppError {
  code: 'nothing-dropped' | 'collect-failed' | 'analysis-failed';
  detail: string | null;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
export type FileStatus = 'queued' | 'reading' | 'done';

export interface FileRow {
  path: string;
  bytes: number;
  bytesDone: number;
  status: FileStatus;
  /** The run that read it: one drop, pick or paste, with what was added while it was being read. */
  run: number;
}

export interface AppState {
  phase: Phase;
  files: FileRow[];
  job: JobModel | null;
  /** Findings and advice for `job`, in `lang`. */
  diagnosis: Diagnosis | null;
  lang: Lang;
  /** Switches the language of the words on screen (the reader's choice is remembered by chooseLang). */
  setLang(lang: Lang): void;
  /** The reader picked a language: switched to and remembered in this browser. */
  chooseLang(lang: Lang): void;
  /** What the last analysis read; kept so corrections recompute without reading files again. */
  extracts: FileExtract[];
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
}

/** The run being read. */
let current: Run | null = null;
let runIds = 0;
/** Bumped by reset() and cancel(): folder walks that started before are dropped when they end. */
let epoch = 0;
/** Drops still being listed (folders walked, the example fetched). */
let collecting = 0;
/** What every read input yielded, by its path: the job is rebuilt from this and the rows. */
const yielded = new Map<string, Yielded>();

type Data = Pick<
  AppState,
  'phase' | 'files' | 'job' | 'diagnosis' | 'cancelled' | 'error' | 'extracts' | 'overrides' | 'sources' | 'run'
>;

const idle = (): Data => ({
  phase: 'idle',
  files: [],
  job: null,
  diagnosis: null,
  cancelled: false,
  error: null,
  extracts: [],
  overrides: {},
  sources: {},
  run: 0,
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
    const { job, files } = get();
    return job || files.length > 0 ? 'done' : 'idle';
  };

  const patchRow = (run: Run, index: number, patch: Partial<FileRow>) => {
    const path = run.inputs[index]?.path;
    if (run.dead || path === undefined) return;
    set((state) => {
      const at = state.files.findIndex((row) => row.run === run.id && row.path === path);
      if (at < 0) return state;
      const files = state.files.slice();
      files[at] = { ...files[at]!, ...patch };
      return { files };
    });
  };

  /** Rebuilds the job from every file read so far, in every run, with the user's corrections. */
  const analyse = (files: FileRow[]) => {
    const done = files.filter((row) => row.status === 'done').map((row) => row.path);
    if (!current) {
      const keep = new Set(done);
      for (const path of [...yielded.keys()]) if (!keep.has(path)) yielded.delete(path);
    }
    const extracts = mergeExtracts(done, yielded);
    const sources = sourcesOf(done, yielded);
    const overrides = pruneOverrides(get().overrides, extracts);
    const phase: Phase = current ? 'parsing' : collecting > 0 ? 'collecting' : 'done';
    const base = { phase, files, extracts, sources, overrides };
    if (extracts.length === 0) return set({ ...base, job: null, diagnosis: null });
    try {
      const job = assembleJob(extracts, overrides);
      set({ ...base, job, diagnosis: diagnoseJob(job, get().lang) });
    } catch (error) {
      set({
        ...base,
        job: null,
        diagnosis: null,
        error: { code: 'analysis-failed', detail: errorText(error) },
      });
    }
  };

  const finish = (run: Run) => {
    if (run.dead) return;
    if (current === run) current = null;
    let files = get().files;
    // Files of this run left unread (cancelled) give back the rows they were to replace.
    if (run.replaced.size > 0)
      files = files.map((row) =>
        row.run === run.id && row.status !== 'done' ? (run.replaced.get(row.path) ?? row) : row,
      );
    analyse(files);
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
    return [
      ...kept,
      ...inputs.map((f) => ({ path: f.path, bytes: f.file.size, bytesDone: 0, status: status(false), run: run.id })),
      ...failed.map((path) => ({ path, bytes: 0, bytesDone: 0, status: status(true), run: run.id })),
    ];
  };

  const listenerFor = (run: Run): PoolListener => ({
    started: (i) => patchRow(run, i, { status: 'reading' }),
    progress: (i, bytesDone) => patchRow(run, i, { bytesDone }),
    finished: (i, extracts) => {
      const input = run.inputs[i];
      if (run.dead || !input) return;
      yielded.set(input.path, { file: input.file, extracts });
      patchRow(run, i, { status: 'done', bytesDone: input.file.size });
    },
  });

  /** Reads files into the job on screen: into the run being read if there is one, else in a new run. */
  const ingest = (collected: Collected) => {
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
    const run: Run = live ?? { id: ++runIds, pool: null, inputs: [], replaced: new Map(), dead: false };
    current = run;
    for (const f of failures)
      yielded.set(f.path, { file: null, extracts: [unreadableExtract(f.path, 0, null, f.reason)] });
    set((state) => ({
      phase: 'parsing',
      error: null,
      run: run.id,
      ...(live ? {} : { cancelled: false }),
      files: withRows(
        state.files,
        run,
        inputs,
        failures.map((f) => f.path),
      ),
    }));
    appendAll(run.inputs, inputs);
    if (live) {
      live.pool!.add(inputs);
      return;
    }
    const pool = runPool(inputs, listenerFor(run));
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
      const { extracts, lang } = get();
      if (extracts.length === 0) return set({ overrides });
      const job = assembleJob(extracts, overrides);
      set({ overrides, job, diagnosis: diagnoseJob(job, lang) });
    },
    setLang: (lang) => {
      if (lang === get().lang) return;
      const job = get().job;
      set({ lang, diagnosis: job ? diagnoseJob(job, lang) : null });
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
      const taken = new Set(get().files.map((row) => row.path));
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
      run.pool?.cancel();
    },
    reset: () => {
      epoch += 1;
      collecting = 0;
      if (current) {
        current.dead = true;
        current.pool?.cancel();
      }
      current = null;
      yielded.clear();
      set(idle());
    },
  };
});
