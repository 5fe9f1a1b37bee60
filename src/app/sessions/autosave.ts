import { useStudio, type StudioState } from '../../store';
import type { SessionDoc } from '../../core/session/schema';
import { getDataset } from '../../runtime/datasetRegistry';
import * as db from '../../runtime/sessionDb';
import { currentDataFile } from '../studio';
import { currentDoc, runMeta, runPayload } from './convert';
import { newId, rememberCurrent, session } from './state';
import { claimSession, mirrorEditor, rememberTabSession } from './tabs';

let writes: Promise<unknown> = Promise.resolve();

/** Writes queued or in flight, and a scheduled save: the header says "Saving…" until all have landed. */
let pending = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((f) => f());
export const saveStatus = {
  get: (): 'saving' | 'saved' => (pending > 0 || session.saveTimer ? 'saving' : 'saved'),
  subscribe(f: () => void): () => void {
    listeners.add(f);
    return () => listeners.delete(f);
  },
};
function tracked<T>(job: Promise<T>): Promise<T> {
  pending++;
  notify();
  return job.finally(() => {
    pending--;
    notify();
  });
}

/**
 * Session documents are written one at a time, each only over the revision this tab last saw
 * (sessionDb.saveSessionGuarded). A refused write means another tab saved the session meanwhile: this tab's work is
 * then kept as a new session and the user is told, never written over the other tab's (nor dropped).
 */
function writeDoc(doc: SessionDoc, run?: db.StoredRun): Promise<boolean> {
  const job = writes.then(async () => {
    const r = await db.saveSessionGuarded(doc, session.revision.get(doc.id) ?? null, run);
    if (r.ok) {
      session.revision.set(doc.id, r.seen);
      return true;
    }
    await keepAsNewSession(doc);
    return false;
  });
  writes = job.catch(() => undefined);
  return tracked(job);
}

/** Runs inside the write queue: writes directly, and leaves the runs and data file to saves queued after it. */
async function keepAsNewSession(refused: SessionDoc): Promise<void> {
  const s = useStudio.getState();
  const id = newId();
  const name = `${refused.name} (copy)`;
  const now = Date.now();
  if (s.sessionId === refused.id) {
    // The session this tab is on: the tab goes on under a new id, with everything it holds (code, runs, data).
    session.restoring = true;
    try {
      s.setSession({ sessionId: id, sessionName: name });
    } finally {
      session.restoring = false;
    }
    session.createdAt.set(id, now);
    rememberTabSession(id);
    rememberCurrent(id);
    void claimSession(id);
    const r = await db.saveSessionGuarded(currentDoc(now), null);
    if (r.ok) session.revision.set(id, r.seen);
    const after = useStudio.getState();
    void saveBlob(after);
    void saveRuns(after);
    after.setSessionMessage({
      kind: 'error',
      text: `“${refused.name}” was changed in another tab. Nothing was written over: your work in this tab is saved here as a new session, “${name}”, and the other tab's version is still “${refused.name}” in Sessions.`,
    });
  } else {
    // A session this tab has just left (its last edits): kept beside the other tab's version.
    const r = await db.saveSessionGuarded({ ...refused, id, name, createdAt: now, updatedAt: now }, null);
    if (r.ok) session.revision.set(id, r.seen);
    s.setSessionMessage({
      kind: 'error',
      text: `“${refused.name}” was changed in another tab, so your last edits to it were saved here as a new session, “${name}” (in Sessions).`,
    });
  }
}

export async function saveNow(force = false): Promise<void> {
  if (session.saveTimer) clearTimeout(session.saveTimer);
  session.saveTimer = null;
  notify();
  const s = useStudio.getState();
  if ((session.restoring && !force) || !s.sessionId) return;
  const doc = currentDoc(session.createdAt.get(s.sessionId));
  session.createdAt.set(doc.id, doc.createdAt);
  try {
    if (session.relabelled.size) await saveRelabelled(s);
    await writeDoc(doc);
  } catch (e) {
    console.warn('autosave failed', e);
  }
}

