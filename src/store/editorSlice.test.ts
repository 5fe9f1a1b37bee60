import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_REWARD_PY } from '../core/reward/defaultRewardPy';
import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';
import { CODE_STORAGE_KEY, LANGUAGE_STORAGE_KEY, ORIGIN_STORAGE_KEY, PY_CODE_STORAGE_KEY, storeLocal, TOKENIZER_STORAGE_KEY } from './editorSlice';
import { createStudioStore } from './index';
import { storage, stubLocalStorage } from './testing/mapStorage';

stubLocalStorage();

describe('editor slice', () => {
  it('starts from the templates when storage is empty, from storage otherwise', () => {
    let s = createStudioStore().getState();
    expect([s.language, s.code, s.codes, s.tokenizer]).toEqual(['ts', DEFAULT_REWARD_TS, { ts: DEFAULT_REWARD_TS, py: DEFAULT_REWARD_PY }, 'gpt2']);
    storage.set(LANGUAGE_STORAGE_KEY, 'py');
    storage.set(PY_CODE_STORAGE_KEY, 'def f(completions, **kw): return [0]');
    storage.set(TOKENIZER_STORAGE_KEY, 'qwen3');
    s = createStudioStore().getState();
    expect([s.language, s.code, s.codes.ts, s.tokenizer]).toEqual(['py', 'def f(completions, **kw): return [0]', DEFAULT_REWARD_TS, 'qwen3']);
  });

  it('ignores stored values that are not a language or a tokenizer', () => {
    storage.set(LANGUAGE_STORAGE_KEY, 'rust');
    storage.set(TOKENIZER_STORAGE_KEY, 'bpe-9000');
    const s = createStudioStore().getState();
    expect([s.language, s.tokenizer]).toEqual(['ts', 'gpt2']);
  });

  it('setCode keeps code equal to codes[language] and stores only that language', () => {
    const store = createStudioStore();
    store.getState().setCode('export default () => 1');
    const s = store.getState();
    expect(s.code).toBe('export default () => 1');
    expect(s.codes).toEqual({ ts: 'export default () => 1', py: DEFAULT_REWARD_PY });
    expect(storage.get(CODE_STORAGE_KEY)).toBe('export default () => 1');
    expect(storage.has(PY_CODE_STORAGE_KEY)).toBe(false);
  });

  it('setLanguage shows that language code, clears the run error, and keeps each language code', () => {
    const store = createStudioStore();
    store.getState().setCode('ts code');
    store.getState().setRunError({ message: 'x', compile: true });
    store.getState().setLanguage('py');
    let s = store.getState();
    expect([s.language, s.code, s.runError, storage.get(LANGUAGE_STORAGE_KEY)]).toEqual(['py', DEFAULT_REWARD_PY, null, 'py']);
    store.getState().setCode('py code');
    store.getState().setLanguage('ts');
    s = store.getState();
    expect([s.code, s.codes]).toEqual(['ts code', { ts: 'ts code', py: 'py code' }]);
  });

  it('setLanguage to the language already shown changes nothing', () => {
    const store = createStudioStore();
    store.getState().setRunError({ message: 'x', compile: true });
    const before = store.getState();
    store.getState().setLanguage('ts');
    expect(store.getState()).toBe(before);
  });

  it('loadEditor puts a whole editor in place, forgets the Python candidates, and mirrors it to storage', () => {
    const store = createStudioStore();
    store
      .getState()
      .setPyCandidates([
        { name: 'f', kind: 'trl', line: 1, params: ['completions'], required: ['completions'], varPositional: false, varKeyword: true, async: false },
      ]);
    store.getState().setRunError({ message: 'x', compile: false });
    store.getState().loadEditor({ language: 'py', codes: { ts: 'a', py: 'b' }, tokenizer: 'llama3', timeLimitMs: 250, pyFunction: 'g', pyBatchSize: 8 });
    const s = store.getState();
    expect([s.language, s.code, s.codes, s.tokenizer, s.timeLimitMs, s.pyFunction, s.pyBatchSize, s.pyCandidates, s.runError]).toEqual([
      'py',
      'b',
      { ts: 'a', py: 'b' },
      'llama3',
      250,
      'g',
      8,
      null,
      null,
    ]);
    expect(Object.fromEntries(storage)).toEqual({
      [LANGUAGE_STORAGE_KEY]: 'py',
      [CODE_STORAGE_KEY]: 'a',
      [PY_CODE_STORAGE_KEY]: 'b',
      [TOKENIZER_STORAGE_KEY]: 'llama3',
      [ORIGIN_STORAGE_KEY]: 'null', // the code's origin is stored with it (codeOrigin.test.ts)
    });
  });

  it('setTokenizer is stored; the other settings are not', () => {
    const store = createStudioStore();
    store.getState().setTokenizer('qwen3');
    store.getState().setTimeLimitMs(300);
    store.getState().setPyBatchSize(4);
    store.getState().setPyFunction('h');
    const s = store.getState();
    expect([s.tokenizer, s.timeLimitMs, s.pyBatchSize, s.pyFunction]).toEqual(['qwen3', 300, 4, 'h']);
    expect(Object.fromEntries(storage)).toEqual({ [TOKENIZER_STORAGE_KEY]: 'qwen3' });
  });

  it('a full or missing storage never throws: the edit stays in memory', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    });
    expect(() => storeLocal('k', 'v')).not.toThrow();
    const store = createStudioStore();
    store.getState().setCode('kept');
    expect(store.getState().code).toBe('kept');
    vi.stubGlobal('localStorage', undefined);
    expect(createStudioStore().getState().language).toBe('ts');
  });
});
