// The last diagnosis, kept in this browser so a reload shows it again — the diagnosis only, never the logs:
// it is stored as a share link's payload (findings as codes and numbers, the nodes' lags and events, the
// evidence lines shown with it), unredacted since it never leaves this browser. "Forget" removes it. The
// selection and the zoom come back from the address bar (see fragment.ts), so only a new job is saved.
import { create } from 'zustand';
import type { ShareOptions } from '../share/index';
import { readItem, writeItem } from './prefs';
import { useAppStore } from './store';
import { useViewStore } from './view';

const KEY = 'skewscope.lastDiagnosis';
/** Saving waits for the analysis to settle (corrections, a language switch) and for the main thread to be idle. */
const SAVE_DELAY_MS = 600;

interface Stored {
  link: string;
  savedAt: number;
}

export function readSaved(): Stored | null {
  const raw = readItem(KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Stored>;
    return typeof v.link === 'string' && typeof v.savedAt === 'number' ? { link: v.link, savedAt: v.savedAt } : null;
  } catch {
    return null;
  }
}

export interface SavedState {
  /** Whether the diagnosis on screen is kept for a reload (false after "Forget", until the next analysis). */
  keeping: boolean;
  /** Why it could not be kept (too large for a link, storage full), when it could not. */
  failed: boolean;
  /** Removes the kept diagnosis and keeps nothing more of the one on screen. */
  forget(): void;
}

export const useSavedStore = create<SavedState>()((set) => ({
  keeping: true,
  failed: false,
  forget: () => {
    cancelSave();
    writeItem(KEY, null);
    set({ keeping: false, failed: false });
  },
}));

let timer: ReturnType<typeof setTimeout> | null = null;

function cancelSave(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

let saves = 0;

function save(): void {
  timer = null;
  const { view, lang, phase, ask } = useAppStore.getState();
  if (phase !== 'done' || !view?.complete || !useSavedStore.getState().keeping) return;
  const { selectedNode, zoom } = useViewStore.getState();
  const id = ++saves;
  // Built in the job worker, which has the job: on a 4,096-node job the link takes about half a second.
  const options: ShareOptions = {
    base: '',
    hostnames: false,
    ips: false,
    paths: 'keep',
    evidence: true,
    lang,
    selectedNode: selectedNode && view.job.nodes.some((n) => n.id === selectedNode) ? selectedNode : null,
    zoom,
    maxUrlLength: Number.MAX_SAFE_INTEGER,
  };
  void ask({ kind: 'link', options })
    .catch(() => null)
    .then((link) => {
      // A later save, a "Forget" or another job since: this one is stale.
      const now = useAppStore.getState();
      if (id !== saves || now.view?.gen !== view.gen || !useSavedStore.getState().keeping) return;
      if (link === null) {
        writeItem(KEY, null);
        useSavedStore.setState({ failed: true });
        return;
      }
      writeItem(KEY, JSON.stringify({ link, savedAt: Date.now() } satisfies Stored));
      useSavedStore.setState({ failed: readSaved()?.link !== link });
    });
}

function scheduleSave(): void {
  cancelSave();
  timer = setTimeout(save, SAVE_DELAY_MS);
}

/** Removes the kept diagnosis (Start over: nothing on screen, nothing kept). */
export function clearSaved(): void {
  cancelSave();
  writeItem(KEY, null);
}

if (typeof window !== 'undefined') {
  useAppStore.subscribe((state, prev) => {
    // A new analysis is kept again, even after "Forget" on the one before.
    if (prev.phase === 'idle' && state.phase !== 'idle') useSavedStore.setState({ keeping: true, failed: false });
    if (state.phase === 'done' && state.view?.complete && (state.view !== prev.view || state.phase !== prev.phase))
      scheduleSave();
  });
}
