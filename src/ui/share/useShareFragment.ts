import { useEffect } from 'react';
import { isShareFragment, useShareStore } from '../../state/share';

/** Opens a `#share=…` link when the page loads and whenever the fragment changes. */
export function useShareFragment(): void {
  useEffect(() => {
    const read = () => {
      const share = useShareStore.getState();
      if (isShareFragment(location.hash)) share.openLink(location.href);
      else if (share.snapshot || share.error) share.leave();
    };
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
}
