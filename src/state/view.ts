// View state shared across panels: which node is selected, which log line the evidence viewer shows, and the
// timeline's visible range. Kept apart from the analysis store: changing it never recomputes the job.
import { create } from 'zustand';

export interface EvidenceTarget {
  file: string;
  line: number;
}

/** A time range in seconds from the timeline's origin (the earliest launch). */
export type Zoom = [number, number];

export interface ViewState {
  selectedNode: string | null;
  evidence: EvidenceTarget | null;
  /** The timeline's visible range; null while it shows the whole job. */
  zoom: Zoom | null;
  /** A range the next timeline opens at (from a share link or the address bar), taken once. */
  pendingZoom: Zoom | null;
  selectNode(id: string | null): void;
  openEvidence(target: EvidenceTarget): void;
  closeEvidence(): void;
  setZoom(zoom: Zoom | null): void;
  requestZoom(zoom: Zoom | null): void;
  takePendingZoom(): Zoom | null;
}

export const useViewStore = create<ViewState>()((set, get) => ({
  selectedNode: null,
  evidence: null,
  zoom: null,
  pendingZoom: null,
  selectNode: (selectedNode) => set({ selectedNode }),
  openEvidence: (evidence) => set({ evidence }),
  closeEvidence: () => set({ evidence: null }),
  setZoom: (zoom) => {
    const cur = get().zoom;
    if (cur === zoom || (cur && zoom && cur[0] === zoom[0] && cur[1] === zoom[1])) return;
    set({ zoom });
  },
  requestZoom: (pendingZoom) => set({ pendingZoom, zoom: pendingZoom }),
  takePendingZoom: () => {
    const z = get().pendingZoom;
    if (z) set({ pendingZoom: null });
    return z;
  },
}));
