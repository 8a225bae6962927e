interface Props {
  onActivate(): void;
  compact?: boolean;
}

/** The visible target; the whole page also accepts drops (see useWindowDrop). */
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
        {compact ? 'Drop other logs to start over' : 'Drop the per-node logs or their folders here'}
      </span>
      <span className="drop-zone__hint">or press to choose files</span>
    </button>
  );
}

export function DropOverlay() {
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-overlay__card">Release to analyse these files</div>
    </div>
  );
}
