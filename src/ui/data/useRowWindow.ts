import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/** A drawn row: its position in the view and its top, in pixels. */
export interface WindowRow {
  index: number;
  start: number;
}

/**
 * The rows of one fixed height that a scrolled element shows, plus `overscan` on each side, from its scroll position
 * and height alone. (TanStack Virtual, used before, measured every row: at a million rows that was a million objects
 * made again at each new view of the rows, ~30 ms of the page's thread plus their garbage collection; bench/README,
 * session 28.)
 */
export function useRowWindow(count: number, scroller: RefObject<HTMLElement | null>, rowHeight: number, overscan: number) {
  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const read = () => setViewport((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
    read();
    el.addEventListener('scroll', read, { passive: true });
    const resized = new ResizeObserver(read);
    resized.observe(el);
    return () => {
      el.removeEventListener('scroll', read);
      resized.disconnect();
    };
  }, [scroller]);
  const first = Math.max(0, Math.floor(viewport.top / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((viewport.top + viewport.height) / rowHeight) + overscan);
  const items: WindowRow[] = [];
  for (let i = first; i <= last; i++) items.push({ index: i, start: i * rowHeight });
  /** Scroll the least that shows row `index` whole. */
  const scrollToIndex = useCallback(
    (index: number) => {
      const el = scroller.current;
      if (!el) return;
      const top = index * rowHeight;
      if (top < el.scrollTop) el.scrollTo({ top });
      else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTo({ top: top + rowHeight - el.clientHeight });
    },
    [scroller, rowHeight],
  );
  return { items, totalSize: count * rowHeight, scrollToIndex };
}
