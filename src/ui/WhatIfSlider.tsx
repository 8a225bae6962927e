import { useId, useMemo, useState } from 'react';
import type { Diagnosis } from '../core/findings';
import type { JobModel } from '../core/model';
import { whatIf } from '../core/advice';
import { zhSpacing } from '../core/i18n';
import { missingNodesText } from './format';
import { rendezvousLimit } from '../core/thresholds';
import type { JobView } from '../ingest/index';
import { formatDuration, listSome } from '../i18n/index';
import { Rich, useT } from './i18n';
import { ScrollBox } from './ScrollBox';
import './timeline/timeline.css';

// What if the rendezvous limit had been T? Would every node have made it, and with how much to spare — and,
// on torch ≤ 2.3 with the static backend, does the 300 s rank-assignment wait stop the job whatever T is?

interface Props {
  job: JobView;
  diagnosis: Diagnosis;
}

/**
 * The view's job as the core's what-if takes it. It reads the nodes' ids, lags and store-host flags, the failure
 * and the skew (src/core/advice.ts), never events, which the view's nodes do not carry: they go in empty.
 */
function asModel(job: JobView): JobModel {
  return { ...job, nodes: job.nodes.map((n) => ({ ...n, events: [] })) };
}

const MIN_T = 60;
const MAX_T = 7200;
const SHOWN_NODES = 5;

const clamp = (t: number) => Math.min(MAX_T, Math.max(MIN_T, Math.round(t)));

/** The question needs the backend the logs name (its key) and at least one node with a launch time. */
export function hasWhatIf(job: JobView): boolean {
  return job.job.backend !== null && job.nodes.some((n) => n.lagSeconds !== null);
}

