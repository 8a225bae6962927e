import { useSavedStore } from '../state/index';
import { useT } from './i18n';

/** Says that the diagnosis on screen is kept for a reload (not the logs), with the control that forgets it. */
export function KeptNote() {
  const t = useT();
  const keeping = useSavedStore((s) => s.keeping);
  const failed = useSavedStore((s) => s.failed);
  const forget = useSavedStore((s) => s.forget);
  return (
    <p className="kept muted" data-testid="kept-note" data-kept={keeping && !failed}>
      {keeping && !failed ? (
        <>
          {t('kept.on')}{' '}
          <button type="button" className="button button--link" onClick={forget} data-testid="forget-diagnosis">
            {t('kept.forget')}
          </button>
        </>
      ) : (
        t(failed ? 'kept.failed' : 'kept.off')
      )}
    </p>
  );
}