/** Runs named or noted since they were written: written again, here rather than per keystroke (a run is one record, scores included). */
async function saveRelabelled(s: StudioState): Promise<void> {
  for (const r of s.runs) {
    const key = `${s.sessionId}/${r.id}`;
    if (!session.relabelled.delete(key) || r.datasetId !== s.datasetId) continue;
    const doc = currentDoc(session.createdAt.get(s.sessionId!));
    await writeDoc(doc, { sessionId: s.sessionId!, id: r.id, dataVersion: s.dataVersion, meta: runMeta(r), payload: runPayload(r) });
  }
}

/** Drops a scheduled save (the session it would write is being deleted). */
export function cancelScheduledSave(): void {
  if (session.saveTimer) clearTimeout(session.saveTimer);
  session.saveTimer = null;
  notify();
}

export function scheduleSave(): void {
  if (session.saveTimer) clearTimeout(session.saveTimer);
  session.saveTimer = setTimeout(() => void saveNow(), 150);
  notify();
}

/** Persist each finished run once (typed arrays and summary), immediately: a reload right after a run keeps it. */
export async function saveRuns(s: StudioState): Promise<void> {
  const ds = getDataset(s.datasetId);
  if (!s.sessionId || !ds) return;
  for (const r of s.runs) {
    const key = `${s.sessionId}/${r.id}`;
    if (session.savedRuns.has(key) || r.datasetId !== ds.id) continue;
    // The tab moved to another session meanwhile (switched, or kept as a new one after a conflict): that one saves its own.
    if (useStudio.getState().sessionId !== s.sessionId) return;
    session.savedRuns.add(key);
    try {
      // The document goes with the run in one transaction: it names this run as current, so a reload straight after
      // a run shows that run (a debounced document save could still be pending).
      const doc = currentDoc(session.createdAt.get(s.sessionId));
      session.createdAt.set(doc.id, doc.createdAt);
      const stored = await writeDoc(doc, { sessionId: s.sessionId, id: r.id, dataVersion: s.dataVersion, meta: runMeta(r), payload: runPayload(r) });
      if (!stored) {
        session.savedRuns.delete(key); // saved under the new session instead
        return;
      }
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
    const parts = file.parts?.map((p) => ({ blob: p.blob, name: p.name, step: p.step }));
    await tracked(db.putBlob({ sessionId: s.sessionId, blob: file.blob, name: file.name, dataVersion: s.dataVersion, ...(parts ? { parts } : {}) }));
  } catch (e) {
    console.warn('saving the data failed', e);
  }
}

export function installAutosave(): void {
  if (session.autosaveInstalled) return;
  session.autosaveInstalled = true;
  // Leaving with a save still scheduled: start it now, so the last edits have a chance to land.
  addEventListener('pagehide', () => {
    if (session.saveTimer) void saveNow();
  });
  useStudio.subscribe((s, prev) => {
    // Keystrokes reach this tab's mirror at once (IndexedDB a moment later), tagged with their session. Only a change
    // of code is mirrored: a new session id alone would tag the code still in the editor with a session it is not from.
    if (s.sessionId && (s.codes !== prev.codes || s.language !== prev.language)) {
      mirrorEditor({ sessionId: s.sessionId, language: s.language, codes: s.codes });
    }
    if (session.restoring || !s.sessionId) return;
    if (s.dataVersion !== prev.dataVersion && s.sessionId === prev.sessionId) void saveBlob(s);
    // In a task of its own: writing a run (its scores copied into IndexedDB, ~20 ms at a million rows) would lengthen
    // the task that takes the run in and draws it.
    if (s.runs !== prev.runs) setTimeout(() => void saveRuns(s), 0);
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
      s.tableColumns !== prev.tableColumns ||
      s.columnFilters !== prev.columnFilters ||
      s.sortKey !== prev.sortKey ||
      s.sortDesc !== prev.sortDesc ||
      s.selectedRow !== prev.selectedRow ||
      s.overlayRuns !== prev.overlayRuns ||
      s.groupByColumn !== prev.groupByColumn ||
      s.shaping !== prev.shaping ||
      s.stepsMaxLength !== prev.stepsMaxLength ||
      s.shapeDiagnostics !== prev.shapeDiagnostics ||
      s.linkModels !== prev.linkModels ||
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
