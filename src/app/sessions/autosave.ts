import { useStudio, type StudioState } from '../../store';
import { getDataset } from '../../runtime/datasetRegistry';
import * as db from '../../runtime/sessionDb';
import { currentDataFile } from '../studio';
import { currentDoc, runMeta, runPayload } from './convert';
import { session } from './state';

export async function saveNow(force = false): Promise<void> {
  if (session.saveTimer) clearTimeout(session.saveTimer);
  session.saveTimer = null;
  const s = useStudio.getState();
  if ((session.restoring && !force) || !s.sessionId) return;
  const doc = currentDoc(session.createdAt.get(s.sessionId));
  session.createdAt.set(doc.id, doc.createdAt);
  try {
    await db.putSession(doc);
  } catch (e) {
    console.warn('autosave failed', e);
  }
}

export function scheduleSave(): void {
  if (session.saveTimer) clearTimeout(session.saveTimer);
  session.saveTimer = setTimeout(() => void saveNow(), 150);
}

/** Persist each finished run once (typed arrays and summary), immediately: a reload right after a run keeps it. */
export async function saveRuns(s: StudioState): Promise<void> {
  const ds = getDataset(s.datasetId);
  if (!s.sessionId || !ds) return;
  for (const r of s.runs) {
    const key = `${s.sessionId}/${r.id}`;
    if (session.savedRuns.has(key) || r.datasetId !== ds.id) continue;
    session.savedRuns.add(key);
    try {
      // The document goes with the run in one transaction: it names this run as current, so a reload straight after
      // a run shows that run (a debounced document save could still be pending).
      const doc = currentDoc(session.createdAt.get(s.sessionId));
      session.createdAt.set(doc.id, doc.createdAt);
      await db.putRun({ sessionId: s.sessionId, id: r.id, dataVersion: s.dataVersion, meta: runMeta(r), payload: runPayload(r) }, doc);
    } catch (e) {
      session.savedRuns.delete(key);
      console.warn('saving a run failed', e);
    }
  }
}

export async function saveBlob(s: StudioState): Promise<void> {
  const file = currentDataFile();
  if (!s.sessionId || !file || s.dataSource.kind === 'demo' || s.dataSource.kind === 'none') return;
  try {
    await db.putBlob({ sessionId: s.sessionId, blob: file.blob, name: file.name, dataVersion: s.dataVersion });
  } catch (e) {
    console.warn('saving the data failed', e);
  }
}

export function installAutosave(): void {
  if (session.autosaveInstalled) return;
  session.autosaveInstalled = true;
  useStudio.subscribe((s, prev) => {
    if (session.restoring || !s.sessionId) return;
    if (s.dataVersion !== prev.dataVersion && s.sessionId === prev.sessionId) void saveBlob(s);
    if (s.runs !== prev.runs) void saveRuns(s);
    if (
      s.codes !== prev.codes ||
      s.language !== prev.language ||
      s.tokenizer !== prev.tokenizer ||
      s.timeLimitMs !== prev.timeLimitMs ||
      s.pyFunction !== prev.pyFunction ||
      s.pyBatchSize !== prev.pyBatchSize ||
      s.diagTab !== prev.diagTab ||
      s.lengthUnit !== prev.lengthUnit ||
      s.preset !== prev.preset ||
      s.labelColumn !== prev.labelColumn ||
      s.selectedRow !== prev.selectedRow ||
      s.runs !== prev.runs ||
      s.currentRunId !== prev.currentRunId ||
      s.dataVersion !== prev.dataVersion ||
      s.origin !== prev.origin ||
      s.pendingFile !== prev.pendingFile ||
      s.sessionName !== prev.sessionName ||
      s.datasetId !== prev.datasetId
    ) {
      scheduleSave();
    }
  });
}
