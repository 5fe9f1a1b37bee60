import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

const STEP = 16;

/**
 * A window splitter (WAI-ARIA "separator" pattern): drag it with the mouse, or focus it and use the arrow keys
 * (Shift: larger steps), Home / End for the smallest / largest size, Enter to hide or show the pane it sizes.
 * `value` is the pane's size in pixels; `vertical` splitters sit between columns and move left and right.
 */
export function Splitter({
  label,
  vertical,
  value,
  min,
  max,
  collapsed,
  onChange,
  onToggle,
}: {
  label: string;
  vertical: boolean;
  value: number;
  min: number;
  max: number;
  collapsed: boolean;
  onChange(size: number): void;
  onToggle(): void;
}) {
  const drag = useRef<{ start: number; from: number } | null>(null);
  const clamp = (v: number) => Math.round(Math.max(min, Math.min(max, v)));
  const pos = (e: PointerEvent) => (vertical ? e.clientX : e.clientY);

  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? STEP * 4 : STEP;
    const grow = vertical ? 'ArrowRight' : 'ArrowDown';
    const shrink = vertical ? 'ArrowLeft' : 'ArrowUp';
    let next: number | null = null;
    if (e.key === grow) next = value + step;
    else if (e.key === shrink) next = value - step;
    else if (e.key === 'Home') next = min;
    else if (e.key === 'End') next = max;
    else if (e.key === 'Enter') {
      e.preventDefault();
      onToggle();
      return;
    }
    if (next === null) return;
    e.preventDefault();
    onChange(clamp(next));
  };

  return (
    <div
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      aria-valuenow={collapsed ? min : value}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={collapsed ? 'hidden' : `${value} pixels`}
      title={`${label}: drag or use the arrow keys; Enter or double-click hides or shows`}
      className={`splitter ${vertical ? 'splitter-v' : 'splitter-h'}${collapsed ? ' collapsed' : ''}`}
      onKeyDown={onKeyDown}
      onDoubleClick={onToggle}
      onPointerDown={(e) => {
        if (e.button !== 0 || collapsed) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { start: pos(e), from: value };
      }}
      onPointerMove={(e) => {
        if (drag.current) onChange(clamp(drag.current.from + pos(e) - drag.current.start));
      }}
      onPointerUp={(e) => {
        drag.current = null;
        e.currentTarget.releasePointerCapture(e.pointerId);
      }}
    />
  );
}
