// Code provenance (issue 20): where the editor's code came from travels with it, in the store and in local storage.
import { describe, expect, it } from 'vitest';
import type { CodeOrigin } from '../core/session/schema';
import { CODE_STORAGE_KEY, ORIGIN_STORAGE_KEY, PY_CODE_STORAGE_KEY, storedOrigin } from './editorSlice';
import { createStudioStore } from './index';
import { storage, stubLocalStorage } from './testing/mapStorage';
import { awaitsRun, mergeOrigins, releaseLanguage } from './sessionSlice';

stubLocalStorage();

const link: CodeOrigin = { from: 'link', at: 5, run: null, languages: ['py'] };
const file: CodeOrigin = { from: 'file', at: 7, run: null };
const editor = { tokenizer: 'gpt2' as const, timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 };

describe('code origin', () => {
  it('awaitsRun: the languages named wait, all of them when none is named, none without an origin', () => {
    expect([awaitsRun(link, 'py'), awaitsRun(link, 'ts')]).toEqual([true, false]);
    expect([awaitsRun(file, 'py'), awaitsRun(file, 'ts')]).toEqual([true, true]);
    expect([awaitsRun(null, 'py'), awaitsRun(null, 'ts')]).toEqual([false, false]);
  });

  it('releaseLanguage: Run in one language releases only that one; the last one released leaves no origin', () => {
    expect(releaseLanguage(file, 'ts')).toEqual({ from: 'file', at: 7, run: null, languages: ['py'] });
    expect(releaseLanguage(releaseLanguage(file, 'ts'), 'py')).toBeNull();
    expect(releaseLanguage(link, 'ts')).toEqual(link);
    expect(releaseLanguage(link, 'py')).toBeNull();
    expect(releaseLanguage(null, 'ts')).toBeNull();
  });

  it('mergeOrigins: every language that waits in either', () => {
    expect(mergeOrigins(null, null)).toBeNull();
    expect(mergeOrigins(link, null)).toBe(link);
    expect(mergeOrigins(null, file)).toBe(file);
    expect(mergeOrigins(link, { ...file, languages: ['ts'] })).toEqual({ from: 'link', at: 5, run: null, languages: ['ts', 'py'] });
    expect(mergeOrigins(link, file)).toEqual({ from: 'link', at: 5, run: null });
  });

  it('local storage keeps the origin with the code: a new page (a reload) starts with it', () => {
    const store = createStudioStore();
    store.getState().setOrigin(null);
    store.getState().loadEditor({ language: 'py', codes: { ts: 'ts code', py: 'link code' }, ...editor });
    store.getState().setOrigin(link);
    expect(JSON.parse(storage.get(ORIGIN_STORAGE_KEY)!)).toEqual(link);
    expect(createStudioStore().getState().origin).toEqual(link);
    // Typing keeps it (the code is still the link's until Run), and writes both languages with it.
    store.getState().setCode('link code, edited');
    expect([storage.get(PY_CODE_STORAGE_KEY), storage.get(CODE_STORAGE_KEY), storedOrigin()]).toEqual(['link code, edited', 'ts code', link]);
    // Run pressed: the user's own code; a new page starts without an origin.
    store.getState().setOrigin(releaseLanguage(link, 'py'));
    expect(storage.get(ORIGIN_STORAGE_KEY)).toBe('null');
    expect(createStudioStore().getState().origin).toBeNull();
  });

  it('an origin set in a tab whose code is no longer the stored code does not touch the stored origin', () => {
    const mine = createStudioStore();
    mine.getState().loadEditor({ language: 'ts', codes: { ts: 'my code', py: 'py' }, ...editor });
    const other = createStudioStore(); // another tab opens a link: its code and origin are stored now
    other.getState().loadEditor({ language: 'py', codes: { ts: 'ts', py: 'link code' }, ...editor });
    other.getState().setOrigin(link);
    mine.getState().setOrigin(null); // Run pressed in the first tab, on its own code
    expect(storedOrigin()).toEqual(link);
  });

  it('a stored origin that cannot be read counts as code from elsewhere; none stored is the user’s own', () => {
    expect(storedOrigin()).toBeNull();
    storage.set(ORIGIN_STORAGE_KEY, 'null');
    expect(storedOrigin()).toBeNull();
    storage.set(ORIGIN_STORAGE_KEY, '{"from":"link"');
    expect(storedOrigin()).toEqual({ from: 'link', at: 0, run: null });
    storage.set(ORIGIN_STORAGE_KEY, '{"from":"elsewhere","at":1,"run":null}');
    expect(storedOrigin()).toEqual({ from: 'link', at: 0, run: null });
  });
});
