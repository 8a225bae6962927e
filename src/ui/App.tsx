import { useAppStore, clearSaved } from '../state/index';
import { Announcer } from './Announcer';
import { DropOverlay, DropZone } from './DropZone';
import { EmptyState } from './EmptyState';
import { PasteButton } from './PasteDialog';
import { ProgressPanel } from './ProgressPanel';
import { Results } from './Results';
import { useFilePickers } from './useFilePickers';
import { useWindowDrop } from './useWindowDrop';
import { useShareStore } from '../state/share';
import { ShareLinkError } from './share/SharedBanner';
import { SharedView } from './share/SharedView';
import { useShareFragment } from './share/useShareFragment';
import { useDocumentSync } from './useDocumentSync';
import { Preferences } from './Preferences';
import { ErrorBanner } from './ErrorBanner';
import { MixedRunsDialog } from './MixedRunsDialog';
import { useT } from './i18n';

export function App() {
  const t = useT();
  const phase = useAppStore((s) => s.phase);
  const view = useAppStore((s) => s.view);
  const updating = useAppStore((s) => s.updating);
  const files = useAppStore((s) => s.files);
  const cancelled = useAppStore((s) => s.cancelled);
  const error = useAppStore((s) => s.error);
  const dropTransfer = useAppStore((s) => s.dropTransfer);
  const pickFiles = useAppStore((s) => s.pickFiles);
  const reset = useAppStore((s) => s.reset);
  const openExample = useAppStore((s) => s.openExample);
  const shared = useShareStore((s) => s.snapshot);
  const shareError = useShareStore((s) => s.error);
  const leaveShare = useShareStore((s) => s.leave);
  useShareFragment();
  useDocumentSync();

  const dragging = useWindowDrop(dropTransfer);
  const pickers = useFilePickers(pickFiles);
  const busy = phase === 'collecting' || phase === 'parsing' || phase === 'analysing';
  const startOver = () => {
    clearSaved();
    reset();
    leaveShare();
  };

  return (
    <div className="app">
      <header className="topbar">
        <button type="button" className="brand" onClick={startOver} aria-label={t('topbar.brandLabel')}>
          <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect x="4" y="7" width="14" height="4" rx="2" />
            <rect x="4" y="14" width="16" height="4" rx="2" />
            <rect x="14" y="21" width="14" height="4" rx="2" className="brand__late" />
          </svg>
          <span className="brand__name">skewscope</span>
        </button>
        <Preferences />
        <div className="topbar__actions" role="group" aria-label={t('topbar.actions')}>
          <button type="button" className="button" onClick={pickers.openFiles} disabled={busy}>
            {t('topbar.chooseFiles')}
          </button>
          <button type="button" className="button" onClick={pickers.openFolder} disabled={busy}>
            {t('topbar.chooseFolder')}
          </button>
          <PasteButton disabled={busy} />
          {(phase !== 'idle' || shared) && (
            <button type="button" className="button" onClick={startOver} data-testid="start-over">
              {t('topbar.startOver')}
            </button>
          )}
        </div>
        {pickers.inputs}
      </header>

      <main className="main">
        {error && <ErrorBanner error={error} />}
        {shareError && phase === 'idle' && <ShareLinkError error={shareError} onLeave={leaveShare} />}
        {shared && phase === 'idle' && (
          <>
            <SharedView snapshot={shared} />
            <DropZone onActivate={pickers.openFiles} />
          </>
        )}
        {phase === 'idle' && !shared && (
          <EmptyState dropZone={<DropZone onActivate={pickers.openFiles} />} onExample={openExample} />
        )}
        {busy && <ProgressPanel />}
        {/* While files are read, the job of those read so far: the verdict and a timeline before the end. One
            place in the tree for both, so the views drawn during the read are updated, not drawn again. */}
        {(phase === 'done' || (busy && view)) && (
          <Results view={view} files={files} cancelled={!busy && cancelled} updating={busy || updating} />
        )}
        {phase === 'done' && <DropZone onActivate={pickers.openFiles} compact />}
      </main>

      <footer className="footer">{t('app.footer')}</footer>
      <Announcer />
      <MixedRunsDialog />
      {dragging && <DropOverlay />}
    </div>
  );
}
