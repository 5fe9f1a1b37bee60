import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

const PAGE = 10;

/**
 * Keyboard for a virtualized table: one rendered row is in the Tab order (roving tabindex), arrows, Page Up/Down,
 * Home and End move the focus, Enter or Space opens the focused row. Positions are indexes into the shown rows.
 */
export function useRowKeys({
  count,
  rendered,
  container,
  scrollTo,
  open,
}: {
  count: number;
  /** First and last position the virtualizer has rendered. */
  rendered: [number, number] | null;
  container: RefObject<HTMLElement | null>;
  scrollTo(pos: number): void;
  open(pos: number): void;
}) {
  const [active, setActive] = useState(0);
  const wantFocus = useRef(false);
  // The Tab stop must be a rendered row, or the scrolled body has nothing to focus (axe: scrollable-region-focusable).
  const tabStop = rendered ? Math.min(Math.max(active, rendered[0]), rendered[1]) : -1;

  // After a key moved the focus, the target row may render only once the virtualizer has scrolled: try each render.
  useEffect(() => {
    if (!wantFocus.current) return;
    const row = container.current?.querySelector<HTMLElement>(`[data-pos="${active}"]`);
    if (row) {
      wantFocus.current = false;
      row.focus();
    }
  });

  const onKeyDown = (e: KeyboardEvent, pos: number) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(pos);
      return;
    }
    const to: Record<string, number> = { ArrowDown: pos + 1, ArrowUp: pos - 1, PageDown: pos + PAGE, PageUp: pos - PAGE, Home: 0, End: count - 1 };
    if (!(e.key in to) || count === 0) return;
    e.preventDefault();
    const next = Math.min(Math.max(to[e.key], 0), count - 1);
    setActive(next);
    wantFocus.current = true;
    scrollTo(next);
  };

  return (pos: number) => ({
    tabIndex: pos === tabStop ? 0 : -1,
    'data-pos': pos,
    onKeyDown: (e: KeyboardEvent) => onKeyDown(e, pos),
    onFocus: () => setActive(pos),
  });
}
