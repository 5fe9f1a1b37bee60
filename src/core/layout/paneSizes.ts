/** Pane sizes of the studio's layout, in CSS pixels, as remembered across reloads. */
export interface PaneSizes {
  /** Width of the reward editor column. */
  editorWidth: number;
  /** Height of the diagnostics panel. */
  diagHeight: number;
  editorCollapsed: boolean;
  diagCollapsed: boolean;
}

/** The smallest each pane may get: below these the editor cuts every line and the charts are unreadable. */
export const PANE_MIN = { editor: 280, results: 480, diag: 160, table: 140 } as const;

/** `v` within [min, max]; when the room is smaller than `min`, `min` wins (the page scrolls rather than hiding a pane). */
export function clampSize(v: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(v, max)));
}

/**
 * Default editor width for a workspace `width` wide: 47.5%, between 360 and 700 px (80 columns of 13 px code with
 * Monaco's gutter). At 1440 px (671) the demo's 78-column line needs no scrolling and the diagnostics tabs one row.
 */
export function defaultEditorWidth(width: number): number {
  return clampSize(width * 0.475, 360, 700);
}

/** Default diagnostics height in a results column `height` tall: 55%, at least PANE_MIN.diag. */
export function defaultDiagHeight(height: number): number {
  return clampSize(height * 0.55, PANE_MIN.diag, Math.max(PANE_MIN.diag, height - PANE_MIN.table));
}

const MAX_REMEMBERED = 20_000;

/**
 * Sizes read back from storage (hostile: hand-edited, another version, another screen). Each field that is not a
 * finite number in [0, 20000] or a boolean is dropped, so its default applies; the caller clamps to the room it has.
 */
export function parsePaneSizes(raw: string | null): Partial<PaneSizes> {
  let v: unknown;
  try {
    v = raw === null ? null : JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const o = v as Record<string, unknown>;
  const out: Partial<PaneSizes> = {};
  const size = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= MAX_REMEMBERED ? Math.round(x) : undefined);
  const editorWidth = size(o.editorWidth);
  const diagHeight = size(o.diagHeight);
  if (editorWidth !== undefined) out.editorWidth = editorWidth;
  if (diagHeight !== undefined) out.diagHeight = diagHeight;
  if (typeof o.editorCollapsed === 'boolean') out.editorCollapsed = o.editorCollapsed;
  if (typeof o.diagCollapsed === 'boolean') out.diagCollapsed = o.diagCollapsed;
  return out;
}
