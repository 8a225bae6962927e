// Shared mode: a diagnosis opened without its logs — from a `#share=…` link (read-only), or the last diagnosis
// kept in this browser (restored on reload) — or the error of a link that could not be read. Kept apart from
// the analysis store; dropping or picking logs leaves shared mode.
import { create } from 'zustand';
import { decodeShare, type ShareError, type ShareSnapshot } from '../share/index';
import { isShareFragment } from './fragment';
import { useAppStore } from './store';
import { useViewStore, type Zoom } from './view';

export { isShareFragment };

/** Where the diagnosis on screen came from: a link someone sent, or this browser's last analysis. */
export type ShareOrigin = 'link' | 'saved';

export interface ShareState {
  /** The diagnosis the link (or the kept copy) carries, when one is open. */
  snapshot: ShareSnapshot | null;
  origin: ShareOrigin;
  /** Why the link in the address bar could not be opened. */
  error: ShareError | null;
  /** Reads a URL (or its fragment): a share link opens in shared mode, a broken one shows its error. */
  openLink(url: string): void;
  /**
   * Opens a kept diagnosis (the fragment of a share link); false when it cannot be read. `view` is what the
   * address bar says about the node and the zoom; the language stays the reader's.
   */
  openSaved(link: string, view: { node: string | null; zoom: Zoom | null }): boolean;
  /** Back to the ordinary page; the `#share=` fragment leaves the address bar. */
  leave(): void;
}

export const useShareStore = create<ShareState>()((set, get) => ({
  snapshot: null,
  origin: 'link',
  error: null,
  openLink: (url) => {
    const decoded = decodeShare(url);
    // A link replaces whatever was on screen: its own job, or the error state with the drop zone.
    useAppStore.getState().reset();
    const view = useViewStore.getState();
    view.closeEvidence();
    if (!decoded.ok) {
      view.selectNode(null);
      set({ snapshot: null, error: decoded.error, origin: 'link' });
      return;
    }
    const { snapshot } = decoded;
    useAppStore.getState().setLang(snapshot.view.lang);
    view.selectNode(snapshot.view.selectedNode);
    view.requestZoom(snapshot.view.zoom);
    set({ snapshot, error: null, origin: 'link' });
  },
  openSaved: (link, { node, zoom }) => {
    const decoded = decodeShare(link);
    if (!decoded.ok) return false;
    const { snapshot } = decoded;
    const view = useViewStore.getState();
    view.closeEvidence();
    view.selectNode(node && snapshot.nodes.some((n) => n.id === node) ? node : snapshot.view.selectedNode);
    view.requestZoom(zoom ?? snapshot.view.zoom);
    set({ snapshot, error: null, origin: 'saved' });
    return true;
  },
  leave: () => {
    if (get().snapshot || get().error) {
      useViewStore.getState().closeEvidence();
      set({ snapshot: null, error: null, origin: 'link' });
    }
    if (typeof location !== 'undefined' && isShareFragment(location.hash))
      history.replaceState(history.state, '', location.pathname + location.search);
  },
}));

// A drop, a pick, a paste or the example starts a fresh analysis: shared mode (and its link) goes, and so do
// the selection and the zoom of whatever was on screen.
useAppStore.subscribe((state, prev) => {
  if (prev.phase === 'idle' && state.phase !== 'idle') {
    useShareStore.getState().leave();
    const view = useViewStore.getState();
    view.selectNode(null);
    view.requestZoom(null);
  }
});
