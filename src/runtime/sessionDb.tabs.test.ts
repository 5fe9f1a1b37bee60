import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { SessionDoc } from '../core/session/schema';
import * as db from './sessionDb';
import { testDoc, testRun } from './sessionDb.fixtures';

/** Two tabs writing one session (issue 20): the guarded save and the copy a second tab works on. */

const doc = (id: string, code: string, updatedAt = 100): SessionDoc =>
  testDoc(id, { updatedAt, editor: { code: { ts: code, py: '' } }, data: { kind: 'file', name: 'x.jsonl', rows: 2, size: 9, import: {} } });
const run = (sessionId: string, id: number, score: number): db.StoredRun => testRun(sessionId, id, { scores: [score] });
const storedCode = async (id: string) => {
  const p = await db.getSession(id);
  return p?.ok ? p.value.editor.code.ts : null;
};

const opened = async (id: string) => {
  const p = await db.getSession(id);
  if (!p?.ok) throw new Error(`${id} is not saved`);
  return p.value;
};

/** A tab: what it last saw of each session, updated by its own successful saves, as autosave keeps it. */
function tab(opened?: SessionDoc) {
  let seen: db.SeenRevision | null = opened ? { updatedAt: opened.updatedAt } : null;
  return async (d: SessionDoc, r?: db.StoredRun) => {
    const res = await db.saveSessionGuarded(d, seen, r);
    if (res.ok) seen = res.seen;
    return res.ok;
  };
}

describe('guarded session saves (two tabs, one session)', () => {
  it('refuses the save of a tab that has not seen the other tab’s change, and keeps the other tab’s code', async () => {
    const a = tab();
    expect(await a(doc('s1', 'A0'))).toBe(true); // created by tab A
    const b = tab(await opened('s1')); // tab B opens it
    expect(await b(doc('s1', 'B1'))).toBe(true); // B changes it
    expect(await a(doc('s1', 'A1'))).toBe(false); // A still holds the revision before B's change: refused
    expect(await storedCode('s1')).toBe('B1');
    expect(await b(doc('s1', 'B2'))).toBe(true); // B goes on
    expect(await storedCode('s1')).toBe('B2');
  });

  it('lets a tab that opened the session and saved it unchanged take nothing from the first tab', async () => {
    const a = tab();
    expect(await a(doc('s2', 'A0', 10))).toBe(true);
    const b = tab(await opened('s2')); // tab B opens it
    expect(await b(doc('s2', 'A0', 12))).toBe(true); // B's save on opening: same content, newer updatedAt
    expect(await a(doc('s2', 'A1', 13))).toBe(true); // A types: B wrote nothing A had not written
    expect(await b(doc('s2', 'B1', 14))).toBe(false); // B types over A's change: refused
    expect(await storedCode('s2')).toBe('A1');
  });

  it('moves updatedAt strictly forward, even when a clock says the same millisecond or earlier', async () => {
    const a = tab();
    expect(await a(doc('s3', 'x', 500))).toBe(true);
    expect(await a(doc('s3', 'y', 500))).toBe(true);
    expect(await a(doc('s3', 'z', 400))).toBe(true);
    const p = await db.getSession('s3');
    expect(p?.ok && p.value.updatedAt).toBe(502);
  });

  it('refuses a run together with its document: one tab’s run #1 never replaces the other’s', async () => {
    const a = tab();
    expect(await a(doc('s4', 'A'), run('s4', 1, 0.25))).toBe(true);
    const b = tab({ ...doc('s4', 'A'), updatedAt: 0 }); // B saw an older revision
    expect(await b(doc('s4', 'B'), run('s4', 1, 0.75))).toBe(false);
    const runs = await db.getRuns('s4', 1);
    expect(runs.map((r) => r.meta.summary.mean)).toEqual([0.25]);
    expect(await storedCode('s4')).toBe('A');
  });

  it('writes a session deleted in another tab back rather than dropping this tab’s work', async () => {
    const a = tab();
    expect(await a(doc('s5', 'A0'))).toBe(true);
    await db.deleteSession('s5');
    expect(await a(doc('s5', 'A1'))).toBe(true);
    expect(await storedCode('s5')).toBe('A1');
  });

  it('copies a session with its data file and runs under a new id; the original is untouched', async () => {
    await db.putSession(doc('s6', 'original'));
    await db.putBlob({ sessionId: 's6', blob: new Blob(['{"a":1}\n']), name: 'x.jsonl', dataVersion: 1 });
    await db.putRun(run('s6', 1, 0.5));
    await db.putRun(run('s6', 2, 1));
    await db.copySession('s6', { ...doc('s6-copy', 'original'), name: 'session s6 (copy)' });
    expect(await storedCode('s6-copy')).toBe('original');
    expect(await (await db.getBlob('s6-copy'))?.blob.text()).toBe('{"a":1}\n');
    expect((await db.getRuns('s6-copy', 1)).map((r) => [r.sessionId, r.id])).toEqual([
      ['s6-copy', 1],
      ['s6-copy', 2],
    ]);
    await db.deleteSession('s6-copy');
    expect((await db.getRuns('s6', 1)).map((r) => r.id)).toEqual([1, 2]);
    expect(await db.getBlob('s6')).toBeDefined();
  });
});

describe('docContent', () => {
  it('ignores updatedAt and key order, and sees any other change', () => {
    const d = doc('c', 'code');
    const reordered = Object.fromEntries(Object.entries(d).reverse());
    expect(db.docContent({ ...reordered, updatedAt: 999 })).toBe(db.docContent(d));
    expect(db.docContent({ ...d, editor: { ...d.editor, code: { ts: 'code ', py: '' } } })).not.toBe(db.docContent(d));
  });
});
