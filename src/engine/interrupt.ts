/**
 * What the watchdog does about a Python call past its limit: store 2 (KeyboardInterrupt) in its interrupt buffer,
 * store it again when Pyodide took it without raising it (python/cpython#157548; docs/engine.md), and terminate the
 * worker only when the call still runs `graceMs` after the first.
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
