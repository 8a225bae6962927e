import { useId, useMemo, useState } from 'react';
import type { Diagnosis } from '../core/findings';
import type { JobModel } from '../core/model';
import { recommendedTimeout, whatIf } from '../core/advice';
import { limitsInForce, rendezvousLimit } from '../core/thresholds';
import { formatDuration } from './timeline/scale';
import './timeline/timeline.css';

// What if the rendezvous limit had been T? Would every node have made it, and with how much to spare — and,
// on torch ≤ 2.3 with the static backend, does the 300 s rank-assignment wait stop the job whatever T is?

interface Props {
  job: JobModel;
  diagnosis: Diagnosis | null;
}

const MIN_T = 60;
const MAX_T = 7200;
const SHOWN_NODES = 5;

const clamp = (t: number) => Math.min(MAX_T, Math.max(MIN_T, Math.round(t)));

export function WhatIfSlider({ job, diagnosis }: Props) {
  const limits = useMemo(() => diagnosis?.thresholds ?? limitsInForce(job), [job, diagnosis]);
  const recommended = diagnosis?.recommendedTimeout ?? recommendedTimeout(job.skewSeconds);
  const [state, setState] = useState({ job, t: clamp(recommended), text: String(clamp(recommended)) });
  // A new job (or new corrections) starts again from its recommendation.
  if (state.job !== job) setState({ job, t: clamp(recommended), text: String(clamp(recommended)) });
  const t = state.t;
  const id = useId();

  const backend = job.job.backend ?? 'static';
  const dynamic = backend === 'c10d' || backend === 'etcd-v2';
  const key = dynamic ? 'join_timeout' : 'timeout';
  const current = rendezvousLimit(limits);
  const result = useMemo(() => whatIf(job, limits, t), [job, limits, t]);
  const unplaced = job.nodes.filter((n) => n.lagSeconds === null);

  const set = (v: number) => setState({ job, t: clamp(v), text: String(clamp(v)) });

  return (
    <section className="card whatif" aria-labelledby={`${id}-title`} data-testid="what-if-slider">
      <h2 id={`${id}-title`}>What if the rendezvous limit were longer?</h2>
      <p className="whatif__lead muted">
        Move the limit to see whether every node would have made it. It is <code>--rdzv_conf {key}=…</code> on the{' '}
        {backend} backend
        {current ? (
          <>
            ; this job ran with <strong>{current.seconds} s</strong> (
            {current.from === 'logs' ? 'set in its launch configuration' : 'the default'})
          </>
        ) : null}
        .
      </p>

      <div className="whatif__controls">
        <label htmlFor={`${id}-range`} className="whatif__label">
          {key}
        </label>
        <input
          id={`${id}-range`}
          className="whatif__range"
          type="range"
          min={MIN_T}
          max={MAX_T}
          step={10}
          value={t}
          list={`${id}-marks`}
          aria-valuetext={`${t} seconds (${formatDuration(t)})`}
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
            aria-label={`${key} in seconds`}
            onChange={(e) => {
              const n = Number(e.target.value);
              setState({
                job,
                t: e.target.value !== '' && Number.isFinite(n) ? clamp(n) : t,
                text: e.target.value,
              });
            }}
            onBlur={() => setState((s) => ({ ...s, text: String(s.t) }))}
            data-testid="what-if-number"
          />
          <span className="muted">s</span>
        </span>
        <span className="whatif__presets">
          {current && current.seconds >= MIN_T && current.seconds <= MAX_T && (
            <button type="button" className="button button--small" onClick={() => set(current.seconds)}>
              As run ({current.seconds} s)
            </button>
          )}
          <button type="button" className="button button--small" onClick={() => set(recommended)}>
            Recommended ({recommended} s)
          </button>
        </span>
      </div>

      {result === null ? (
        <p className="whatif__verdict whatif__verdict--unknown" data-testid="what-if-verdict" aria-live="polite">
          {job.skewSeconds === null
            ? 'This cannot be answered: no launch time could be placed, so the skew is unknown.'
            : `This cannot be answered: ${unplaced
                .map((n) => n.id)
                .slice(0, 4)
                .join(
                  ', ',
                )}${unplaced.length > 4 ? ` and ${unplaced.length - 4} more` : ''} ${unplaced.length === 1 ? 'has' : 'have'} no launch time, and an unplaced node may be the late one.`}
        </p>
      ) : (
        <>
          <p
            className={`whatif__verdict whatif__verdict--${result.allMadeIt ? 'ok' : 'bad'}`}
            data-testid="what-if-verdict"
            aria-live="polite"
          >
            {result.blockedBy ? (
              <>
                Not with any limit: the {result.blockedBy.seconds} s rank-assignment wait of torch ≤ 2.3 (static
                backend) does not move with <code>{key}</code>, and the skew was {formatDuration(result.skewSeconds)}.
                Upgrade to torch ≥ 2.4, or start every node within {result.blockedBy.seconds} s of the first.
              </>
            ) : result.allMadeIt ? (
              <>
                With {key} = {t} s every node would have made it, with {formatDuration(result.spareSeconds)} to spare.
              </>
            ) : (
              <>
                With {key} = {t} s the last node would still be {formatDuration(-result.spareSeconds)} late.
              </>
            )}
          </p>
          <table className="whatif__nodes" data-testid="what-if-nodes">
            <caption className="visually-hidden">The latest nodes against the limit</caption>
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col" className="num">
                  Launched after the first
                </th>
                <th scope="col">Against {result.blockedBy ? `the ${result.blockedBy.seconds} s wait` : `${t} s`}</th>
              </tr>
            </thead>
            <tbody>
              {[...result.perNode]
                .sort((a, b) => b.lagSeconds - a.lagSeconds)
                .slice(0, SHOWN_NODES)
                .map((p) => {
                  const cap = result.blockedBy ? Math.min(t, result.blockedBy.seconds) : t;
                  const pct = Math.min(100, (p.lagSeconds / Math.max(cap, p.lagSeconds, 1)) * 100);
                  return (
                    <tr key={p.node} className={p.madeIt ? '' : 'is-late'} data-node={p.node}>
                      <th scope="row">{p.node}</th>
                      <td className="num">{formatDuration(p.lagSeconds)}</td>
                      <td>
                        <span className="whatif__meter" aria-hidden="true">
                          <span className="whatif__fill" style={{ width: `${pct}%` }} />
                        </span>
                        <span className="whatif__spare">
                          {p.madeIt
                            ? `✓ ${formatDuration(p.spareSeconds)} to spare`
                            : `✗ ${formatDuration(-p.spareSeconds)} too late`}
                        </span>
                      </td>
                    </tr>
                  );
                })}
            </tbody>
          </table>
          {result.perNode.length > SHOWN_NODES && (
            <p className="muted whatif__more">
              The {SHOWN_NODES} latest of {result.perNode.length} nodes;{' '}
              {result.perNode.filter((p) => !p.madeIt).length || 'none'} would miss it.
            </p>
          )}
        </>
      )}
    </section>
  );
}
