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
  // The row a key moved the focus to, until it has rendered and taken the focus (null: none pending).
  const pending = useRef<number | null>(null);
  // The Tab stop must be a rendered row, or the scrolled body has nothing to focus (axe: scrollable-region-focusable).
  const tabStop = rendered ? Math.min(Math.max(active, rendered[0]), rendered[1]) : -1;

  // After a key moved the focus, the target row may render only once the virtualizer has scrolled: try each render.
  useEffect(() => {
    if (pending.current === null) return;
    if (pending.current >= count) pending.current = null; // the rows changed under it: nothing to move to
    if (pending.current === null) return;
    const row = container.current?.querySelector<HTMLElement>(`[data-pos="${pending.current}"]`);
    if (row) {
      pending.current = null;
      row.focus();
    }
  });

  const onKeyDown = (e: KeyboardEvent, pos: number) => {
    // A key pressed before the moved-to row has rendered acts on that row, not on the one still holding the focus.
    const from = pending.current ?? pos;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(from);
      return;
    }
    const to: Record<string, number> = { ArrowDown: from + 1, ArrowUp: from - 1, PageDown: from + PAGE, PageUp: from - PAGE, Home: 0, End: count - 1 };
    if (!(e.key in to) || count === 0) return;
    e.preventDefault();
    const next = Math.min(Math.max(to[e.key], 0), count - 1);
    setActive(next);
    pending.current = next;
    scrollTo(next);
  };

  return (pos: number) => ({
    tabIndex: pos === tabStop ? 0 : -1,
    'data-pos': pos,
    onKeyDown: (e: KeyboardEvent) => onKeyDown(e, pos),
    onFocus: () => {
      if (pending.current === null) setActive(pos);
    },
  });
}
