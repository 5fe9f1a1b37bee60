/**
 * A run's progress on its way to the page. The engine reports after every task, but each message that crosses from
 * the sandbox to the page's process wakes the page's main thread, which then takes a core from the reward workers.
 */
import type { RunProgress } from './engine';

/** The page shows a run's progress at most ten times a second (studio.ts): reports closer together are not posted. */
export const PROGRESS_EVERY_MS = 100;

/**
 * `report` posts a report once `everyMs` have passed since the start or since the last one posted; the latest one held
 * back is posted when that time comes. A run that ends sooner (`stop`) posts none: its outcome follows.
 */
export function throttleProgress(post: (p: RunProgress) => void, everyMs = PROGRESS_EVERY_MS): { report: (p: RunProgress) => void; stop: () => void } {
  let last = performance.now();
  let held: RunProgress | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    if (!held) return;
    last = performance.now();
    post(held);
    held = null;
  };
  return {
    report: (p) => {
      held = p;
      const wait = last + everyMs - performance.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      held = null;
    },
  };
}
