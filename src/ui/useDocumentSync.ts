import { useEffect } from 'react';
import { LANG_TAG, t } from '../i18n/index';
import { isShareFragment, useAppStore, usePrefsStore, useViewStore, viewFragment } from '../state/index';
import { useShareStore } from '../state/share';

// What the page says outside React's tree: <html lang>, the title, the resolved theme (data-theme), and the
// analysed view's state in the address bar (replaced, not pushed: Back leaves the page as before).

const DARK = '(prefers-color-scheme: dark)';

export function useDocumentSync(): void {
  const lang = useAppStore((s) => s.lang);
  const phase = useAppStore((s) => s.phase);
  const theme = usePrefsStore((s) => s.theme);
  const selected = useViewStore((s) => s.selectedNode);
  const zoom = useViewStore((s) => s.zoom);
  const shared = useShareStore((s) => s.snapshot !== null);

  useEffect(() => {
    const root = document.documentElement;
    root.lang = LANG_TAG[lang];
    document.title = t(lang, 'app.documentTitle');
    document.querySelector('meta[name="description"]')?.setAttribute('content', t(lang, 'app.description'));
  }, [lang]);

  useEffect(() => {
    const root = document.documentElement;
    const media = typeof matchMedia === 'undefined' ? null : matchMedia(DARK);
    const apply = () => {
      root.dataset.theme = theme === 'system' ? (media?.matches ? 'dark' : 'light') : theme;
      root.dataset.themeChoice = theme;
    };
    apply();
    if (theme !== 'system' || !media) return;
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);

  useEffect(() => {
    if (isShareFragment(location.hash)) return;
    const analysed = phase === 'done' || shared;
    const next = viewFragment({ lang, node: analysed ? selected : null, zoom: analysed ? zoom : null });
    if (next === location.hash || (next === '' && location.hash === '')) return;
    history.replaceState(history.state, '', `${location.pathname}${location.search}${next}`);
  }, [lang, phase, selected, zoom, shared]);
}
