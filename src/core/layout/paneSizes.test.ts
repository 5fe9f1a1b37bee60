import { describe, expect, it } from 'vitest';
import { clampSize, defaultDiagHeight, defaultEditorWidth, parsePaneSizes } from './paneSizes';

describe('pane sizes', () => {
  it('clamps, and the minimum wins when the room is smaller', () => {
    expect(clampSize(50, 100, 300)).toBe(100);
    expect(clampSize(500, 100, 300)).toBe(300);
    expect(clampSize(200.4, 100, 300)).toBe(200);
    expect(clampSize(500, 100, 80)).toBe(100);
  });

  it('defaults: 47.5% of the width within 360–700, 55% of the height leaving 140 px to the table', () => {
    // 1412 px workspace (1440 viewport less 2 × 14 px padding): 0.475 × 1412 = 670.7.
    expect(defaultEditorWidth(1412)).toBe(671);
    expect(defaultEditorWidth(2000)).toBe(700);
    expect(defaultEditorWidth(700)).toBe(360);
    // 0.55 × 600 = 330; 0.55 × 250 = 137.5 → at least 160.
    expect(defaultDiagHeight(600)).toBe(330);
    expect(defaultDiagHeight(250)).toBe(160);
  });

  it('reads back what was stored', () => {
    expect(parsePaneSizes('{"editorWidth":600,"diagHeight":420,"editorCollapsed":false,"diagCollapsed":true}')).toEqual({
      editorWidth: 600,
      diagHeight: 420,
      editorCollapsed: false,
      diagCollapsed: true,
    });
  });

  it('drops what is hostile or broken, field by field', () => {
    expect(parsePaneSizes(null)).toEqual({});
    expect(parsePaneSizes('not json')).toEqual({});
    expect(parsePaneSizes('[1,2]')).toEqual({});
    expect(parsePaneSizes('42')).toEqual({});
    expect(parsePaneSizes('{"editorWidth":-5,"diagHeight":1e9,"editorCollapsed":"yes"}')).toEqual({});
    expect(parsePaneSizes('{"editorWidth":"600","diagHeight":null,"diagCollapsed":1}')).toEqual({});
    expect(parsePaneSizes('{"editorWidth":512.6,"diagHeight":20001}')).toEqual({ editorWidth: 513 });
  });
});
