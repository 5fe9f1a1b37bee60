/**
 * Panels that failed to render, remembered for this tab across a reload (session storage), so that the page starts
 * safely the next time: the session comes back without the view state (the open rollout, the tab) that may have caused it.
 */
import { readStorage, tabStorage, writeStorage } from './webStorage';

const KEY = 'reward-studio:panel-failed';

/** The panel that failed before this page started (read once, then forgotten). */
const before: string | null = readStorage(tabStorage(), KEY);
writeStorage(tabStorage(), KEY, null);

export function panelFailed(panel: string): void {
  writeStorage(tabStorage(), KEY, panel);
}

export function failedBeforeThisStart(): string | null {
  return before;
}
