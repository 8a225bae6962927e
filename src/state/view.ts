// View state shared across panels: which node is selected, and which log line the evidence viewer shows.
// Kept apart from the analysis store: changing it never recomputes the job.
import { create } from 'zustand';

export interface EvidenceTarget {
  file: string;
  line: number;
}

export interface ViewState {
  selectedNode: string | null;
  evidence: EvidenceTarget | null;
  selectNode(id: string | null): void;
  openEvidence(target: EvidenceTarget): void;
  closeEvidence(): void;
}

export const useViewStore = create<ViewState>()((set) => ({
  selectedNode: null,
  evidence: null,
  selectNode: (selectedNode) => set({ selectedNode }),
  openEvidence: (evidence) => set({ evidence }),
  closeEvidence: () => set({ evidence: null }),
}));
