import type { EvidenceLine, NodeEvent } from '../model';

export const evOf = (e: NodeEvent | undefined | null): EvidenceLine[] =>
  e ? [{ file: e.file, line: e.line, text: e.text }] : [];
