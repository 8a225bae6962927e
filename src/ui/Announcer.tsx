import { listText, t as translate } from '../i18n/index';
import { useAppStore } from '../state/index';
import { useT } from './i18n';
import { byLag } from './lateNodes';

/**
 * One always-mounted live region: screen readers announce reliably only changes to a region that
 * already existed, and byte-by-byte progress would be noise, so it speaks phases and the verdict.
 */
export function Announcer() {
  const t = useT();
  const phase = useAppStore((s) => s.phase);
  const fileCount = useAppStore((s) => s.files.length);
  const job = useAppStore((s) => s.job);
  const cancelled = useAppStore((s) => s.cancelled);
  const error = useAppStore((s) => s.error);

  let message = '';
  if (error) message = translate(t.lang, `error.${error.code}`) + (error.detail ? ` ${error.detail}` : '');
  else if (phase === 'collecting') message = t('announce.listing');
  else if (phase === 'parsing') message = t('announce.reading', { n: fileCount });
  else if (phase === 'done' && job) {
    const verdict = t(`verdict.label.${job.verdict}`);
    const parts = [t(cancelled ? 'announce.partialVerdict' : 'announce.verdict', { verdict })];
    if (job.failure) parts.push(t(`stage.headline.${job.failure.stage}`));
    if (job.failure?.lateNodes.length)
      parts.push(t('announce.late', { nodes: listText(t.lang, byLag(job, job.failure.lateNodes)) }));
    message = parts.join(' ');
  } else if (phase === 'done') message = t('announce.nothing');

  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
