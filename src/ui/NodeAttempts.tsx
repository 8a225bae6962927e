// A restarted node's attempts in its details: for each (torchrun's restart_count) when it began and how long it
// lasted, whether its rendezvous completed, what ended it and how many attempts were left, with the lines that
// say so (each opens in the evidence viewer).
import { useId, useMemo } from 'react';
import type { EvidenceLine } from '../core/model';
import type { NodeView } from '../ingest/index';
import { formatDuration } from '../i18n/index';
import { useViewStore } from '../state/index';
import { attemptViews, type AttemptView } from './attempts';
import { Rich, useT, type T } from './i18n';
import { formatClock } from './timeline/scale';
import { attemptEndWords } from './timeline/tips';
import './attempts.css';

const msOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/** When it began and for how long: to the next attempt's start, or for the last one to the end of its log. */
function whenText(t: T, a: AttemptView, logEndMs: number | null): string {
  if (a.startMs === null) return t('attempts.noTime');
  const began = t('attempts.began', { clock: formatClock(a.startMs) });
  if (a.endMs !== null)
    return `${began} · ${t('attempts.lasted', { span: formatDuration(t.lang, (a.endMs - a.startMs) / 1000) })}`;
  // A last attempt whose timed lines end where it began (what follows is untimed) says nothing of how long it ran.
  if (a.last && logEndMs !== null && logEndMs - a.startMs >= 1)
    return `${began} · ${t('attempts.untilLogEnd', { span: formatDuration(t.lang, (logEndMs - a.startMs) / 1000) })}`;
  return began;
}

function Line({ label, line }: { label: string; line: EvidenceLine }) {
  const openEvidence = useViewStore((s) => s.openEvidence);
  return (
    <button
      type="button"
      className="node-clock__evidence node-attempt__line"
      data-testid="attempt-evidence"
      onClick={() => openEvidence({ file: line.file, line: line.line })}
    >
      <span className="node-attempt__line-head">
        <span className="node-attempt__line-label">{label}</span>
        <span className="mono muted">
          {line.file}:{line.line}
        </span>
      </span>
      <code>{line.text}</code>
    </button>
  );
}

export function NodeAttempts({ node }: { node: NodeView }) {
  const t = useT();
  const titleId = useId();
  const attempts = useMemo(() => attemptViews(node.attempts), [node.attempts]);
  if (attempts.length === 0) return null;
  const logEndMs = msOf(node.lastLine?.time);
  return (
    <section className="node-attempts" aria-labelledby={titleId} data-testid="attempts">
      <h3 id={titleId} className="node-detail__title">
        {t('attempts.title')}
      </h3>
      <p className="node-attempts__lead muted">
        <Rich text={t('attempts.lead', { n: attempts.at(-1)!.index })} />
      </p>
      <ol className="node-attempts__list" aria-label={t('attempts.list', { node: node.id })}>
        {attempts.map((a) => {
          const e = a.ended?.evidence;
          const failed = e && (e.file !== a.evidence.file || e.line !== a.evidence.line) ? e : null;
          return (
            <li
              key={a.index}
              className={`node-attempt${a.ended ? ' is-ended' : ''}${a.formedWorld ? '' : ' is-unformed'}${a.last ? ' is-last' : ''}`}
              data-testid="attempt"
              data-index={a.index}
            >
              {a.skippedBefore > 0 && (
                <p className="node-attempt__skipped muted">{t('attempts.skipped', { n: a.skippedBefore })}</p>
              )}
              <div className="node-attempt__head">
                <strong className="node-attempt__index">{t('attempts.index', { n: a.index })}</strong>
                <code className="node-attempt__rc">restart_count={a.index}</code>
                <span className="node-attempt__when muted">{whenText(t, a, logEndMs)}</span>
              </div>
              <dl className="node-attempt__facts">
                <div>
                  <dt>{t('attempts.fact.rdzv')}</dt>
                  <dd className={a.formedWorld ? 'is-ok' : 'is-bad'} data-testid="attempt-rdzv">
                    {t(a.formedWorld ? 'attempts.fact.rdzvYes' : 'attempts.fact.rdzvNo')}
                  </dd>
                </div>
                <div>
                  <dt>{t('attempts.fact.ended')}</dt>
                  <dd data-testid="attempt-ended">{attemptEndWords(t, a, node.failureStage)}</dd>
                </div>
              </dl>
              <div className="node-attempt__lines">
                {failed && <Line label={t('attempts.failureLine')} line={failed} />}
                <Line label={t(a.ended ? 'attempts.restartLine' : 'attempts.firstLine')} line={a.evidence} />
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
