/** Session storage (this tab, kept across reloads) and local storage (every tab), where a browser may refuse either. */

export function tabStorage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function sharedStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readStorage(s: Storage | null, key: string): string | null {
  try {
    return s?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Full or unavailable storage is not an error: what it would have kept lives on in memory or IndexedDB. */
export function writeStorage(s: Storage | null, key: string, value: string | null): void {
  try {
    if (value === null) s?.removeItem(key);
    else s?.setItem(key, value);
  } catch {
    /* see above */
  }
}
