import type { KeyboardEvent } from 'react';
import type { BarShapeProps } from 'recharts';

/**
 * A Bar `shape` whose bars are buttons: each has a name (what it holds), is in the Tab order, and Enter or Space
 * chooses it as a click does. Empty bars draw nothing, so the keyboard never lands on something invisible.
 */
export function choosableBar(nameOf: (index: number) => string, choose: (index: number) => void) {
  return function ChoosableBar(p: BarShapeProps) {
    const { x, y, width, height, fill, fillOpacity, index } = p;
    if (!(Number(height) > 0) || !(Number(width) > 0)) return null;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      choose(index);
    };
    return (
      <rect
        x={x}
        y={y}
        width={width}
        height={height}
        fill={fill}
        fillOpacity={fillOpacity}
        className="bar-choice"
        role="button"
        tabIndex={0}
        aria-label={nameOf(index)}
        onClick={() => choose(index)}
        onKeyDown={onKeyDown}
      />
    );
  };
}
