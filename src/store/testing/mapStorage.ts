import { afterEach, beforeEach, vi } from 'vitest';

/** Node has no localStorage: this Map stands in for it, emptied before each test (the slices read it when a store is made). */
export const storage = new Map<string, string>();

/** Call at a test file's top level. */
export function stubLocalStorage(): void {
  beforeEach(() => {
    storage.clear();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    });
  });
  afterEach(() => vi.unstubAllGlobals());
}
