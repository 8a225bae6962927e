// The app's single store. Workers and the pool live outside it (they are not data); the store holds
// only what the views render.
import { create } from 'zustand';
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
  type Collected,
  type PoolRun,
} from '../ingest/index';

export type Phase = 'idle' | 'collecting' | 'parsing' | 'done';
export type FileStatus = 'queued' | 'reading' | 'done';

export interface FileRow {
  path: string;
  bytes: number;
  bytesDone: number;
  status: FileStatus;
}

export interface AppState {
  phase: Phase;
  files: FileRow[];
  job: JobModel | null;
  /** Findings and advice for `job`, in `lang`. */
  diagnosis: Diagnosis | null;
  lang: Lang;
  setLang(lang: Lang): void;
  /** What the last analysis read; kept so corrections recompute without reading files again. */
  extracts: FileExtract[];
  /** The files themselves by path (handles, not contents), for the evidence viewer to read lines from. */
  sources: Record<string, File>;
  /** The user's corrections (file → node, node names, a file's year or zone). */
  overrides: Overrides;
  setOverrides(next: Overrides): void;
  /** True when the user stopped the run; the job then covers only the files that finished. */
  cancelled: boolean;
  error: string | null;
  /** Call synchronously from the drop handler (the browser clears the DataTransfer afterwards). */
  dropTransfer(data: DataTransfer): void;
  pickFiles(list: FileList | null): void;
  /** Analyse the real example job bundled with the app. */
  openExample(): void;
  cancel(): void;
  reset(): void;
}

interface Run {
  pool: PoolRun | null;
  extracts: (FileExtract | undefined)[];
  failures: FileExtract[];
}

let current: Run | null = null;

type Data = Pick<
  AppState,
  'phase' | 'files' | 'job' | 'diagnosis' | 'cancelled' | 'error' | 'extracts' | 'overrides' | 'sources'
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
});

const initialLang = (): Lang =>
  typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('zh') ? 'zh' : 'en';

export const useAppStore = create<AppState>()((set, get) => {
  const patchRow = (run: Run, index: number, patch: Partial<FileRow>) => {
    if (current !== run) return;
    set((state) => {
      const row = state.files[index];
      if (!row) return state;
      const files = state.files.slice();
      files[index] = { ...row, ...patch };
      return { files };
    });
  };

  const finish = (run: Run) => {
    if (current !== run) return;
    current = null;
    const extracts = [...run.extracts.filter((e): e is FileExtract => e !== undefined), ...run.failures];
    if (extracts.length === 0) {
      set({ phase: 'done', job: null, diagnosis: null });
      return;
    }
    try {
      const job = assembleJob(extracts, get().overrides);
      set({ phase: 'done', extracts, job, diagnosis: diagnoseJob(job, get().lang) });
    } catch (error) {
      set({
        phase: 'done',
        job: null,
        error: `The analysis failed: ${error instanceof Error ? error.message : error}`,
      });
    }
  };

  const start = (collected: Collected) => {
    current?.pool?.cancel();
    const { files } = collected;
    if (files.length === 0 && collected.failures.length === 0) {
      current = null;
      set({ ...idle(), error: 'Nothing to analyse: no files were found in what was dropped.' });
      return;
    }
    const run: Run = {
      pool: null,
      extracts: new Array(files.length),
      failures: collected.failures.map((f) => unreadableExtract(f.path, 0, null, f.reason)),
    };
    current = run;
    set({
      phase: 'parsing',
      job: null,
      cancelled: false,
      error: null,
      files: files.map((f) => ({ path: f.path, bytes: f.file.size, bytesDone: 0, status: 'queued' })),
      sources: Object.fromEntries(files.map((f) => [f.path, f.file])),
    });
    run.pool = runPool(files, {
      started: (i) => patchRow(run, i, { status: 'reading' }),
      progress: (i, bytesDone) => patchRow(run, i, { bytesDone }),
      finished: (i, extract) => {
        run.extracts[i] = extract;
        patchRow(run, i, { status: 'done', bytesDone: files[i]?.file.size ?? 0 });
      },
    });
    void run.pool.settled.then(() => finish(run));
  };

  const collect = (pending: Promise<Collected>) => {
    current?.pool?.cancel();
    const marker: Run = { pool: null, extracts: [], failures: [] };
    current = marker;
    set({ ...idle(), phase: 'collecting' });
    pending.then(
      (collected) => {
        if (current === marker) start(collected);
      },
      (error: unknown) => {
        if (current !== marker) return;
        current = null;
        set({ ...idle(), error: `Could not read what was dropped: ${error instanceof Error ? error.message : error}` });
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
      const job = get().job;
      set({ lang, diagnosis: job ? diagnoseJob(job, lang) : null });
    },
    dropTransfer: (data) => collect(filesFromDataTransfer(data)),
    pickFiles: (list) => start({ files: filesFromList(list), failures: [] }),
    openExample: () => collect(loadExample()),
    cancel: () => {
      const run = current;
      if (!run || get().phase !== 'parsing') return;
      set({ cancelled: true });
      run.pool?.cancel();
    },
    reset: () => {
      current?.pool?.cancel();
      current = null;
      set(idle());
    },
  };
});
