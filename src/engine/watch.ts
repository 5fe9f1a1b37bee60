/**
 * The watch slot a reward worker shares with the engine (Int32 slots on a SharedArrayBuffer): the worker publishes
 * what it runs with plain stores, the engine's watchdog reads them and acts on a call past its limit.
 */
export const WATCH_ROW = 0;
/** Rows of the call now running (a batched Python call covers several; 1 otherwise). */
export const WATCH_COUNT = 1;
/** Pyodide's interrupt buffer: the engine stores 2 to raise KeyboardInterrupt in Python code. */
export const WATCH_INTERRUPT = 2;
export const WATCH_SLOTS = 3;

/** Values of the row slot besides a row index. */
export const WATCH_IDLE = -1;
/** The reward module's top-level code is running (compile, import): timed like a row, with a longer limit. */
export const WATCH_COMPILING = -2;

export interface Watch {
  buffer: SharedArrayBuffer;
  row: Int32Array;
  count: Int32Array;
  interrupt: Int32Array;
}

export function watchOf(buffer: SharedArrayBuffer): Watch {
  return {
    buffer,
    row: new Int32Array(buffer, WATCH_ROW * 4, 1),
    count: new Int32Array(buffer, WATCH_COUNT * 4, 1),
    interrupt: new Int32Array(buffer, WATCH_INTERRUPT * 4, 1),
  };
}

/** A fresh watch slot, or null where SharedArrayBuffer is unavailable (a page that is not cross-origin isolated). */
export function newWatch(): Watch | null {
  if (typeof SharedArrayBuffer === 'undefined' || globalThis.crossOriginIsolated === false) return null;
  const w = watchOf(new SharedArrayBuffer(WATCH_SLOTS * 4));
  Atomics.store(w.row, 0, WATCH_IDLE);
  Atomics.store(w.count, 0, 1);
  return w;
}

/** Worker side: publish the call now running (count first, so the watchdog never pairs a row with a stale count). */
export function publishCall(w: Watch | null, row: number, count = 1): void {
  if (!w) return;
  Atomics.store(w.count, 0, count);
  Atomics.store(w.row, 0, row);
}
