/**
 * What a pool's watchdog does about a Python call it has seen on the same row past its limit (the browser's
 * `src/runtime/rewardPool.ts` and the CLI's `src/cli/pool.ts`): store 2 in the worker's interrupt buffer
 * (Pyodide raises KeyboardInterrupt in the call, runPython reports its rows TimedOut, the worker goes on), and
 * terminate the worker only when the call is still running `graceMs` later.
 *
 * The interrupt is stored again while the call goes on, because one can be lost. Pyodide takes it from the buffer
 * in CPython's `_Py_CheckEmscriptenSignals_Helper`, which reads the buffer and then stores 0 as two steps; a 2
 * stored between them is overwritten and never raised (python/cpython#157548, open, fix in PR #157553). A pure
 * Python loop runs that helper every 50 eval-breaker checks, so this hits about one interrupt in 30 here
 * (`src/cli/python.test.ts` saw it on CI as a worker terminated after the grace, its row's line lost). So: when
 * the buffer reads 0 again (taken) and the call still runs `REASSERT_MS` after the last store, store 2 again.
 * A taken interrupt that did land ends the call within microseconds, long before that.
 */
export const REASSERT_MS = 100;

/** The watchdog's record of the interrupt it has sent to the call now running (null: none yet). */
export interface InterruptState {
  /** When the first interrupt was stored (the grace runs from there). */
  firstAt: number;
  /** When an interrupt was last stored. */
  lastAt: number;
  /** How many times it was stored again after being taken without effect. */
  again: number;
}

/**
 * One watchdog tick for a call past its limit. `state` is null until the first interrupt; `stillOn` reads the
 * worker's watch slot again and says whether the same call is still running (if it ended between the watchdog's
 * read and the store, the interrupt is taken back: it was meant for that call, not the next).
 */
export function interruptOverrun(
  state: InterruptState | null,
  buffer: Int32Array,
  now: number,
  graceMs: number,
  stillOn: () => boolean,
): { state: InterruptState; terminate: boolean } {
  if (state && now - state.firstAt > graceMs) return { state, terminate: true };
  let next = state;
  if (!next) next = { firstAt: now, lastAt: now, again: 0 };
  else if (now - next.lastAt >= REASSERT_MS && Atomics.load(buffer, 0) === 0) next = { ...next, lastAt: now, again: next.again + 1 };
  else return { state: next, terminate: false };
  Atomics.store(buffer, 0, 2);
  if (!stillOn()) Atomics.compareExchange(buffer, 0, 2, 0);
  return { state: next, terminate: false };
}
