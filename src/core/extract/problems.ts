import type { ScanStats } from '../lineScanner';
import type { FileProblem } from '../model';

// Why a file yields nothing: each reason in words the user can act on.

export function problemOf(file: string, st: ScanStats, torchy: boolean): FileProblem | null {
  if (st.packed)
    return {
      code: 'archive-error',
      message: `${file} is ${st.packed}-compressed or an archive; unpack it first (or drop it as .gz/.zip/.tar.gz)`,
    };
  if (st.binary) return { code: 'binary', message: `${file} is not text (binary content); it was skipped` };
  if (st.bytes === 0) return { code: 'empty', message: `${file} is empty` };
  if (/\.json$/i.test(file)) return { code: 'not-a-log', message: `${file} is a JSON file, not a log` };
  if (!torchy)
    return {
      code: 'not-a-log',
      message: `${file} holds no torchrun or torch.distributed lines (${st.lines} lines read)`,
    };
  return null;
}

export function errorFileProblem(file: string): FileProblem {
  return { code: 'not-a-log', message: `${file} is not a torchelastic error file (unreadable JSON)` };
}
