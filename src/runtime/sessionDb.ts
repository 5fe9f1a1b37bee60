import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { RunPayload } from '../core/session/sessionFile';
import { parseSessionDoc, type RunMeta, type SessionDoc } from '../core/session/schema';

/**
 * IndexedDB (through `idb`): every session's document, its dataset file and its runs' scores.
 * - sessions: the SessionDoc (code, settings, data reference; validated with zod whenever it is read back)
 * - blobs: the dataset file of a session, as imported (not for the bundled demo)
 * - runs: one record per run: its summary and code (`meta`) and its typed arrays, written once when the run ends
 */
export interface StoredRun {
  sessionId: string;
  id: number;
  dataVersion: number;
  meta: RunMeta;
  payload: RunPayload;
}
export interface StoredBlob {
  sessionId: string;
  blob: Blob;
  name: string;
  dataVersion: number;
}

interface SessionDB extends DBSchema {
  sessions: { key: string; value: SessionDoc };
  blobs: { key: string; value: StoredBlob };
  runs: { key: [string, number]; value: StoredRun; indexes: { bySession: string } };
}

let dbPromise: Promise<IDBPDatabase<SessionDB>> | null = null;

function db(): Promise<IDBPDatabase<SessionDB>> {
  dbPromise ??= openDB<SessionDB>('reward-studio', 1, {
    upgrade(d) {
      d.createObjectStore('sessions', { keyPath: 'id' });
      d.createObjectStore('blobs', { keyPath: 'sessionId' });
      d.createObjectStore('runs', { keyPath: ['sessionId', 'id'] }).createIndex('bySession', 'sessionId');
    },
  });
  return dbPromise;
}

/** Every saved session that passes validation, newest first; the others are named in `invalid`. */
export async function listSessions(): Promise<{ sessions: SessionDoc[]; invalid: string[] }> {
  const all = await (await db()).getAll('sessions');
  const sessions: SessionDoc[] = [];
  const invalid: string[] = [];
  for (const raw of all) {
    const p = parseSessionDoc(raw);
    if (p.ok) sessions.push(p.value);
    else invalid.push(`${(raw as { id?: string }).id ?? '?'}: ${p.message}`);
  }
  sessions.sort((a, b) => b.updatedAt - a.updatedAt);
  return { sessions, invalid };
}

export async function getSession(id: string): Promise<ReturnType<typeof parseSessionDoc> | null> {
  const raw = await (await db()).get('sessions', id);
  return raw ? parseSessionDoc(raw) : null;
}

export async function putSession(doc: SessionDoc): Promise<void> {
  await (await db()).put('sessions', doc);
}

export async function deleteSession(id: string): Promise<void> {
  const d = await db();
  const tx = d.transaction(['sessions', 'blobs', 'runs'], 'readwrite');
  await Promise.all([
    tx.objectStore('sessions').delete(id),
    tx.objectStore('blobs').delete(id),
    tx.objectStore('runs').delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity])),
    tx.done,
  ]);
}

export async function putBlob(b: StoredBlob): Promise<void> {
  await (await db()).put('blobs', b);
}

export async function getBlob(sessionId: string): Promise<StoredBlob | undefined> {
  return (await db()).get('blobs', sessionId);
}

/** Store a run; with `doc`, the session document is written in the same transaction, so a reload can never see
 *  the new run with a document that does not yet select it (or the reverse). */
export async function putRun(r: StoredRun, doc?: SessionDoc): Promise<void> {
  const d = await db();
  if (!doc) {
    await d.put('runs', r);
    return;
  }
  const tx = d.transaction(['runs', 'sessions'], 'readwrite');
  await Promise.all([tx.objectStore('runs').put(r), tx.objectStore('sessions').put(doc), tx.done]);
}

/** The session's runs on its current data, oldest first. */
export async function getRuns(sessionId: string, dataVersion: number): Promise<StoredRun[]> {
  const all = await (await db()).getAllFromIndex('runs', 'bySession', sessionId);
  return all.filter((r) => r.dataVersion === dataVersion).sort((a, b) => a.id - b.id);
}
