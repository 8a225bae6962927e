import { useLayoutEffect, useState, type RefObject } from 'react';

// Row virtualisation for fixed-height rows: only the rows inside the scroll viewport (plus a few either side)
// are rendered; a spacer keeps the scroll height of all of them.

export interface VirtualRange {
  first: number;
  last: number;
  totalHeight: number;
  /** Scroll so that row `index` is visible (nearest edge), and report whether it moved. */
  reveal(index: number): boolean;
}

export function useVirtualRows(
  count: number,
  rowHeight: number,
  viewport: RefObject<HTMLElement | null>,
  overscan = 6,
): VirtualRange {
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(480);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const onScroll = () => setScrollTop(el.scrollTop);
    const measure = () => {
      setHeight(el.clientHeight || 480);
      setScrollTop(el.scrollTop);
    };
    measure();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
    };
  }, [viewport]);

  // When the rows change (a filter), the browser clamps the scroll position without always telling us.
  const top = Math.max(0, Math.min(scrollTop, count * rowHeight - height));
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((top + height) / rowHeight) + overscan);

  const reveal = (index: number) => {
    const el = viewport.current;
    if (!el) return false;
    const top = index * rowHeight;
    const bottom = top + rowHeight;
    let next = el.scrollTop;
    if (top < el.scrollTop) next = top;
    else if (bottom > el.scrollTop + el.clientHeight) next = bottom - el.clientHeight;
    if (next === el.scrollTop) return false;
    el.scrollTo({ top: next });
    setScrollTop(next);
    return true;
  };

  return { first, last, totalHeight: count * rowHeight, reveal };
}
