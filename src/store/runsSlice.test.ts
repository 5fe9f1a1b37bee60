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

  it('setRunLabels names and notes one run, cleaned and bounded; empty text removes them', () => {
    const store = createStudioStore();
    store.getState().addRun(run(1));
    store.getState().addRun(run(2));
    store.getState().setRunLabels(1, { name: 'exact\nmatch\u202E', note: 'first try' });
    expect(store.getState().runs.map((r) => [r.name, r.note])).toEqual([
      ['exact match', 'first try'],
      [undefined, undefined],
    ]);
    // Only what is given changes: the note stays when the name is renamed.
    store.getState().setRunLabels(1, { name: 'n'.repeat(200) });
    expect(store.getState().runs[0].name).toHaveLength(80);
    expect(store.getState().runs[0].note).toBe('first try');
    store.getState().setRunLabels(1, { name: '  ', note: '' });
    expect('name' in store.getState().runs[0] || 'note' in store.getState().runs[0]).toBe(false);
  });

  it('setOverlayRuns keeps at most three other runs, once each; a new list of runs resets it', () => {
    const store = createStudioStore();
    expect(store.getState().overlayRuns).toBeNull();
    store.getState().setOverlayRuns([3, 3, 1, 2, 5]);
    expect(store.getState().overlayRuns).toEqual([3, 1, 2]);
    store.getState().setRuns([run(7)], 7);
    expect(store.getState().overlayRuns).toBeNull();
  });
});
