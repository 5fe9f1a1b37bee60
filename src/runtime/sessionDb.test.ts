import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { SessionDoc } from '../core/session/schema';
import * as db from './sessionDb';
import { testDoc, testRun } from './sessionDb.fixtures';

const doc = (id: string, updatedAt: number): SessionDoc => testDoc(id, { updatedAt, dataVersion: 2 });
const run = (sessionId: string, id: number, dataVersion: number): db.StoredRun => testRun(sessionId, id, { dataVersion });

describe('session store (IndexedDB)', () => {
  it('lists valid sessions newest first and names the invalid ones', async () => {
    await db.putSession(doc('a', 10));
    await db.putSession(doc('b', 20));
    await db.putSession({ ...doc('c', 30), editor: { ...doc('c', 30).editor, timeLimitMs: -5 } });
    const { sessions, invalid } = await db.listSessions();
    expect(sessions.map((s) => s.id)).toEqual(['b', 'a']);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatch(/^c: .*editor\.timeLimitMs/);
  });

  it('keeps runs per session and data version, typed arrays intact, in id order', async () => {
    await db.putRun(run('a', 2, 2));
    await db.putRun(run('a', 1, 2));
    await db.putRun(run('a', 3, 1)); // made on older data
    await db.putRun(run('b', 1, 2));
    const runs = await db.getRuns('a', 2);
    expect(runs.map((r) => r.id)).toEqual([1, 2]);
    expect(runs[0].payload.scores).toEqual(new Float64Array([0, 1]));
    expect(runs[0].payload.scores).toBeInstanceOf(Float64Array);
  });

  it('deletes a session with its data and runs, and nothing of the others', async () => {
    await db.putBlob({ sessionId: 'a', blob: new Blob(['x']), name: 'x.jsonl', dataVersion: 2 });
    await db.deleteSession('a');
    expect(await db.getSession('a')).toBeNull();
    expect(await db.getBlob('a')).toBeUndefined();
    expect(await db.getRuns('a', 2)).toEqual([]);
    expect((await db.getRuns('b', 2)).map((r) => r.id)).toEqual([1]);
    expect((await db.getSession('b'))?.ok).toBe(true);
  });
});
