import { useAppStore } from '../state/index';
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

export function App() {
  const phase = useAppStore((s) => s.phase);
  const job = useAppStore((s) => s.job);
  const files = useAppStore((s) => s.files);
  const cancelled = useAppStore((s) => s.cancelled);
  const error = useAppStore((s) => s.error);
  const dropTransfer = useAppStore((s) => s.dropTransfer);
  const pickFiles = useAppStore((s) => s.pickFiles);
  const reset = useAppStore((s) => s.reset);
  const openExample = useAppStore((s) => s.openExample);
  const diagnosis = useAppStore((s) => s.diagnosis);
  const lang = useAppStore((s) => s.lang);
  const setLang = useAppStore((s) => s.setLang);
  const shared = useShareStore((s) => s.snapshot);
  const shareError = useShareStore((s) => s.error);
  const leaveShare = useShareStore((s) => s.leave);
  useShareFragment();

  const dragging = useWindowDrop(dropTransfer);
  const pickers = useFilePickers(pickFiles);
  const busy = phase === 'collecting' || phase === 'parsing';

  return (
    <div className="app">
      <header className="topbar">
        <button
          type="button"
          className="brand"
          onClick={() => {
            reset();
            leaveShare();
          }}
          aria-label="skewscope — start over"
        >
          <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect x="4" y="7" width="14" height="4" rx="2" />
            <rect x="4" y="14" width="16" height="4" rx="2" />
            <rect x="14" y="21" width="14" height="4" rx="2" className="brand__late" />
          </svg>
          <span className="brand__name">skewscope</span>
        </button>
        <div className="topbar__actions">
          <div className="lang-switch" role="group" aria-label="Language / 语言">
            <button
              type="button"
              className="button button--small"
              aria-pressed={lang === 'en'}
              onClick={() => setLang('en')}
            >
              EN
            </button>
            <button
              type="button"
              className="button button--small"
              aria-pressed={lang === 'zh'}
              onClick={() => setLang('zh')}
              lang="zh"
            >
              中文
            </button>
          </div>
          <button type="button" className="button" onClick={pickers.openFiles} disabled={busy}>
            Choose files
          </button>
          <button type="button" className="button" onClick={pickers.openFolder} disabled={busy}>
            Choose folder
          </button>
          <PasteButton disabled={busy} />
          {phase !== 'idle' && (
            <button type="button" className="button" onClick={reset} data-testid="start-over">
              Start over
            </button>
          )}
        </div>
        {pickers.inputs}
      </header>

      <main className="main">
        {error && (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        )}
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
        {phase === 'done' && (
          <>
            <Results job={job} diagnosis={diagnosis} lang={lang} files={files} cancelled={cancelled} />
            <DropZone onActivate={pickers.openFiles} compact />
          </>
        )}
      </main>

      <footer className="footer">Files are read in this browser tab. Nothing is uploaded.</footer>
      <Announcer />
      {dragging && <DropOverlay />}
    </div>
  );
}
