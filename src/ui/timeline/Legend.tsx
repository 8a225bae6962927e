import { PHASE_NAMES, type PhaseKind, type TimelineModel } from '../../core/timeline';
import { MARKER_WORDS } from './tips';

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

export function Legend({ model }: { model: TimelineModel }) {
  const phases = new Set<PhaseKind>();
  const markers = new Set<string>();
  let estimated = false;
  for (const r of model.rows) {
    if (!r.placed) continue;
    for (const p of [...r.phases, ...r.lanes.flatMap((l) => l.phases)]) {
      phases.add(p.kind);
      estimated ||= p.endTiming !== 'line';
    }
    for (const m of [...r.markers, ...r.lanes.flatMap((l) => l.markers)]) markers.add(m.kind);
  }
  const lines = new Set(model.thresholds.map((t) => t.kind));
  const perNode = model.thresholds.some((t) => t.anchor === 'node' && t.perNode.length > 0);
  if (phases.size === 0 && markers.size === 0) return null;
  return (
    <ul className="tl__legend" aria-label="Legend">
      {PHASE_ORDER.filter((k) => phases.has(k)).map((k) => (
        <li key={k}>
          <span className={`tl-swatch tl-bar--${k}`} aria-hidden="true" />
          {PHASE_NAMES[k]}
        </li>
      ))}
      {(['failure', 'error', 'launch', 'exit', 'ready'] as const)
        .filter((k) => markers.has(k))
        .map((k) => (
          <li key={k}>
            <span className={`tl-legend-marker tl-marker--${k}`} aria-hidden="true">
              <span className="tl-marker__shape" />
            </span>
            {MARKER_WORDS[k]}
          </li>
        ))}
      {estimated && (
        <li>
          <span className="tl-swatch tl-swatch--est" aria-hidden="true" />
          Estimated end (line without a time)
        </li>
      )}
      {lines.has('limit') && (
        <li>
          <span className="tl-legend-line tl-line--limit" aria-hidden="true" />
          Limit in force
        </li>
      )}
      {lines.has('recommended') && (
        <li>
          <span className="tl-legend-line tl-line--recommended" aria-hidden="true" />
          Recommended
        </li>
      )}
      {lines.has('reference') && (
        <li>
          <span className="tl-legend-line tl-line--reference" aria-hidden="true" />
          300 / 900 / 1800 s marks
        </li>
      )}
      {perNode && (
        <li>
          <span className="tl-legend-tick" aria-hidden="true" />
          Per-node limit (from that node&rsquo;s own clock start)
        </li>
      )}
    </ul>
  );
}
