import { useEffect, useState, type RefObject } from 'react';
import { PANE_MIN, clampSize, defaultDiagHeight, defaultEditorWidth, parsePaneSizes, type PaneSizes } from '../../core/layout/paneSizes';
import { readStorage, sharedStorage, writeStorage } from '../../app/webStorage';

const KEY = 'reward-studio:layout';
/** Width of the splitter column between the editor and the results (styles.css, App.tsx). */
const SPLITTER = 10;

/** The element's content box, followed as the window or the panes around it change. */
function useBox(ref: RefObject<HTMLElement | null>): { width: number; height: number } | null {
  const [box, setBox] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => setBox({ width: entry.contentRect.width, height: entry.contentRect.height }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return box;
}

/**
 * Editor width and diagnostics height: remembered in local storage (read back through parsePaneSizes, then clamped
 * to the room there is now), defaults sized to the window until the user moves a splitter.
 */
export function usePaneLayout(workspace: RefObject<HTMLElement | null>, results: RefObject<HTMLElement | null>) {
  const [saved, setSaved] = useState<Partial<PaneSizes>>(() => parsePaneSizes(readStorage(sharedStorage(), KEY)));
  const ws = useBox(workspace);
  const col = useBox(results);
  useEffect(() => writeStorage(sharedStorage(), KEY, JSON.stringify(saved)), [saved]);

  const width = ws?.width ?? 1200;
  const height = col?.height ?? 700;
  const editorMax = Math.max(PANE_MIN.editor, width - PANE_MIN.results - SPLITTER);
  const diagMax = Math.max(PANE_MIN.diag, height - PANE_MIN.table);
  const sizes: PaneSizes = {
    editorWidth: clampSize(saved.editorWidth ?? defaultEditorWidth(width), PANE_MIN.editor, editorMax),
    diagHeight: clampSize(saved.diagHeight ?? defaultDiagHeight(height), PANE_MIN.diag, diagMax),
    editorCollapsed: saved.editorCollapsed ?? false,
    diagCollapsed: saved.diagCollapsed ?? false,
  };
  const set = (patch: Partial<PaneSizes>) => setSaved((s) => ({ ...s, ...patch }));
  return { sizes, set, editorMax, diagMax };
}
