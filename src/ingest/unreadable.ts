import { fileProblem } from '../core/fileProblem';
import type { FileExtract } from '../core/model';
import { sentence, type Sentence } from '../i18n/sentence';

/**
 * A file that could not be read still belongs in the report, with the reason, like any other problem file.
 * `reason` is ours as a sentence, or the browser's own words (shown as they are, as code).
 */
export function unreadableExtract(
  path: string,
  bytes: number,
  mtimeMs: number | null,
  reason: string | Sentence,
): FileExtract {
  return {
    file: path,
    bytes,
    lines: 0,
    longLines: 0,
    invalidUtf8: false,
    mtimeMs,
    streams: [],
    problem: fileProblem(
      'unreadable',
      typeof reason === 'string'
        ? sentence('file.unreadable', { reason })
        : sentence('file.unreadableSaid', { reason }),
    ),
  };
}
