import { checkStoredParts } from '../../core/dataset/parts';
import { DEFAULT_REWARD_TS } from '../../core/reward/defaultReward';
import { DEFAULT_REWARD_PY } from '../../core/reward/defaultRewardPy';
import type { CodeOrigin, SessionDoc, UiState } from '../../core/session/schema';
import type { TokenizerId } from '../../core/tokenize/tokenizers';
import type { PresetId } from '../../core/stats/advantage';
import { useStudio } from '../../store';
import { failedBeforeThisStart } from '../panelFailures';
import { storedOrigin } from '../../store/editorSlice';
import { mergeOrigins } from '../../store/sessionSlice';
import { getDataset } from '../../runtime/datasetRegistry';
import * as db from '../../runtime/sessionDb';
import { adoptRuns, autoRun, importBlob, loadDemo, resetRuns } from '../studio';
import { cancelScheduledSave, saveNow } from './autosave';
import { runRecord } from './convert';
import { openUrlData } from './share';
import { newId, rememberCurrent, session } from './state';
import { claimSession, mirroredEditor, openElsewhere, rememberTabSession } from './tabs';

export function applyUi(ui: UiState, rows: number): void {
  const s = useStudio.getState();
  // Settings of the reward, not view state: restored even after a panel failed.
  s.setShaping(ui.shaping ?? []);
  s.setShapeDiagnostics(ui.shapeDiagnostics ?? false);
  s.setStepsMaxLength(ui.stepsMaxLength ?? null);
  if (failedBeforeThisStart()) {
    // A panel failed before this start (SessionNotices says so): the view state that may have caused it stays closed.
    s.setLengthUnit(ui.lengthUnit);
    s.setPreset(ui.preset as PresetId);
    return;
  }
  s.setDiagTab(ui.diagTab);
  s.setLengthUnit(ui.lengthUnit);
  s.setPreset(ui.preset as PresetId);
  s.setLabelColumn(ui.labelColumn);
  s.setTable(ui.table ?? { columns: [], filters: [], sortKey: 'index', sortDesc: false });
  s.selectRow(ui.selectedRow !== null && ui.selectedRow < rows ? ui.selectedRow : null);
  // A column this data does not have is not kept (the tab would fall back to its default anyway).
  const columns = getDataset(s.datasetId)?.detection.columns ?? [];
  s.setGroupByColumn(ui.groupBy === '' || (ui.groupBy && columns.includes(ui.groupBy)) ? ui.groupBy : null);
}

/** The runs overlaid in the Distribution tab, once the session's runs are in place: ids of runs not there are dropped. */
export function applyOverlay(ui: UiState): void {
  const s = useStudio.getState();
  if (failedBeforeThisStart() || !ui.overlayRuns) return;
  const kept = ui.overlayRuns.filter((id) => id !== s.currentRunId && s.runs.some((r) => r.id === id));
  // Every id gone: the default (the previous run) rather than a histogram with nothing beside the current run.
  s.setOverlayRuns(ui.overlayRuns.length > 0 && kept.length === 0 ? null : kept);
}

/**
 * Start putting a session in place. `origin` is where the editor's code came from, if the new session keeps the code
 * in the editor (a `?data=` address, a new session that keeps the code): code from a link or a file keeps waiting for
 * Run in the new session.
 */
export function beginSession(id: string, name: string, origin: CodeOrigin | null = null): void {
  // The session being left keeps its last edits (its document is built now, before anything changes).
  if (session.saveTimer) void saveNow(true);
  const s = useStudio.getState();
  s.setSession({ sessionId: id, sessionName: name });
  s.setOrigin(origin);
  s.setPendingFile(null);
  s.setLinkModels([]);
  s.setDataVersion(0);
  resetRuns();
  rememberCurrent(id);
  // This tab's session from now on (a reload reopens it), held so that no other tab opens it for editing.
  rememberTabSession(id);
  void claimSession(id);
}

/** Load a session's data: the demo, its saved file, or its URL. Never runs the code. */
export async function loadSessionData(doc: SessionDoc): Promise<boolean> {
  const d = doc.data;
  if (d.kind === 'demo') return loadDemo({ run: false, restoring: true });
  if (d.kind === 'none') return true;
  const saved = await db.getBlob(doc.id);
  const choice = { format: d.import.format, mapping: d.import.mapping };
  if (saved && saved.dataVersion === doc.dataVersion) {
    // A dataset of several files comes back as its files, checked as any data from storage (core/dataset/parts.ts).
    const parts = saved.parts === undefined ? undefined : checkStoredParts(saved.parts);
    if (parts === null) {
      useStudio.getState().setSessionMessage({ kind: 'error', text: `The files saved with this session cannot be read back: open ${saved.name} again.` });
      return false;
    }
    return importBlob(saved.blob, saved.name, {
      ...choice,
      ...(parts ? { parts } : {}),
      source: d.kind === 'url' ? { kind: 'url', url: d.url } : { kind: 'file' },
      run: false,
      restoring: true,
    });
  }
  if (d.kind === 'url') return openUrlData(d.url, { run: false, restoring: true, ...choice });
  if (d.kind === 'file' && d.sha256) {
    useStudio.getState().setPendingFile({ name: d.name, rows: d.rows, size: d.size, sha256: d.sha256, format: d.import.format, mapping: d.import.mapping });
  }
  return false;
}

