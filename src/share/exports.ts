import type { Diagnosis } from '../core/findings';
import type { Lang } from '../core/i18n';
import type { JobModel } from '../core/model';
import { buildWire, type SnapshotOptions } from './build';
import { markdownReport } from './markdown';
import { restore } from './restore';
import { expandWire } from './snapshot';
import { SHARE_VERSION } from './wire';

// Exports for pasting elsewhere. Both are pure: they return text; the caller writes or copies it.

/** The diagnosis as JSON: exactly what `skewscope analyze --json` prints (docs/diagnosis-json.md). */
export function diagnosisJson(job: JobModel, dx: Diagnosis): string {
  return JSON.stringify({ ...job, ...dx }, null, 2) + '\n';
}

/**
 * The Markdown report of what a share link with these options would show: the same redaction (hostnames,
 * addresses, paths) and the same re-rendered words, with no size budget (nothing per node is dropped).
 */
export function shareMarkdown(
  job: JobModel,
  dx: Diagnosis,
  options: SnapshotOptions = {},
  lang?: Lang,
  link: string | null = null,
): string {
  const snapshot = expandWire(buildWire(job, dx, options).wire, SHARE_VERSION);
  const restored = restore(snapshot, lang ?? snapshot.view.lang);
  return markdownReport(restored.job, restored.diagnosis, lang ?? snapshot.view.lang, {
    title: snapshot.title,
    app: snapshot.app,
    omitted: snapshot.omitted,
    link,
  });
}
