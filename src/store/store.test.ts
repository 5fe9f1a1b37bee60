import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Detection } from '../core/formats/types';
import { DEFAULT_REWARD_PY } from '../core/reward/defaultRewardPy';
import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';
import type { RunResult } from '../engine/engine';
import { CODE_STORAGE_KEY, LANGUAGE_STORAGE_KEY, PY_CODE_STORAGE_KEY, TOKENIZER_STORAGE_KEY } from './editorSlice';
import { createStudioStore } from './index';
import type { ModelEntry } from './modelsSlice';
import type { RunRecord } from './runsSlice';

/** The store built from the real slices, as the app builds it, over an in-memory localStorage. */
class MemoryStorage {
  items = new Map<string, string>();
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const result = (): RunResult => ({ scores: new Float64Array(2), status: new Uint8Array(2), errors: new Map(), components: {}, notes: new Map(), stdout: '' });
const run = (id: number): RunRecord => ({
  id,
  code: `// ${id}`,
  language: 'ts',
  datasetId: 'd',
  startedAt: 0,
  elapsedMs: 1,
  cancelled: false,
  summary: { rows: 2, ok: 2, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: 0 },
  result: result(),
});

describe('editor slice', () => {
  it('starts from the templates, or from what was saved; keeps each language its own code', () => {
    const fresh = createStudioStore().getState();
    expect([fresh.language, fresh.code, fresh.codes.py, fresh.tokenizer]).toEqual(['ts', DEFAULT_REWARD_TS, DEFAULT_REWARD_PY, 'gpt2']);
    storage.setItem(LANGUAGE_STORAGE_KEY, 'py');
    storage.setItem(PY_CODE_STORAGE_KEY, 'def f(completions, **kw): return [1]');
    storage.setItem(TOKENIZER_STORAGE_KEY, 'qwen3');
    const saved = createStudioStore().getState();
    expect([saved.language, saved.code, saved.tokenizer]).toEqual(['py', 'def f(completions, **kw): return [1]', 'qwen3']);
  });

  it('setCode saves under the language in use; setLanguage switches to that language’s code and clears the run error', () => {
    const store = createStudioStore();
    store.getState().setCode('export default () => 1');
    expect(storage.getItem(CODE_STORAGE_KEY)).toBe('export default () => 1');
    store.getState().setRunError({ message: 'x', compile: true });
    store.getState().setLanguage('py');
    expect([store.getState().language, store.getState().code, store.getState().runError]).toEqual(['py', DEFAULT_REWARD_PY, null]);
    store.getState().setCode('def f(completions): return [0]');
    store.getState().setLanguage('ts');
    expect(store.getState().code).toBe('export default () => 1');
    expect(store.getState().codes.py).toBe('def f(completions): return [0]');
    expect(storage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ts');
  });

  it('loadEditor puts a session’s editor in place and saves it', () => {
    const store = createStudioStore();
    store.getState().setPyCandidates([]);
    store.getState().loadEditor({ language: 'py', codes: { ts: 'a', py: 'b' }, tokenizer: 'llama3', timeLimitMs: 250, pyFunction: 'f', pyBatchSize: 8 });
    const s = store.getState();
    expect([s.language, s.code, s.tokenizer, s.timeLimitMs, s.pyFunction, s.pyBatchSize, s.pyCandidates]).toEqual(['py', 'b', 'llama3', 250, 'f', 8, null]);
    expect([storage.getItem(CODE_STORAGE_KEY), storage.getItem(PY_CODE_STORAGE_KEY), storage.getItem(TOKENIZER_STORAGE_KEY)]).toEqual(['a', 'b', 'llama3']);
  });
});

describe('runs slice', () => {
  it('a new run becomes the current one and clears the run error; setRuns replaces the history', () => {
    const store = createStudioStore();
    store.getState().setRunError({ message: 'boom', compile: false });
    store.getState().addRun(run(1));
    store.getState().addRun(run(2));
    expect(store.getState().runs.map((r) => r.id)).toEqual([1, 2]);
    expect([store.getState().currentRunId, store.getState().runError]).toEqual([2, null]);
    store.getState().selectRun(1);
    expect(store.getState().currentRunId).toBe(1);
    store.getState().setRuns([run(7)], 7);
    expect([store.getState().runs.map((r) => r.id), store.getState().currentRunId]).toEqual([[7], 7]);
  });
});

describe('dataset slice', () => {
  it('a new dataset clears the import error', () => {
    const store = createStudioStore();
    store.getState().setImportError({ code: 'unreadable', message: 'no', fileName: 'x.jsonl' });
    const detection: Detection = { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: [], gzip: false };
    store.getState().setDataset({ id: 'd1', name: 'x.jsonl', rowCount: 3, groupCount: 1, detection, issues: [] });
    const s = store.getState();
    expect([s.datasetId, s.datasetName, s.rowCount, s.groupCount, s.importError]).toEqual(['d1', 'x.jsonl', 3, 1, null]);
  });
});

describe('ui slice', () => {
  it('sorting: a new key sorts reward and length descending, others ascending; the same key flips', () => {
    const store = createStudioStore();
    expect([store.getState().sortKey, store.getState().sortDesc]).toEqual(['index', false]);
    store.getState().setSort('reward');
    expect([store.getState().sortKey, store.getState().sortDesc]).toEqual(['reward', true]);
    store.getState().setSort('reward');
    expect(store.getState().sortDesc).toBe(false);
    store.getState().setSort('index');
    expect([store.getState().sortKey, store.getState().sortDesc]).toEqual(['index', false]);
  });
});

describe('session slice', () => {
  it('the data version goes up only when asked (a new import, not a restore)', () => {
    const store = createStudioStore();
    store.getState().setDataSource({ kind: 'file' }, true);
    store.getState().setDataSource({ kind: 'demo' }, false);
    expect([store.getState().dataSource, store.getState().dataVersion]).toEqual([{ kind: 'demo' }, 1]);
  });
});

describe('models slice', () => {
  const model = (id: string) => ({ id, name: id, status: 'ready' }) as ModelEntry;
  it('adding a model of the same id replaces it; patch changes one; dropping the one the diagnostics show resets them', () => {
    const store = createStudioStore();
    store.getState().addModel(model('a'));
    store.getState().addModel(model('b'));
    store.getState().addModel({ ...model('a'), name: 'a2' });
    expect(store.getState().models.map((m) => [m.id, m.name])).toEqual([
      ['b', 'b'],
      ['a', 'a2'],
    ]);
    store.getState().patchModel('b', { status: 'scoring' });
    expect(store.getState().models[0].status).toBe('scoring');
    store.getState().setDiagSource('a');
    store.getState().dropModel('b');
    expect(store.getState().diagSource).toBe('a');
    store.getState().dropModel('a');
    expect([store.getState().models, store.getState().diagSource]).toEqual([[], null]);
  });
});
