import { t as translate } from '../i18n/index';
import { useAppStore } from '../state/index';
import { useT } from './i18n';
import { lateList } from './lateNodes';

/** Late nodes read out: the worst three and how many more. */
const SPOKEN_LATE = 3;

/**
 * One always-mounted live region: screen readers announce reliably only changes to a region that
 * already existed, and byte-by-byte progress would be noise, so it speaks phases and the verdict.
 */
export function Announcer() {
  const t = useT();
  const phase = useAppStore((s) => s.phase);
  const fileCount = useAppStore((s) => s.progress.filesTotal);
  const view = useAppStore((s) => s.view);
  const cancelled = useAppStore((s) => s.cancelled);
  const error = useAppStore((s) => s.error);

  let message = '';
  if (error) message = translate(t.lang, `error.${error.code}`) + (error.detail ? ` ${error.detail}` : '');
  else if (phase === 'collecting') message = t('announce.listing');
  else if (phase === 'parsing') message = t('announce.reading', { n: fileCount });
  else if (phase === 'analysing') message = t('announce.analysing');
  else if (phase === 'done' && view) {
    const { job, late } = view;
    const verdict = t(`verdict.label.${job.verdict}`);
    const parts = [t(cancelled ? 'announce.partialVerdict' : 'announce.verdict', { verdict })];
    if (job.failure) parts.push(t(`stage.headline.${job.failure.stage}`));
    if (late.culprits && late.count > 0)
      parts.push(t('announce.late', { nodes: lateList(t, late, SPOKEN_LATE, false) }));
    message = parts.join(' ');
  } else if (phase === 'done') message = t('announce.nothing');

  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
