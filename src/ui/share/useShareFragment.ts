import { useEffect } from 'react';
import { readSaved, readViewFragment, useAppStore } from '../../state/index';
import { isShareFragment, useShareStore } from '../../state/share';

/**
 * Opens a `#share=…` link when the page loads and whenever the fragment changes; without one, the page opens
 * on the last diagnosis kept in this browser (at the node and the zoom the address bar names).
 */
export function useShareFragment(): void {
  useEffect(() => {
    const read = () => {
      const share = useShareStore.getState();
      if (isShareFragment(location.hash)) share.openLink(location.href);
      else if (share.snapshot && share.origin === 'link') share.leave();
      else if (share.error) share.leave();
    };
    read();
    if (!isShareFragment(location.hash) && useAppStore.getState().phase === 'idle') {
      const saved = readSaved();
      if (saved) {
        const { node, zoom } = readViewFragment(location.hash);
        useShareStore.getState().openSaved(saved.link, { node, zoom });
      }
    }
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
}
