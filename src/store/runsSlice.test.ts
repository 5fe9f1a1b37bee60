import { describe, expect, it } from 'vitest';
import { createStudioStore } from './index';
import type { RunRecord } from './runsSlice';

const run = (id: number): RunRecord => ({
  id,
  code: `export default () => ${id}`,
  language: 'ts',
  datasetId: 'd1',
  startedAt: id,
  elapsedMs: 5,
  cancelled: false,
  summary: { rows: 1, ok: 1, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: id },
  result: { scores: new Float64Array([id]), status: new Uint8Array([1]), errors: new Map(), components: {}, notes: new Map(), stdout: '' },
});

describe('runs slice', () => {
  it('addRun appends, makes the new run current and clears the run error', () => {
    const store = createStudioStore();
    store.getState().addRun(run(1));
    store.getState().setRunError({ message: 'does not compile', line: 2, compile: true });
    store.getState().addRun(run(2));
    const s = store.getState();
    expect(s.runs.map((r) => r.id)).toEqual([1, 2]);
    expect([s.currentRunId, s.runError]).toEqual([2, null]);
  });

  it('selectRun and setRuns change the current run; setRuns replaces the list', () => {
    const store = createStudioStore();
    store.getState().addRun(run(1));
    store.getState().addRun(run(2));
    store.getState().selectRun(1);
    expect(store.getState().currentRunId).toBe(1);
    store.getState().setRuns([run(7)], 7);
    expect(store.getState().runs.map((r) => r.id)).toEqual([7]);
    expect(store.getState().currentRunId).toBe(7);
    store.getState().setRuns([], null);
    expect([store.getState().runs, store.getState().currentRunId]).toEqual([[], null]);
  });

  it('setRunning and setRunError hold the run in flight and why the last one failed', () => {
    const store = createStudioStore();
    store.getState().setRunning({ done: 3, total: 10, rowsPerSecond: 100 });
    expect(store.getState().running).toEqual({ done: 3, total: 10, rowsPerSecond: 100 });
    store.getState().setRunError({ message: 'worker failed', compile: false });
    expect(store.getState().runError).toEqual({ message: 'worker failed', compile: false });
    store.getState().setRunning(null);
    expect(store.getState().running).toBeNull();
  });
});
