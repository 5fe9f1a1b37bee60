import { describe, expect, it } from 'vitest';
import { interruptOverrun, REASSERT_MS, type InterruptState } from './interrupt';

/** A watchdog's ticks on one stuck call, on a fake clock; the "worker" side is played by the test. */
function setup(graceMs = 1000) {
  const buffer = new Int32Array(new SharedArrayBuffer(4));
  let state: InterruptState | null = null;
  let running = true;
  const tick = (now: number) => {
    const r = interruptOverrun(state, buffer, now, graceMs, () => running);
    state = r.state;
    return r.terminate;
  };
  return { buffer, tick, state: () => state, end: () => (running = false) };
}

describe('interruptOverrun: what a watchdog does about a Python call past its limit', () => {
  it('stores 2 on the first tick and records when; nothing more while the interrupt has not been taken', () => {
    const w = setup();
    expect(w.tick(5000)).toBe(false);
    expect(Atomics.load(w.buffer, 0)).toBe(2);
    expect(w.state()).toEqual({ firstAt: 5000, lastAt: 5000, again: 0 });
    // Still 2 (Python has not looked yet): the same interrupt stands, however long it waits within the grace.
    expect(w.tick(5000 + 3 * REASSERT_MS)).toBe(false);
    expect(w.state()).toEqual({ firstAt: 5000, lastAt: 5000, again: 0 });
  });

  it('stores 2 again when it was taken (0) and the call still runs REASSERT_MS after the last store', () => {
    const w = setup();
    w.tick(5000);
    Atomics.store(w.buffer, 0, 0); // Python read the buffer and cleared it, and the call goes on: it was lost
    expect(w.tick(5000 + REASSERT_MS - 1)).toBe(false);
    expect(Atomics.load(w.buffer, 0)).toBe(0); // too soon: a taken interrupt that landed ends the call well before
    expect(w.tick(5000 + REASSERT_MS)).toBe(false);
    expect(Atomics.load(w.buffer, 0)).toBe(2);
    expect(w.state()).toEqual({ firstAt: 5000, lastAt: 5000 + REASSERT_MS, again: 1 });
    Atomics.store(w.buffer, 0, 0);
    w.tick(5000 + 2 * REASSERT_MS + 7);
    expect(w.state()).toEqual({ firstAt: 5000, lastAt: 5000 + 2 * REASSERT_MS + 7, again: 2 });
  });

  it('says terminate once the grace since the first store is over (not since the last), and stores nothing then', () => {
    const w = setup(1000);
    w.tick(5000);
    Atomics.store(w.buffer, 0, 0);
    w.tick(5900); // stored again at 5900
    Atomics.store(w.buffer, 0, 0);
    expect(w.tick(5950)).toBe(false);
    expect(w.tick(6000)).toBe(false); // exactly the grace: not over (and 100 ms since 5900: stored again)
    expect(w.state()).toEqual({ firstAt: 5000, lastAt: 6000, again: 2 });
    Atomics.store(w.buffer, 0, 0);
    expect(w.tick(6001)).toBe(true);
    expect(Atomics.load(w.buffer, 0)).toBe(0);
    expect(w.state()).toEqual({ firstAt: 5000, lastAt: 6000, again: 2 });
  });

  it('takes the interrupt back when the call ended between the watchdog’s read and the store', () => {
    const w = setup();
    w.end();
    expect(w.tick(5000)).toBe(false);
    expect(Atomics.load(w.buffer, 0)).toBe(0);
    // …but not a 2 that someone else stored in the meantime (compare-and-exchange, not a plain store of 0).
    const buffer = new Int32Array(new SharedArrayBuffer(4));
    interruptOverrun(null, buffer, 5000, 1000, () => {
      Atomics.store(buffer, 0, 7);
      return false;
    });
    expect(Atomics.load(buffer, 0)).toBe(7);
  });
});
