import { useAppStore } from '../state/index';
import { formatBytes, formatNumber, formatSeconds } from '../i18n/index';
import { percent } from './format';
import { useT, type T } from './i18n';

/** Time left, coarse: whole seconds, then minutes and seconds. */
function etaText(t: T, ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s < 120 ? t('unit.s', { n: String(s) }) : formatSeconds(t.lang, s);
}

export function ProgressPanel() {
  const t = useT();
  // The run's files only (files read in earlier runs are already in the job), as running totals the store keeps:
  // bytes of an archive as stored, not inflated.
  const { totalBytes, doneBytes, sized, filesDone, filesTotal, share, reading, etaMs } = useAppStore((s) => s.progress);
  const phase = useAppStore((s) => s.phase);
  const cancel = useAppStore((s) => s.cancel);
  const value = Math.min(100, Math.round(share * 100));
  const collecting = phase === 'collecting';
  const analysing = phase === 'analysing';

  return (
    <section className="card progress" aria-labelledby="progress-title" data-phase={phase}>
      <div className="progress__head">
        <h2 id="progress-title">
          {analysing
            ? t('progress.analysing', { n: formatNumber(t.lang, filesTotal, 0) })
            : t(collecting ? 'progress.listing' : 'progress.reading')}
        </h2>
        <button type="button" className="button" onClick={cancel} disabled={collecting || analysing}>
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
        aria-valuetext={etaMs !== null ? `${value}% · ${t('progress.eta', { time: etaText(t, etaMs) })}` : undefined}
        data-testid="progress"
      >
        <div className="progress__fill" style={{ transform: `scaleX(${collecting ? 0 : value / 100})` }} />
      </div>
      {!collecting && (
        <p className="progress__stats">
          {sized
            ? t('progress.stats', {
                done: filesDone,
                total: filesTotal,
                bytesDone: formatBytes(t.lang, doneBytes),
                bytesTotal: formatBytes(t.lang, totalBytes),
                pct: formatNumber(t.lang, value, 0),
              })
            : t('progress.statsUnsized', {
                done: filesDone,
                total: filesTotal,
                bytesDone: formatBytes(t.lang, doneBytes),
                pct: formatNumber(t.lang, value, 0),
              })}
          {etaMs !== null && !analysing && (
            <span className="progress__eta" data-testid="progress-eta">
              {' · '}
              {t('progress.eta', { time: etaText(t, etaMs) })}
            </span>
          )}
        </p>
      )}
      {reading.length > 0 && !analysing && (
        <ul className="progress__files">
          {reading.map((row) => (
            <li key={row.path}>
              <span className="mono ellipsis" title={row.path}>
                {row.path}
              </span>
              <span className="progress__file-pct">
                {row.bytes === null ? '…' : `${percent(row.bytesDone, row.bytes)}%`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
