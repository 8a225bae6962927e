import { useAppStore } from '../state/index';
import { useT } from './i18n';
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
  const t = useT();
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
      <span className="drop-zone__title">{t(compact ? 'drop.moreTitle' : 'drop.title')}</span>
      <span className="drop-zone__hint">{t(compact ? 'drop.moreHint' : 'drop.hint')}</span>
    </button>
  );
}

export function DropOverlay() {
  const t = useT();
  const adding = useAppStore((s) => s.phase !== 'idle');
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-overlay__card">{t(adding ? 'drop.releaseAdd' : 'drop.release')}</div>
    </div>
  );
}
