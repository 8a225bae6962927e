// Shared mode: a diagnosis opened from a `#share=…` link (read-only, no logs), or the error of a link that
// could not be read. Kept apart from the analysis store; dropping or picking logs leaves shared mode.
import { create } from 'zustand';
import { decodeShare, type ShareError, type ShareSnapshot } from '../share/index';
import { useAppStore } from './store';
import { useViewStore } from './view';

export interface ShareState {
  /** The diagnosis the link carries, when one is open. */
  snapshot: ShareSnapshot | null;
  /** Why the link in the address bar could not be opened. */
  error: ShareError | null;
  /** The timeline's visible range, seconds from the earliest launch (what a link records as the zoom). */
  zoom: [number, number] | null;
  /** Reads a URL (or its fragment): a share link opens in shared mode, a broken one shows its error. */
  openLink(url: string): void;
  /** Back to the ordinary page; the `#share=` fragment leaves the address bar. */
  leave(): void;
  setZoom(zoom: [number, number] | null): void;
}

export const isShareFragment = (hash: string) => /^#(?:.*&)?share=/.test(hash);

export const useShareStore = create<ShareState>()((set, get) => ({
  snapshot: null,
  error: null,
  zoom: null,
  openLink: (url) => {
    const decoded = decodeShare(url);
    // A link replaces whatever was on screen: its own job, or the error state with the drop zone.
    useAppStore.getState().reset();
    const view = useViewStore.getState();
    view.closeEvidence();
    if (!decoded.ok) {
      view.selectNode(null);
      set({ snapshot: null, error: decoded.error });
      return;
    }
    const { snapshot } = decoded;
    useAppStore.getState().setLang(snapshot.view.lang);
    view.selectNode(snapshot.view.selectedNode);
    set({ snapshot, error: null, zoom: snapshot.view.zoom });
  },
  leave: () => {
    if (get().snapshot || get().error) {
      useViewStore.getState().closeEvidence();
      set({ snapshot: null, error: null });
    }
    if (typeof location !== 'undefined' && isShareFragment(location.hash))
      history.replaceState(history.state, '', location.pathname + location.search);
  },
  setZoom: (zoom) => set({ zoom }),
}));

// A drop, a pick, a paste or the example starts a fresh analysis: shared mode (and its link) goes.
useAppStore.subscribe((state, prev) => {
  if (prev.phase === 'idle' && state.phase !== 'idle') useShareStore.getState().leave();
});
