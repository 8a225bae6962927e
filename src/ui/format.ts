import { nodeLabels, type Lang } from '../core/i18n';
import type { JobModel } from '../core/model';
import { listSome } from '../i18n/index';

export function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
}

const ISO = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d{1,3})?\d*(Z|[+-]\d\d:?\d\d)?$/;

/** Job-clock instants are ISO strings; show them readably without re-interpreting the zone. */
export function formatInstant(iso: string): string {
  const m = ISO.exec(iso);
  if (!m) return iso;
  const [, date, time, fraction = '', zone] = m;
  const zoneText = zone === 'Z' ? ' UTC' : zone ? ` ${zone}` : '';
  return `${date} ${time}${fraction}${zoneText}`;
}

/**
 * The nodes a job is missing as the verdict and the what-if name them: each worded in the reader's language
 * (`node4（group_rank 4）`), the first `shown`, and how many more.
 */
export function missingNodesText(lang: Lang, job: Pick<JobModel, 'missingNodes' | 'missingCount'>, shown: number) {
  return listSome(
    lang,
    job.missingNodes.map((m) => nodeLabels(lang, m)),
    shown,
    Math.max(job.missingCount, job.missingNodes.length),
  );
}
