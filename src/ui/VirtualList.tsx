import { useRef, type ReactNode } from 'react';
import { useVirtualList } from './useVirtualList';
import './views.css';

// A long list of one-line items (the files of a problem group, every late node), windowed: a few dozen items are
// in the page whatever its length.

interface Props<T> {
  items: readonly T[];
  /** One item's height in px (the items are held to it). */
  rowHeight: number;
  /** Height of the scroll box when the items need more. */
  maxHeight: number;
  render(item: T, index: number): ReactNode;
  keyOf(item: T, index: number): string;
  label: string;
  className?: string;
  testId?: string;
}

export function VirtualList<T>({ items, rowHeight, maxHeight, render, keyOf, label, className, testId }: Props<T>) {
  const box = useRef<HTMLDivElement>(null);
  const win = useVirtualList(items.length, rowHeight, box);
  const shown = items.slice(win.first, win.last + 1);
  return (
    <div
      ref={box}
      className={`vlist${className ? ` ${className}` : ''}`}
      style={{ maxHeight, overflowY: 'auto' }}
      data-testid={testId}
      tabIndex={0}
      aria-label={label}
      role="region"
    >
      <ul className="vlist__items" style={{ height: win.total }}>
        {shown.map((item, k) => {
          const index = win.first + k;
          return (
            <li
              key={keyOf(item, index)}
              className="vlist__item"
              style={{ top: win.before + k * rowHeight, height: rowHeight }}
              aria-posinset={index + 1}
              aria-setsize={items.length}
            >
              {render(item, index)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
