import { useId } from 'react';
import { useModal } from '../useModal';
import { useT } from '../i18n';
import type { Key } from '../../i18n/index';

// The `?` sheet: every way to move around the timeline, keys and pointer gestures.

type SheetKey = Extract<Key, `keys.${string}`>;

const KEYS: [string[], SheetKey][] = [
  [['+', '−'], 'keys.zoom'],
  [['←', '→'], 'keys.pan'],
  [['0'], 'keys.fit'],
  [['z'], 'keys.zoomNode'],
  [['↑', '↓', 'Home', 'End'], 'keys.rows'],
  [['m'], 'keys.measure'],
  [['Esc'], 'keys.clear'],
  [['?'], 'keys.sheet'],
];

const GESTURES: SheetKey[] = [
  'keys.g.drag',
  'keys.g.wheel',
  'keys.g.pinch',
  'keys.g.shiftDrag',
  'keys.g.double',
  'keys.g.click',
  'keys.g.resize',
];

export function ShortcutsSheet({ onClose }: { onClose(): void }) {
  const t = useT();
  const titleId = useId();
  const {
    dialogRef: ref,
    onKeyDown,
    onCancel,
  } = useModal(onClose, (dialog) => dialog.querySelector<HTMLElement>('button')?.focus());
  return (
    <dialog
      ref={ref}
      className="modal keys-sheet"
      aria-labelledby={titleId}
      data-testid="timeline-shortcuts"
      onKeyDown={(e) => {
        // The timeline's own shortcuts stay off while the sheet is open.
        e.stopPropagation();
        onKeyDown(e);
      }}
      onCancel={onCancel}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
    >
      <div className="keys-sheet__body">
        <div className="keys-sheet__head">
          <h2 id={titleId}>{t('keys.title')}</h2>
          <button type="button" className="button button--small" onClick={onClose}>
            {t('dialog.close')}
          </button>
        </div>
        <table className="keys-sheet__table">
          <tbody>
            {KEYS.map(([keys, what]) => (
              <tr key={what}>
                <th scope="row">
                  {keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </th>
                <td>{t(what)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>{t('keys.gestures')}</h3>
        <ul className="keys-sheet__gestures">
          {GESTURES.map((g) => (
            <li key={g}>{t(g)}</li>
          ))}
        </ul>
      </div>
    </dialog>
  );
}
