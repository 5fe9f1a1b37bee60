import { describe, expect, it } from 'vitest';
import { fakeLocks } from './sessionLocks.fake';
import { heldSessions, holdSession } from './sessionLocks';

describe('session locks (one tab per session)', () => {
  it('gives a session to one tab; another gets null until it is released', async () => {
    const locks = fakeLocks();
    const a = await holdSession('s', 0, locks);
    expect(a).toMatchObject({ id: 's', held: true });
    expect(await holdSession('s', 0, locks)).toBeNull();
    expect(await holdSession('t', 0, locks)).toMatchObject({ id: 't', held: true });
    a!.release();
    await new Promise((r) => setTimeout(r)); // the callback's promise settles, the lock goes
    expect(await holdSession('s', 0, locks)).toMatchObject({ id: 's', held: true });
  });

  it('waits for a session that is let go of during the wait (a reloading tab), and gives up on one that is not', async () => {
    const locks = fakeLocks();
    const old = await holdSession('s', 0, locks);
    const waiting = holdSession('s', 5_000, locks);
    old!.release();
    expect(await waiting).toMatchObject({ id: 's', held: true });
    expect(await holdSession('s', 20, locks)).toBeNull(); // held for good by the new page
  });

  it('names the sessions held, and nothing else', async () => {
    const locks = fakeLocks();
    await holdSession('a', 0, locks);
    await holdSession('b', 0, locks);
    void locks.request('other-lock', {}, () => new Promise(() => {}));
    expect(await heldSessions(locks)).toEqual(new Set(['a', 'b']));
  });

  it('without Web Locks every claim succeeds and says nothing is held', async () => {
    expect(await holdSession('s', 0, null)).toMatchObject({ id: 's', held: false });
    expect(await holdSession('s', 0, null)).toMatchObject({ id: 's', held: false });
    expect(await heldSessions(null)).toEqual(new Set());
  });
});
