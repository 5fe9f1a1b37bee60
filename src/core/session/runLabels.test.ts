import { describe, expect, it } from 'vitest';
import { cleanRunText, RUN_NAME_MAX, RUN_NOTE_MAX, safeRunText } from './runLabels';

describe('run names and notes', () => {
  it('accepts ordinary text, with line breaks in notes only', () => {
    expect(safeRunText('baseline: exact match', 'name')).toBe(true);
    expect(safeRunText('line one\nline two\twith a tab', 'note')).toBe(true);
    expect(safeRunText('two\nlines', 'name')).toBe(false);
    // The same answer every time (a /g pattern's test() would remember where it last matched).
    expect([1, 2, 3].map(() => safeRunText('a\u0000b', 'name'))).toEqual([false, false, false]);
  });

  it('refuses control and bidi-override characters', () => {
    expect(safeRunText('a\u0000b', 'note')).toBe(false);
    expect(safeRunText('a\u0085b', 'note')).toBe(false);
    expect(safeRunText('evil\u202Etxt.exe', 'name')).toBe(false);
    expect(safeRunText('\u2067isolate', 'note')).toBe(false);
  });

  it('cleans typed text: drops what is unsafe, joins a name onto one line, cuts to the limit', () => {
    expect(cleanRunText('fix\r\nthe\tparser\u202E', 'name')).toBe('fix the parser');
    expect(cleanRunText('a\r\nb\rc\u0007', 'note')).toBe('a\nb\nc');
    expect(cleanRunText('y'.repeat(100), 'name')).toHaveLength(RUN_NAME_MAX);
    expect(cleanRunText('z'.repeat(RUN_NOTE_MAX + 5), 'note')).toHaveLength(RUN_NOTE_MAX);
    // A cleaned text is always safe.
    expect(safeRunText(cleanRunText('\u2066z\u0001'.repeat(1500), 'note'), 'note')).toBe(true);
  });
});
