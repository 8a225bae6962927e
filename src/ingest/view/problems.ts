import type { FileProblem } from '../../core/model';
import type { Sentence } from '../../i18n/sentence';
import { byName } from './late';
import type { ProblemCode, ProblemGroup } from './types';

/** The folder of a path, with its trailing slash; '' at the top. */
export function folderOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at + 1);
}

const ORDER: ProblemCode[] = ['unreadable', 'bomb', 'archive-error', 'binary', 'not-a-log', 'empty'];

/**
 * Files set aside, folded by reason and folder: twenty thousand non-logs in one archive folder are one entry
 * with a count, not twenty thousand rows. Groups come largest first within a reason; files in name order.
 */
export function groupProblems(files: readonly { file: string; problem: FileProblem | null }[]): ProblemGroup[] {
  const groups = new Map<
    string,
    { code: ProblemCode; folder: string; items: { file: string; message: Sentence; same: string }[] }
  >();
  for (const { file, problem } of files) {
    if (!problem) continue;
    const folder = folderOf(file);
    const key = `${problem.code}\u0000${folder}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { code: problem.code, folder, items: [] }));
    // Sentences compare by what they would say: the English words, one string per file.
    g.items.push({ file, message: problem.sentence, same: problem.message });
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        ORDER.indexOf(a.code) - ORDER.indexOf(b.code) || b.items.length - a.items.length || byName(a.folder, b.folder),
    )
    .map((g) => {
      const items = g.items.sort((a, b) => byName(a.file, b.file));
      const first = items[0]!;
      return {
        code: g.code,
        folder: g.folder,
        files: items.map((i) => i.file),
        messages: items.map((i) => i.message),
        common: items.every((i) => i.same === first.same) ? first.message : null,
      };
    });
}
