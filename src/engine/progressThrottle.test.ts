import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunProgress } from './engine';
import { throttleProgress } from './progressThrottle';

const at = (done: number): RunProgress => ({ done, total: 100, rowsPerSecond: 0 });

describe('throttleProgress', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => void vi.useRealTimers());

  it('posts nothing for a run that ends within the first 100 ms', () => {
    const posted: number[] = [];
    const t = throttleProgress((p) => posted.push(p.done));
    for (const done of [10, 20, 30]) {
      vi.advanceTimersByTime(20);
      t.report(at(done));
    }
    t.stop();
    vi.advanceTimersByTime(1000);
    expect(posted).toEqual([]);
  });

  it('posts the latest report when 100 ms have passed, then at most one per 100 ms', () => {
    const posted: [number, number][] = [];
    const t = throttleProgress((p) => posted.push([performance.now(), p.done]));
    // Reports k = 1…10 at 40k ms. Held 2 (80 ms) goes out at 100. Report 3 (120) waits for 200, where the timer fires
    // before report 5 of the same instant: 4 goes out; 5 (200) waits for 300: 7 (280); 8 (320) waits for 400: 9;
    // 10 (400) waits for 500.
    for (let k = 1; k <= 10; k++) {
      vi.advanceTimersByTime(40);
      t.report(at(k));
    }
    vi.advanceTimersByTime(500);
    expect(posted).toEqual([
      [100, 2],
      [200, 4],
      [300, 7],
      [400, 9],
      [500, 10],
    ]);
  });

  it('a report 100 ms or more after the last one posted goes out at once', () => {
    const posted: number[] = [];
    const t = throttleProgress((p) => posted.push(p.done));
    vi.advanceTimersByTime(150);
    t.report(at(1));
    expect(posted).toEqual([1]);
    vi.advanceTimersByTime(100);
    t.report(at(2));
    expect(posted).toEqual([1, 2]);
  });
});
