import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { SessionDoc } from '../core/session/schema';
import * as db from './sessionDb';

const doc = (id: string, updatedAt: number): SessionDoc => ({
  v: 1,
  id,
  name: `session ${id}`,
  createdAt: 1,
  updatedAt,
  editor: { language: 'ts', code: { ts: 'export default () => 1', py: '' }, tokenizer: 'gpt2', timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 },
  ui: { diagTab: 'distribution', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
  data: { kind: 'demo' },
  dataVersion: 2,
  runs: [],
  currentRunId: null,
  origin: null,
});
const run = (sessionId: string, id: number, dataVersion: number): db.StoredRun => ({
  sessionId,
  id,
  dataVersion,
  meta: {
    id,
    code: 'x',
    language: 'ts',
    startedAt: id,
    elapsedMs: 1,
    cancelled: false,
    summary: { rows: 2, ok: 2, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: 0.5 },
  },
  payload: { scores: new Float64Array([0, 1]), status: new Uint8Array([1, 1]), components: {}, errors: [], notes: [], stdout: '' },
});

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
