import { useAppStore } from '../state/index';
import './ingest.css';

interface Props {
  onActivate(): void;
  compact?: boolean;
}

/**
 * The visible target; the whole page also accepts drops (see useWindowDrop). Under a result (compact), what is
 * dropped or chosen is added to the job on screen; "Start over" clears it.
 */
export function DropZone({ onActivate, compact = false }: Props) {
  return (
    <button
      type="button"
      className={compact ? 'drop-zone drop-zone--compact' : 'drop-zone'}
      data-testid="drop-zone"
      onClick={onActivate}
    >
      <svg className="drop-zone__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 3v12m0 0-4.5-4.5M12 15l4.5-4.5M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
      </svg>
      <span className="drop-zone__title">
        {compact ? 'Drop more logs to add them to this job' : 'Drop the per-node logs, their folders or archives here'}
      </span>
      <span className="drop-zone__hint">
        {compact
          ? 'or press to choose files · a file with the same name replaces the earlier one'
          : 'or press to choose files · .log, .gz, .zip, .tar and .tar.gz are read as they are'}
      </span>
    </button>
  );
}

export function DropOverlay() {
  const adding = useAppStore((s) => s.phase !== 'idle');
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-overlay__card">
        {adding ? 'Release to add these files to the job' : 'Release to analyse these files'}
      </div>
    </div>
  );
}
