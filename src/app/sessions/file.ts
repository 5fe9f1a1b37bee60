import { readSessionFile, writeSessionFile, SESSION_FILE_SUFFIX } from '../../core/session/sessionFile';
import type { SessionDoc } from '../../core/session/schema';
import { decodeShare } from '../../core/session/shareCodec';
import { sha256HexOf } from '../../core/digest';
import { useStudio } from '../../store';
import { getDataset } from '../../runtime/datasetRegistry';
import { sha256Cached } from '../../runtime/hash';
import * as db from '../../runtime/sessionDb';
import { currentDataFile } from '../studio';
import { currentDoc, runMeta, runPayload } from './convert';
import { openSession } from './open';
import { openShared } from './share';
import { newId, session } from './state';

/** The whole session as one file: the document, the data (not for the demo) and every run on this data. */
export async function exportSessionFile(): Promise<{ name: string; bytes: Uint8Array }> {
  const s = useStudio.getState();
  const ds = getDataset(s.datasetId);
  const runs = s.runs.filter((r) => ds && r.datasetId === ds.id);
  const file = currentDataFile();
  // A dataset of several files travels without its files (a session file holds one): opening it asks for them again.
  const data = file && !file.parts && s.dataSource.kind !== 'demo' ? new Uint8Array(await file.blob.arrayBuffer()) : null;
  const doc: SessionDoc = { ...currentDoc(session.createdAt.get(s.sessionId ?? '')), runs: runs.map((r) => ({ ...runMeta(r), dataVersion: s.dataVersion })) };
  if (doc.data.kind === 'file' && file && !file.parts) doc.data = { ...doc.data, sha256: await sha256Cached(file.blob) };
  const bytes = writeSessionFile({ doc, data, runs: new Map(runs.map((r) => [r.id, runPayload(r)])) });
  const safe = (s.sessionName || 'session').replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'session';
  return { name: `${safe}${SESSION_FILE_SUFFIX}`, bytes };
}

/** Open a session file as a new session: its runs' results come back, its code waits for Run. */
export async function importSessionFile(blob: Blob, fileName: string): Promise<boolean> {
  const r = readSessionFile(new Uint8Array(await blob.arrayBuffer()));
  const st = useStudio.getState();
  if (!r.ok) {
    st.setSessionMessage({ kind: 'error', text: `${fileName} could not be opened: ${r.message}. Your current session is unchanged.` });
    return false;
  }
  const { doc, data, runs } = r.content;
  const id = newId();
  const mine: SessionDoc = { ...doc, id, updatedAt: Date.now(), origin: { from: 'file', at: Date.now(), run: null }, runs: [] };
  if (data && doc.data.kind !== 'demo' && doc.data.kind !== 'none') {
    await db.putBlob({ sessionId: id, blob: new Blob([data as BlobPart]), name: doc.data.name, dataVersion: doc.dataVersion });
  }
  for (const m of doc.runs) {
    const p = runs.get(m.id);
    // The file's runs keep their scores; their code is marked as the file's (Restore code makes it wait for Run).
    if (p) await db.putRun({ sessionId: id, id: m.id, dataVersion: m.dataVersion, meta: { ...m, from: 'file' }, payload: p });
  }
  await db.putSession(mine);
  await openSession(mine);
  if (r.warnings.length) useStudio.getState().setSessionMessage({ kind: 'error', text: `${fileName}: ${r.warnings.join('; ')}.` });
  return true;
}

/** Open a share link as a new session; a link that cannot be opened leaves everything as it is, with a message. */
export async function openLink(text: string): Promise<boolean> {
  const r = decodeShare(text);
  let message = r.ok ? null : r.message;
  // Data carried in the link must be the data its SHA-256 names: a link edited by hand is refused whole.
  if (r.ok && r.session.data.kind === 'inline' && r.data && (await sha256HexOf(r.data as Uint8Array<ArrayBuffer>)) !== r.session.data.sha256) {
    message = 'the data it carries does not match its SHA-256';
  }
  if (r.ok && message === null) {
    await openShared(r.session, r.data, r.migratedFrom);
    return true;
  }
  useStudio.getState().setSessionMessage({
    kind: 'error',
    text: `This share link cannot be opened: ${message}. Nothing from it was loaded or run; your own session is as you left it.`,
  });
  return false;
}
