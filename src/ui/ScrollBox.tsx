// A box that scrolls sideways (a table wider than a phone) and says so: a shade at each edge it can still be
// scrolled towards, gone at the edge it has reached — as a phone's own lists and the best trace viewers do.
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

interface Edges {
  /** More to see towards the start (left) and the end (right). */
  start: boolean;
  end: boolean;
  /** Height of a horizontal scroll bar, px (the shades stop above it). */
  bar: number;
}

const NONE: Edges = { start: false, end: false, bar: 0 };

export function ScrollBox({
  className,
  boxRef,
  children,
}: {
  /** Classes of the scrolling element (its padding and limits). */
  className: string;
  /** The scrolling element, when its owner needs it (a windowed table). */
  boxRef?: RefObject<HTMLDivElement | null>;
  children: ReactNode;
}) {
  const own = useRef<HTMLDivElement>(null);
  const ref = boxRef ?? own;
  const [edges, setEdges] = useState<Edges>(NONE);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const left = Math.abs(el.scrollLeft);
      const max = el.scrollWidth - el.clientWidth;
      const next: Edges = {
        start: max > 1 && left > 1,
        end: max > 1 && max - left > 1,
        bar: Math.max(0, el.offsetHeight - el.clientHeight - el.clientTop * 2),
      };
      setEdges((prev) => (prev.start === next.start && prev.end === next.end && prev.bar === next.bar ? prev : next));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    ro?.observe(el);
    if (el.firstElementChild) ro?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', update);
      ro?.disconnect();
    };
  }, [ref]);

  return (
    <div className="scroll-shade" data-more-start={edges.start || undefined} data-more-end={edges.end || undefined}>
      <div ref={ref} className={className}>
        {children}
      </div>
      <span
        className="scroll-shade__edge scroll-shade__edge--start"
        style={{ bottom: edges.bar }}
        aria-hidden="true"
        data-testid="scroll-shade-start"
      />
      <span
        className="scroll-shade__edge scroll-shade__edge--end"
        style={{ bottom: edges.bar }}
        aria-hidden="true"
        data-testid="scroll-shade-end"
      />
    </div>
  );
}
