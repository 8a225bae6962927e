import { useAppStore } from '../state/index';
import { listText } from './format';
import { STAGE_WORDS, VERDICT_LABEL } from './words';

/**
 * One always-mounted live region: screen readers announce reliably only changes to a region that
 * already existed, and byte-by-byte progress would be noise, so it speaks phases and the verdict.
 */
export function Announcer() {
  const phase = useAppStore((s) => s.phase);
  const fileCount = useAppStore((s) => s.files.length);
  const job = useAppStore((s) => s.job);
  const cancelled = useAppStore((s) => s.cancelled);
  const error = useAppStore((s) => s.error);

  let message = '';
  if (error) message = error;
  else if (phase === 'collecting') message = 'Listing the dropped files.';
  else if (phase === 'parsing') message = `Reading ${fileCount} ${fileCount === 1 ? 'file' : 'files'}.`;
  else if (phase === 'done' && job) {
    const parts = [`${cancelled ? 'Cancelled. Partial verdict' : 'Verdict'}: ${VERDICT_LABEL[job.verdict]}.`];
    if (job.failure) parts.push(`${STAGE_WORDS[job.failure.stage]}.`);
    if (job.failure?.lateNodes.length) parts.push(`Late: ${listText(job.failure.lateNodes)}.`);
    message = parts.join(' ');
  } else if (phase === 'done') message = 'No file was analysed.';

  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