/** Put a saved session in place: editor, settings, data, runs. Its own code runs only if it has no run yet. */
export async function openSession(doc: SessionDoc, opts: { preferLocalCode?: boolean } = {}): Promise<void> {
  // Keystrokes are mirrored at once; IndexedDB is written a moment later: after a reload, this session's keystrokes win.
  // Code taken from the mirror brings the stored origin along (read before beginSession writes the new session's).
  const local = opts.preferLocalCode ? mirroredEditor(doc.id) : null;
  const localOrigin = local ? storedOrigin() : null;
  session.restoring = true;
  try {
    beginSession(doc.id, doc.name);
    session.createdAt.set(doc.id, doc.createdAt);
    session.revision.set(doc.id, { updatedAt: doc.updatedAt });
    const s = useStudio.getState();
    const codes = local ? { ...doc.editor.code, ...local.codes } : doc.editor.code;
    s.loadEditor({ ...doc.editor, language: local?.language ?? doc.editor.language, codes, tokenizer: doc.editor.tokenizer as TokenizerId });
    s.setDataVersion(doc.dataVersion);
    s.setOrigin(mergeOrigins(doc.origin, localOrigin));
    // The models a link's reward needs are still asked for when the session that came from it is opened again.
    s.setLinkModels(doc.linkModels ?? []);
    const loaded = await loadSessionData(doc);
    const ds = getDataset(useStudio.getState().datasetId);
    if (loaded && ds) {
      applyUi(doc.ui, ds.size);
      const stored = await db.getRuns(doc.id, doc.dataVersion);
      const runs = stored.filter((r) => r.payload.scores.length === ds.size).map((r) => runRecord(r.meta, r.payload, ds.id));
      for (const r of runs) session.savedRuns.add(`${doc.id}/${r.id}`);
      const current = runs.find((r) => r.id === doc.currentRunId) ?? runs.at(-1) ?? null;
      adoptRuns(runs, current?.id ?? null);
      applyOverlay(doc.ui);
    }
  } finally {
    session.restoring = false;
  }
  await saveNow(); // at once: a reload straight after opening must find this session
  const s = useStudio.getState();
  if (s.datasetId && s.runs.length === 0) await autoRun();
}

/**
 * A new session on the demo rollouts, scored by the editor's code (the first open; code from a link or a file waits
 * for Run) or the default reward.
 */
export async function newSession(opts: { keepCode?: boolean } = {}): Promise<void> {
  const id = newId();
  session.restoring = true;
  try {
    beginSession(id, 'GSM8K demo', opts.keepCode ? useStudio.getState().origin : null);
    session.createdAt.set(id, Date.now());
    const s = useStudio.getState();
    if (!opts.keepCode) {
      s.loadEditor({
        language: 'ts',
        codes: { ts: DEFAULT_REWARD_TS, py: DEFAULT_REWARD_PY },
        tokenizer: s.tokenizer,
        timeLimitMs: 1000,
        pyFunction: null,
        pyBatchSize: 32,
      });
    }
  } finally {
    session.restoring = false;
  }
  await saveNow(); // at once: a reload straight after opening must find this session
  await loadDemo();
}

async function readSession(id: string): Promise<SessionDoc | null> {
  const p = await db.getSession(id);
  if (p?.ok) return p.value;
  useStudio.getState().setSessionMessage({
    kind: 'error',
    text: `That session could not be opened: ${p && !p.ok ? p.message : 'it is gone'}. Your current session is unchanged.`,
  });
  return null;
}

export async function switchSession(id: string): Promise<void> {
  if (id === useStudio.getState().sessionId) return;
  const doc = await readSession(id);
  if (!doc) return;
  if (!(await claimSession(doc.id))) {
    useStudio.getState().setSessionMessage({
      kind: 'error',
      text: `“${doc.name}” is open in another tab: go on there, or open a copy of it here. Your current session is unchanged.`,
    });
    return;
  }
  await openSession(doc);
}

/**
 * Open a copy of a saved session (its code, data and runs) under a new id: for a session another tab is working on,
 * so that neither tab writes over the other. The user is told.
 */
export async function openCopy(source: SessionDoc | string): Promise<void> {
  const doc = typeof source === 'string' ? await readSession(source) : source;
  if (!doc) return;
  const now = Date.now();
  const copy: SessionDoc = { ...doc, id: newId(), name: `${doc.name} (copy)`, createdAt: now, updatedAt: now };
  await db.copySession(doc.id, copy);
  await openSession(copy);
  useStudio.getState().setSessionMessage({
    kind: 'info',
    text: `“${doc.name}” is open in another tab. This tab works on a copy, “${copy.name}”, so that neither tab writes over the other; both are in Sessions.`,
  });
}

export async function removeSession(id: string): Promise<void> {
  const elsewhere = await openElsewhere();
  if (elsewhere.has(id)) {
    useStudio
      .getState()
      .setSessionMessage({ kind: 'error', text: 'That session is open in another tab: close it there before deleting it. Nothing was deleted.' });
    return;
  }
  const current = id === useStudio.getState().sessionId;
  if (current) cancelScheduledSave(); // a pending save would write the deleted session back
  await db.deleteSession(id);
  session.revision.delete(id);
  if (current) {
    const { sessions } = await db.listSessions();
    for (const next of sessions) {
      if (!elsewhere.has(next.id) && (await claimSession(next.id))) return openSession(next);
    }
    await newSession();
  }
}

export const listSessions = db.listSessions;
