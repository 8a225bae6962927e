import type { PhaseKind, TimelineModel } from '../../core/timeline';
import { useMemo } from 'react';
import { useT } from '../i18n';
import { WAITING } from './labels';

// What the colours and shapes mean: only the phases, markers and line kinds this job shows.

const PHASE_ORDER: PhaseKind[] = [
  'pre-launch',
  'rendezvous',
  'rank-assignment',
  'workers-starting',
  'running',
  'workers',
  'finishing',
];

export function Legend({ model, fired, attempts }: { model: TimelineModel; fired: boolean; attempts: boolean }) {
  const t = useT();
  // Over every row and lane: once per model, not on every pan and zoom.
  const { phases, markers, estimated, open, lines, perNode } = useMemo(() => legendOf(model), [model]);
  if (phases.size === 0 && markers.size === 0) return null;
  return (
    <ul className="tl__legend" aria-label={t('timeline.legend')}>
      {PHASE_ORDER.filter((k) => phases.has(k)).map((k) => (
        <li key={k}>
          <span className={`tl-swatch tl-bar--${k}`} aria-hidden="true" />
          {t(`phase.${k}`)}
        </li>
      ))}
      {(['failure', 'error', 'restart', 'launch', 'exit', 'ready'] as const)
        .filter((k) => markers.has(k))
        .map((k) => (
          <li key={k}>
            <span className={`tl-legend-marker tl-marker--${k}`} aria-hidden="true">
              <span className="tl-marker__shape" />
            </span>
            {t(`marker.${k}`)}
          </li>
        ))}
      {attempts && (
        <li>
          <span className="tl-legend-attempts" aria-hidden="true">
            <span className="tl-legend-attempts__seg is-ended" />
            <span className="tl-legend-attempts__seg is-odd" />
          </span>
          {t('legend.attempts')}
        </li>
      )}
      {estimated && (
        <li>
          <span className="tl-swatch tl-swatch--est" aria-hidden="true" />
          {t('legend.estimated')}
        </li>
      )}
      {open && (
        <li>
          <span className="tl-swatch tl-open" aria-hidden="true" />
          {t('legend.open')}
        </li>
      )}
      {lines.has('limit') && (
        <li>
          <span className="tl-legend-line tl-line--limit" aria-hidden="true" />
          {t('legend.limit')}
        </li>
      )}
      {fired && (
        <li>
          <span className="tl-legend-line tl-line--limit is-fired" aria-hidden="true" />
          {t('legend.fired')}
        </li>
      )}
      {lines.has('recommended') && (
        <li>
          <span className="tl-legend-line tl-line--recommended" aria-hidden="true" />
          {t('legend.recommended')}
        </li>
      )}
      {lines.has('reference') && (
        <li>
          <span className="tl-legend-line tl-line--reference" aria-hidden="true" />
          {t('legend.reference')}
        </li>
      )}
      {perNode && (
        <li>
          <span className="tl-legend-tick" aria-hidden="true" />
          {t('legend.perNode')}
        </li>
      )}
    </ul>
  );
}

function legendOf(model: TimelineModel) {
  const phases = new Set<PhaseKind>();
  const markers = new Set<string>();
  let estimated = false;
  let open = false;
  for (const r of model.rows) {
    if (!r.placed) continue;
    for (const p of [...r.phases, ...r.lanes.flatMap((l) => l.phases)]) {
      phases.add(p.kind);
      estimated ||= p.endTiming !== 'line';
    }
    for (const m of [...r.markers, ...r.lanes.flatMap((l) => l.markers)]) markers.add(m.kind);
    const last = r.phases.at(-1);
    if (
      last &&
      last.end === 'log-end' &&
      WAITING.has(last.kind) &&
      model.endMs !== null &&
      model.endMs - last.endMs > 1
    )
      open = true;
  }
  const lines = new Set(model.thresholds.map((t) => t.kind));
  const perNode = model.thresholds.some((t) => t.anchor === 'node' && t.perNode.length > 0);
  return { phases, markers, estimated, open, lines, perNode };
}
