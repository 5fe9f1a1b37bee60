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
  /** A dataset of several files (core/dataset/parts.ts), in reading order; `blob` is then its first. Checked when read back. */
  parts?: { blob: Blob; name: string; step: number | null }[];
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

/** What this tab last read or wrote of a session: the stored `updatedAt`, and the content it wrote (if it wrote). */
export interface SeenRevision {
  updatedAt: number;
  content?: string;
}
/** What a guarded save did: written (`seen` is what it stored), or refused because the stored document changed since
 *  this tab last saw it (another tab saved other content; `theirs` is that document's `updatedAt`). */
export type GuardedSave = { ok: true; seen: SeenRevision } | { ok: false; theirs: number };

const storedUpdatedAt = (raw: unknown): number => {
  const u = (raw as { updatedAt?: unknown } | undefined)?.updatedAt;
  return typeof u === 'number' && Number.isFinite(u) ? u : 0;
};

/** A document's content, whatever its key order, without `updatedAt`: two saves of the same state compare equal. */
export function docContent(doc: unknown): string {
  return JSON.stringify(doc, (key, value: unknown) => {
    if (key === 'updatedAt') return undefined;
    if (value && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)) {
      return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return value;
  });
}

/**
 * Save a session document only if the stored one is still what this tab last saw (`seen`; null for a session this
 * tab created and has not saved yet): the same `updatedAt`, or, rewritten by another tab since, the same content this
 * tab wrote (a tab that opened the session and saved it unchanged takes nothing from this one). Read, compare and
 * write happen in one transaction, so two tabs can never both pass. Every write moves `updatedAt` strictly forward,
 * so it serves as a revision number without a new field in the saved shape. With `run`, the run is stored in the
 * same transaction (and refused with it). A document deleted meanwhile is written back: nothing this tab holds is dropped.
 */
export async function saveSessionGuarded(doc: SessionDoc, seen: SeenRevision | null, run?: StoredRun): Promise<GuardedSave> {
  const d = await db();
  const tx = d.transaction(['sessions', 'runs'], 'readwrite');
  const sessions = tx.objectStore('sessions');
  const current = await sessions.get(doc.id);
  const unchanged =
    current === undefined ||
    (seen !== null && (storedUpdatedAt(current) === seen.updatedAt || (seen.content !== undefined && docContent(current) === seen.content)));
  if (!unchanged) {
    await tx.done;
    return { ok: false, theirs: storedUpdatedAt(current) };
  }
  const stored = { ...doc, updatedAt: Math.max(doc.updatedAt, storedUpdatedAt(current) + 1) };
  await Promise.all([sessions.put(stored), run ? tx.objectStore('runs').put(run) : null, tx.done]);
  return { ok: true, seen: { updatedAt: stored.updatedAt, content: docContent(stored) } };
}

/**
 * A copy of a saved session under a new document (`doc`: its new id and name), with its data file and runs, in one
 * transaction: a tab that finds the session open in another tab works on the copy.
 */
export async function copySession(fromId: string, doc: SessionDoc): Promise<void> {
  const d = await db();
  const tx = d.transaction(['sessions', 'blobs', 'runs'], 'readwrite');
  const [blob, runs] = await Promise.all([tx.objectStore('blobs').get(fromId), tx.objectStore('runs').index('bySession').getAll(fromId)]);
  await Promise.all([
    tx.objectStore('sessions').put(doc),
    blob ? tx.objectStore('blobs').put({ ...blob, sessionId: doc.id }) : null,
    ...runs.map((r) => tx.objectStore('runs').put({ ...r, sessionId: doc.id })),
    tx.done,
  ]);
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
