import { useMemo } from 'react';
import { summariseProgress, useAppStore } from '../state/index';
import { formatBytes, formatNumber } from '../i18n/index';
import { percent } from './format';
import { useT } from './i18n';

export function ProgressPanel() {
  const t = useT();
  const allFiles = useAppStore((s) => s.files);
  const run = useAppStore((s) => s.run);
  const phase = useAppStore((s) => s.phase);
  const cancel = useAppStore((s) => s.cancel);
  // Files read in earlier runs are already in the job: the bar is for this run's files (bytes of an archive as
  // stored, not inflated).
  const files = useMemo(() => allFiles.filter((row) => row.run === run), [allFiles, run]);
  const { totalBytes, doneBytes, filesDone, filesTotal, reading } = summariseProgress(files);
  const value = percent(doneBytes, totalBytes);
  const collecting = phase === 'collecting';

  return (
    <section className="card progress" aria-labelledby="progress-title">
      <div className="progress__head">
        <h2 id="progress-title">{t(collecting ? 'progress.listing' : 'progress.reading')}</h2>
        <button type="button" className="button" onClick={cancel} disabled={collecting}>
          {t('progress.cancel')}
        </button>
      </div>
      <div
        className="progress__bar"
        role="progressbar"
        aria-label={t('progress.bar')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={collecting ? undefined : value}
        data-testid="progress"
      >
        <div className="progress__fill" style={{ width: `${collecting ? 0 : value}%` }} />
      </div>
      {!collecting && (
        <p className="progress__stats">
          {t('progress.stats', {
            done: filesDone,
            total: filesTotal,
            bytesDone: formatBytes(t.lang, doneBytes),
            bytesTotal: formatBytes(t.lang, totalBytes),
            pct: formatNumber(t.lang, value, 0),
          })}
        </p>
      )}
      {reading.length > 0 && (
        <ul className="progress__files">
          {reading.map((row) => (
            <li key={row.path}>
              <span className="mono ellipsis" title={row.path}>
                {row.path}
              </span>
              <span className="progress__file-pct">{percent(row.bytesDone, row.bytes)}%</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
