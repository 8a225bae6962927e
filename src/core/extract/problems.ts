import { sentence } from '../../i18n/sentence';
import { fileProblem } from '../fileProblem';
import type { ScanStats } from '../lineScanner';
import type { FileProblem } from '../model';

// Why a file yields nothing: each reason in words the user can act on (src/i18n/<lang>/core.ts).

export function problemOf(file: string, st: ScanStats, torchy: boolean): FileProblem | null {
  if (st.packed) return fileProblem('archive-error', sentence('file.packed', { file, packed: st.packed }));
  if (st.binary) return fileProblem('binary', sentence('file.binary', { file }));
  if (st.bytes === 0) return fileProblem('empty', sentence('file.empty', { file }));
  if (/\.json$/i.test(file)) return fileProblem('not-a-log', sentence('file.json', { file }));
  if (!torchy) return fileProblem('not-a-log', sentence('file.noTorch', { file, lines: st.lines }));
  return null;
}

export function errorFileProblem(file: string): FileProblem {
  return fileProblem('not-a-log', sentence('file.notErrorFile', { file }));
}