export function WhatIfSlider({ job, diagnosis }: Props) {
  const t = useT();
  const limits = diagnosis.thresholds;
  const recommended = diagnosis.recommendedTimeout;
  const model = useMemo(() => asModel(job), [job]);
  const [state, setState] = useState({ job, t: clamp(recommended), text: String(clamp(recommended)) });
  // A new job (or new corrections) starts again from its recommendation.
  if (state.job !== job) setState({ job, t: clamp(recommended), text: String(clamp(recommended)) });
  const value = state.t;
  const id = useId();

  const backend = job.job.backend ?? '';
  const dynamic = backend === 'c10d' || backend === 'etcd-v2';
  const key = dynamic ? 'join_timeout' : 'timeout';
  const current = rendezvousLimit(limits);
  const result = useMemo(() => whatIf(model, limits, value), [model, limits, value]);
  const unplaced = job.nodes.filter((n) => n.lagSeconds === null);

  const set = (v: number) => setState({ job, t: clamp(v), text: String(clamp(v)) });
  const secs = (n: number) => t('unit.s', { n: String(n) });

  return (
    <section className="card whatif" aria-labelledby={`${id}-title`} data-testid="what-if-slider">
      <h2 id={`${id}-title`}>{t('whatif.title')}</h2>
      <p className="whatif__lead muted">
        <Rich text={t('whatif.lead', { key, backend })} />
        {current && (
          <>
            {' '}
            <Rich
              text={t(current.from === 'logs' ? 'whatif.ranLogs' : 'whatif.ranDefault', {
                value: secs(current.seconds),
              })}
            />
          </>
        )}
      </p>

      <div className="whatif__controls">
        <label htmlFor={`${id}-range`} className="whatif__label mono">
          {key}
        </label>
        <input
          id={`${id}-range`}
          className="whatif__range"
          type="range"
          min={MIN_T}
          max={MAX_T}
          step={10}
          value={value}
          list={`${id}-marks`}
          aria-valuetext={t('whatif.valueText', { value: secs(value), span: formatDuration(t.lang, value) })}
          onChange={(e) => set(Number(e.target.value))}
          data-testid="what-if-range"
        />
        <datalist id={`${id}-marks`}>
          <option value={300} />
          <option value={900} />
          <option value={1800} />
          <option value={3600} />
        </datalist>
        <span className="whatif__number-wrap">
          <input
            className="whatif__number"
            type="number"
            min={MIN_T}
            max={MAX_T}
            step={1}
            value={state.text}
            aria-label={t('whatif.numberLabel', { key })}
            onChange={(e) => {
              const n = Number(e.target.value);
              setState({
                job,
                t: e.target.value !== '' && Number.isFinite(n) ? clamp(n) : value,
                text: e.target.value,
              });
            }}
            onBlur={() => setState((s) => ({ ...s, text: String(s.t) }))}
            data-testid="what-if-number"
          />
          <span className="muted">{t('whatif.unit')}</span>
        </span>
        <span className="whatif__presets">
          {current && current.seconds >= MIN_T && current.seconds <= MAX_T && (
            <button type="button" className="button button--small" onClick={() => set(current.seconds)}>
              {t('whatif.asRun', { value: secs(current.seconds) })}
            </button>
          )}
          <button type="button" className="button button--small" onClick={() => set(recommended)}>
            {t('whatif.recommended', { value: secs(recommended) })}
          </button>
        </span>
      </div>

      {result === null ? (
        <p className="whatif__verdict whatif__verdict--unknown" data-testid="what-if-verdict" aria-live="polite">
          {job.skewSeconds === null
            ? t('whatif.unknownSkew')
            : unplaced.length > 0
              ? t('whatif.unknownNodes', {
                  nodes: listSome(
                    t.lang,
                    unplaced.map((n) => n.id),
                    5,
                  ),
                })
              : job.missingNodes.length > 0
                ? zhSpacing(
                    t.lang,
                    t('whatif.unknownMissing', {
                      nodes: missingNodesText(t.lang, job, 5),
                    }),
                  )
                : t('whatif.unknownMissingCount', { n: job.missingCount })}
        </p>
      ) : (
        <>
          <p
            className={`whatif__verdict whatif__verdict--${result.allMadeIt ? 'ok' : 'bad'}`}
            data-testid="what-if-verdict"
            aria-live="polite"
          >
            <Rich
              text={
                result.blockedBy
                  ? t('whatif.blocked', {
                      limit: secs(result.blockedBy.seconds),
                      key,
                      skew: formatDuration(t.lang, result.skewSeconds),
                    })
                  : result.allMadeIt
                    ? t('whatif.ok', { key, value: secs(value), spare: formatDuration(t.lang, result.spareSeconds) })
                    : t('whatif.short', {
                        key,
                        value: secs(value),
                        short: formatDuration(t.lang, -result.spareSeconds),
                      })
              }
            />
          </p>
          <ScrollBox className="table-scroll">
            <table className="whatif__nodes" data-testid="what-if-nodes">
              <caption className="visually-hidden">{t('whatif.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('nodes.col.node')}</th>
                  <th scope="col" className="num">
                    {t('whatif.col.lag')}
                  </th>
                  <th scope="col">
                    {result.blockedBy
                      ? t('whatif.col.againstWait', { value: secs(result.blockedBy.seconds) })
                      : t('whatif.col.against', { value: secs(value) })}
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...result.perNode]
                  .sort((a, b) => b.lagSeconds - a.lagSeconds)
                  .slice(0, SHOWN_NODES)
                  .map((p) => {
                    const cap = result.blockedBy ? Math.min(value, result.blockedBy.seconds) : value;
                    const pct = Math.min(100, (p.lagSeconds / Math.max(cap, p.lagSeconds, 1)) * 100);
                    return (
                      <tr key={p.node} className={p.madeIt ? '' : 'is-late'} data-node={p.node}>
                        <th scope="row">{p.node}</th>
                        <td className="num">{formatDuration(t.lang, p.lagSeconds)}</td>
                        <td>
                          <span className="whatif__meter" aria-hidden="true">
                            <span className="whatif__fill" style={{ width: `${pct}%` }} />
                          </span>
                          <span className="whatif__spare">
                            {p.madeIt
                              ? t('whatif.spare', { span: formatDuration(t.lang, p.spareSeconds) })
                              : t('whatif.tooLate', { span: formatDuration(t.lang, -p.spareSeconds) })}
                          </span>
                        </td>
                      </tr>
                    );
                  })}
              </tbody>
            </table>
          </ScrollBox>
          {result.perNode.length > SHOWN_NODES && (
            <p className="muted whatif__more">
              {t('whatif.more', {
                shown: SHOWN_NODES,
                total: result.perNode.length,
                miss: result.perNode.filter((p) => !p.madeIt).length,
              })}
            </p>
          )}
        </>
      )}
    </section>
  );
}
