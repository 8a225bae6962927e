import { useLayoutEffect, useState, type RefObject } from 'react';

// Windowing for lists of fixed-height rows of which a few carry something taller under them (an opened node's
// details): only the rows in the scroll viewport, and a few either side, are rendered; spacers keep the height
// of the rest. Positions come from the row height and the few extra heights, so finding the rows on screen
// costs O(extras × log rows), not O(rows).

export interface VirtualWindow {
  first: number;
  /** Inclusive; -1 when there are no rows. */
  last: number;
  /** Heights of the space above the first rendered row and below the last. */
  before: number;
  after: number;
  total: number;
  /** Scrolls the viewport so that row `index` is in view (nearest edge). */
  reveal(index: number): void;
}

/**
 * `extras`: extra height (px) under row `index`, for the few rows that have any, sorted by index.
 */
export function useVirtualList(
  count: number,
  rowHeight: number,
  viewport: RefObject<HTMLElement | null>,
  extras: readonly { index: number; height: number }[] = [],
  overscan = 8,
  /** The viewport's height until it is measured (its CSS max-height: measuring then changes nothing). */
  initialHeight = 640,
): VirtualWindow {
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(initialHeight);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setScrollTop(el.scrollTop);
      });
    };
    const measure = () => {
      setHeight(el.clientHeight || initialHeight);
      setScrollTop(el.scrollTop);
    };
    measure();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    ro?.observe(el);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
    };
  }, [viewport, initialHeight]);

  /** Top of row `i`. */
  const topOf = (i: number) => {
    let y = i * rowHeight;
    for (const e of extras) {
      if (e.index >= i) break;
      y += e.height;
    }
    return y;
  };
  const extraTotal = extras.reduce((sum, e) => sum + (e.index < count ? e.height : 0), 0);
  const total = count * rowHeight + extraTotal;
  /** The row at height y (the last whose top is at or above it). */
  const rowAt = (y: number) => {
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (topOf(mid) <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  // The browser clamps the scroll position when the rows shrink (a filter) without always saying so.
  const top = Math.max(0, Math.min(scrollTop, total - height));
  const first = count === 0 ? 0 : Math.max(0, rowAt(top) - overscan);
  const last = count === 0 ? -1 : Math.min(count - 1, rowAt(top + height) + overscan);
  const before = count === 0 ? 0 : topOf(first);
  const after = count === 0 ? 0 : total - topOf(last + 1);

  const reveal = (index: number) => {
    const el = viewport.current;
    if (!el) return;
    const y = topOf(index);
    if (y < el.scrollTop) el.scrollTo({ top: y });
    else if (y + rowHeight > el.scrollTop + el.clientHeight) el.scrollTo({ top: y + rowHeight - el.clientHeight });
  };

  return { first, last, before, after, total, reveal };
}
