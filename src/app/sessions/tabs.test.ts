import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLocks } from '../../runtime/sessionLocks.fake';

/** Storage as the browser has it, over a Map (Node has neither sessionStorage nor localStorage). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, String(v)),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
}

let shared: Storage;
beforeEach(() => {
  vi.resetModules(); // each test is a fresh tab: nothing held yet
  shared = memoryStorage();
  vi.stubGlobal('sessionStorage', memoryStorage());
  vi.stubGlobal('localStorage', shared);
});
afterEach(() => vi.unstubAllGlobals());

const tabs = () => import('./tabs');

describe('per-tab session and keystroke mirror', () => {
  it('lays keystrokes only over the session they were typed in', async () => {
    const t = await tabs();
    t.mirrorEditor({ sessionId: 'x', language: 'ts', codes: { ts: 'typed in x', py: 'p' } });
    expect(t.mirroredEditor('x')).toEqual({ sessionId: 'x', language: 'ts', codes: { ts: 'typed in x', py: 'p' } });
    expect(t.mirroredEditor('y')).toBeNull();
  });

  it("prefers this tab's keystrokes to another tab's for the same session; the shared copy serves a new tab", async () => {
    const t = await tabs();
    t.mirrorEditor({ sessionId: 'x', language: 'ts', codes: { ts: 'this tab' } });
    // Another tab (its own sessionStorage) types into another session: the shared copy is now that tab's.
    shared.setItem('reward-studio:editor-mirror', JSON.stringify({ sessionId: 'y', language: 'py', codes: { py: 'other tab' } }));
    expect(t.mirroredEditor('x')?.codes.ts).toBe('this tab');
    vi.stubGlobal('sessionStorage', memoryStorage()); // a new tab
    expect(t.mirroredEditor('x')).toBeNull();
    expect(t.mirroredEditor('y')?.codes.py).toBe('other tab');
  });

  it('ignores a damaged mirror', async () => {
    const t = await tabs();
    for (const bad of ['{', 'null', '{"sessionId":"x","language":"js","codes":{}}', '{"sessionId":"x","language":"ts","codes":{"ts":5}}']) {
      sessionStorage.setItem('reward-studio:editor-mirror', bad);
      const m = t.mirroredEditor('x');
      expect(m === null || m.codes.ts === undefined).toBe(true);
    }
  });

  it("remembers this tab's session across a reload", async () => {
    const t = await tabs();
    expect(t.tabSessionId()).toBeNull();
    t.rememberTabSession('x');
    expect((await tabs()).tabSessionId()).toBe('x');
  });
});

describe('claiming sessions', () => {
  it('holds one session per tab, lets go of the last one, and sees the others held elsewhere', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    const tabA = await tabs();
    vi.resetModules();
    const tabB = await tabs();
    expect(await tabA.claimSession('x')).toBe(true);
    expect(await tabB.claimSession('x')).toBe(false); // A works on it
    expect(await tabB.claimSession('y')).toBe(true);
    expect(await tabA.openElsewhere()).toEqual(new Set(['y']));
    expect(await tabA.claimSession('z')).toBe(true); // A moves on: x is free again
    await new Promise((r) => setTimeout(r));
    expect(await tabB.claimSession('x')).toBe(true);
    await new Promise((r) => setTimeout(r));
    expect(await tabA.openElsewhere()).toEqual(new Set(['x']));
  });
});
