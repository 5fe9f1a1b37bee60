import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';
import { DEFAULT_REWARD_PY } from '../core/reward/defaultRewardPy';
import type { ColumnMapping, FormatId } from '../core/formats/types';
import { readSessionFile, writeSessionFile, SESSION_FILE_SUFFIX, type RunPayload } from '../core/session/sessionFile';
import type { DataRef, RunMeta, SessionDoc, SharedSession, UiState } from '../core/session/schema';
import { decodeShare, encodeShare, frameBodySize, INLINE_LIMIT } from '../core/session/shareCodec';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import type { PresetId } from '../core/stats/advantage';
import { useStudio, type StudioState } from '../store';
import { storedEditor, storedLocal, storeLocal } from '../store/editorSlice';
import type { RunRecord } from '../store/runsSlice';
import { getDataset } from './datasetRegistry';
import { sha256Cached } from './hash';
import * as db from './sessionDb';
import { adoptRuns, currentDataFile, importBlob, loadDemo, resetRuns, runReward } from './studio';

/**
 * Sessions: autosaved in IndexedDB (document, data file, runs), switched and deleted from the session list,
 * shared by link (`#s=…`), exported and imported as one file. Code that arrives from a link or a file is put in the
 * editor and never run until the user presses Run.
 */
const CURRENT_KEY = 'reward-studio:session';
/** Files up to this size are tried inline in a share link (the compressed body must stay under INLINE_LIMIT). */
const INLINE_TRY_BYTES = 8 * 1024 * 1024;

/** True while a session is being put in place: autosave waits, so a half-applied state is never written. */
let restoring = false;
/** Runs already written to IndexedDB, by session. */
const savedRuns = new Set<string>();
let saveTimer: ReturnType<typeof setTimeout> | null = null;

const newId = () => globalThis.crypto?.randomUUID?.() ?? `s${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

const rememberCurrent = (id: string) => storeLocal(CURRENT_KEY, id);
const currentIdFromStorage = () => storedLocal(CURRENT_KEY);

// ---- conversions -------------------------------------------------------------------------------------------

export function runMeta(r: RunRecord): RunMeta {
  const m: RunMeta = {
    id: r.id,
    code: r.code,
    language: r.language,
    startedAt: r.startedAt,
    elapsedMs: r.elapsedMs,
    cancelled: r.cancelled,
    summary: { ...r.summary, mean: Number.isNaN(r.summary.mean) ? null : r.summary.mean },
  };
  if (r.pyFunction) m.pyFunction = r.pyFunction;
  return m;
}

function runPayload(r: RunRecord): RunPayload {
  const { result } = r;
  return {
    scores: result.scores,
    status: result.status,
    components: result.components,
    errors: [...result.errors.values()],
    notes: [...result.notes.entries()],
    stdout: result.stdout,
  };
}

function runRecord(meta: RunMeta, p: RunPayload, datasetId: string): RunRecord {
  return {
    id: meta.id,
    code: meta.code,
    language: meta.language,
    pyFunction: meta.pyFunction,
    datasetId,
    startedAt: meta.startedAt,
    elapsedMs: meta.elapsedMs,
    cancelled: meta.cancelled,
    summary: { ...meta.summary, mean: meta.summary.mean ?? Number.NaN },
    result: {
      scores: p.scores,
      status: p.status,
      components: p.components,
      errors: new Map(p.errors.map((e) => [e.row, e])),
      notes: new Map(p.notes),
      stdout: p.stdout,
    },
  };
}

function uiState(s: StudioState): UiState {
  return { diagTab: s.diagTab, lengthUnit: s.lengthUnit, preset: s.preset, labelColumn: s.labelColumn, selectedRow: s.selectedRow };
}

/** The persisted reference to the loaded data (a pending link file counts as the session's data). */
function dataRef(s: StudioState): DataRef {
  const ds = getDataset(s.datasetId);
  const file = currentDataFile();
  if (s.pendingFile) {
    const p = s.pendingFile;
    return {
      kind: 'file',
      name: p.name,
      rows: p.rows,
      size: p.size,
      sha256: p.sha256,
      import: { format: p.format as FormatId | undefined, mapping: p.mapping as ColumnMapping | undefined },
    };
  }
  if (!ds || !file || s.dataSource.kind === 'none') return { kind: 'none' };
  const choice = { ...(file.format ? { format: file.format } : {}), ...(file.mapping ? { mapping: file.mapping } : {}) };
  if (s.dataSource.kind === 'demo') return { kind: 'demo' };
  if (s.dataSource.kind === 'url') return { kind: 'url', url: s.dataSource.url, name: file.name, rows: ds.size, import: choice };
  return { kind: 'file', name: file.name, rows: ds.size, size: file.blob.size, import: choice };
}

function currentDoc(createdAt?: number): SessionDoc {
  const s = useStudio.getState();
  return {
    v: 1,
    id: s.sessionId!,
    name: s.sessionName || 'Session',
    createdAt: createdAt ?? Date.now(),
    updatedAt: Date.now(),
    editor: {
      language: s.language,
      code: { ...s.codes },
      tokenizer: s.tokenizer,
      timeLimitMs: s.timeLimitMs,
      pyFunction: s.pyFunction,
      pyBatchSize: s.pyBatchSize,
    },
    ui: uiState(s),
    data: dataRef(s),
    dataVersion: s.dataVersion,
    runs: [],
    currentRunId: s.currentRunId,
    origin: s.origin,
  };
}

// ---- autosave ----------------------------------------------------------------------------------------------

const createdAt = new Map<string, number>();

async function saveNow(force = false): Promise<void> {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = null;
  const s = useStudio.getState();
  if ((restoring && !force) || !s.sessionId) return;
  const doc = currentDoc(createdAt.get(s.sessionId));
  createdAt.set(doc.id, doc.createdAt);
  try {
    await db.putSession(doc);
  } catch (e) {
    console.warn('autosave failed', e);
  }
}

function scheduleSave(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => void saveNow(), 150);
}

/** Persist each finished run once (typed arrays and summary), immediately: a reload right after a run keeps it. */
async function saveRuns(s: StudioState): Promise<void> {
  const ds = getDataset(s.datasetId);
  if (!s.sessionId || !ds) return;
  for (const r of s.runs) {
    const key = `${s.sessionId}/${r.id}`;
    if (savedRuns.has(key) || r.datasetId !== ds.id) continue;
    savedRuns.add(key);
    try {
      // The document goes with the run in one transaction: it names this run as current, so a reload straight after
      // a run shows that run (a debounced document save could still be pending).
      const doc = currentDoc(createdAt.get(s.sessionId));
      createdAt.set(doc.id, doc.createdAt);
      await db.putRun({ sessionId: s.sessionId, id: r.id, dataVersion: s.dataVersion, meta: runMeta(r), payload: runPayload(r) }, doc);
    } catch (e) {
      savedRuns.delete(key);
      console.warn('saving a run failed', e);
    }
  }
}

async function saveBlob(s: StudioState): Promise<void> {
  const file = currentDataFile();
  if (!s.sessionId || !file || s.dataSource.kind === 'demo' || s.dataSource.kind === 'none') return;
  try {
    await db.putBlob({ sessionId: s.sessionId, blob: file.blob, name: file.name, dataVersion: s.dataVersion });
  } catch (e) {
    console.warn('saving the data failed', e);
  }
}

let autosaveInstalled = false;
function installAutosave(): void {
  if (autosaveInstalled) return;
  autosaveInstalled = true;
  useStudio.subscribe((s, prev) => {
    if (restoring || !s.sessionId) return;
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

// ---- opening sessions --------------------------------------------------------------------------------------

function applyUi(ui: UiState, rows: number): void {
  const s = useStudio.getState();
  s.setDiagTab(ui.diagTab);
  s.setLengthUnit(ui.lengthUnit);
  s.setPreset(ui.preset as PresetId);
  s.setLabelColumn(ui.labelColumn);
  s.selectRow(ui.selectedRow !== null && ui.selectedRow < rows ? ui.selectedRow : null);
}

function beginSession(id: string, name: string): void {
  // The session being left keeps its last edits (its document is built now, before anything changes).
  if (saveTimer) {
    clearTimeout(saveTimer);
    void saveNow(true);
  }
  const s = useStudio.getState();
  s.setSession({ sessionId: id, sessionName: name });
  s.setOrigin(null);
  s.setPendingFile(null);
  s.setDataVersion(0);
  resetRuns();
  rememberCurrent(id);
}

/** Load a session's data: the demo, its saved file, or its URL. Never runs the code. */
async function loadSessionData(doc: SessionDoc): Promise<boolean> {
  const d = doc.data;
  if (d.kind === 'demo') return loadDemo({ run: false, restoring: true });
  if (d.kind === 'none') return true;
  const saved = await db.getBlob(doc.id);
  const choice = { format: d.import.format, mapping: d.import.mapping };
  if (saved && saved.dataVersion === doc.dataVersion) {
    return importBlob(saved.blob, saved.name, {
      ...choice,
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
  restoring = true;
  try {
    beginSession(doc.id, doc.name);
    createdAt.set(doc.id, doc.createdAt);
    const s = useStudio.getState();
    // Local storage is written on every keystroke; IndexedDB a moment later: after a reload, the keystrokes win.
    const local = opts.preferLocalCode ? storedEditor() : null;
    const codes = local ? { ...doc.editor.code, ...local.codes } : doc.editor.code;
    s.loadEditor({ ...doc.editor, language: local?.language ?? doc.editor.language, codes, tokenizer: doc.editor.tokenizer as TokenizerId });
    s.setDataVersion(doc.dataVersion);
    s.setOrigin(doc.origin);
    const loaded = await loadSessionData(doc);
    const ds = getDataset(useStudio.getState().datasetId);
    if (loaded && ds) {
      applyUi(doc.ui, ds.size);
      const stored = await db.getRuns(doc.id, doc.dataVersion);
      const runs = stored.filter((r) => r.payload.scores.length === ds.size).map((r) => runRecord(r.meta, r.payload, ds.id));
      for (const r of runs) savedRuns.add(`${doc.id}/${r.id}`);
      const current = runs.find((r) => r.id === doc.currentRunId) ?? runs.at(-1) ?? null;
      adoptRuns(runs, current?.id ?? null);
    }
  } finally {
    restoring = false;
  }
  await saveNow(); // at once: a reload straight after opening must find this session
  const s = useStudio.getState();
  if (s.datasetId && s.runs.length === 0 && !s.origin) await runReward();
}

/** A new session on the demo rollouts, scored by the editor's code (the first open) or the default reward. */
export async function newSession(opts: { keepCode?: boolean } = {}): Promise<void> {
  const id = newId();
  restoring = true;
  try {
    beginSession(id, 'GSM8K demo');
    createdAt.set(id, Date.now());
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
    restoring = false;
  }
  await saveNow(); // at once: a reload straight after opening must find this session
  await loadDemo();
}

export async function switchSession(id: string): Promise<void> {
  if (id === useStudio.getState().sessionId) return;
  const p = await db.getSession(id);
  if (!p || !p.ok) {
    useStudio.getState().setSessionMessage({
      kind: 'error',
      text: `That session could not be opened: ${p && !p.ok ? p.message : 'it is gone'}. Your current session is unchanged.`,
    });
    return;
  }
  await openSession(p.value);
}

export async function removeSession(id: string): Promise<void> {
  await db.deleteSession(id);
  if (id === useStudio.getState().sessionId) {
    const { sessions } = await db.listSessions();
    if (sessions[0]) await openSession(sessions[0]);
    else await newSession();
  }
}

export const listSessions = db.listSessions;

// ---- share links -------------------------------------------------------------------------------------------

export interface ShareLink {
  url: string;
  /** What the data part of the link is. */
  data: { kind: 'demo' | 'url' | 'none' } | { kind: 'inline'; bytes: number } | { kind: 'file'; name: string; sha256: string; size: number };
}

/** Build the share link of the current session: code, settings, the selected run, the open rollout, and the data. */
export async function makeShareLink(): Promise<ShareLink> {
  const s = useStudio.getState();
  const run = s.runs.find((r) => r.id === s.currentRunId);
  const base: Omit<SharedSession, 'data'> = {
    v: 2,
    name: s.sessionName || 'Shared session',
    editor: { language: s.language, code: s.code, tokenizer: s.tokenizer, timeLimitMs: s.timeLimitMs, pyFunction: s.pyFunction, pyBatchSize: s.pyBatchSize },
    ui: uiState(s),
    run: run ? runMeta(run) : null,
  };
  const file = currentDataFile();
  let ref = dataRef(s);
  const here = `${location.origin}${location.pathname}#s=`;
  if (ref.kind === 'file' && file && !s.pendingFile) {
    const sha256 = await sha256Cached(file.blob);
    if (file.blob.size <= INLINE_TRY_BYTES) {
      const bytes = new Uint8Array(await file.blob.arrayBuffer());
      const text = encodeShare({ ...base, data: { kind: 'inline', name: file.name, rows: ref.rows, size: bytes.length, sha256, import: ref.import } }, bytes);
      if (frameBodySize(text) <= INLINE_LIMIT) return { url: here + text, data: { kind: 'inline', bytes: frameBodySize(text) } };
    }
    ref = { ...ref, sha256 };
  }
  const text = encodeShare({ ...base, data: ref });
  if (ref.kind === 'file') return { url: here + text, data: { kind: 'file', name: ref.name, sha256: ref.sha256!, size: ref.size } };
  return { url: here + text, data: { kind: ref.kind === 'url' ? 'url' : ref.kind === 'demo' ? 'demo' : 'none' } };
}

/** Open a decoded link as a new session (the user's own sessions stay as they are); nothing runs. */
async function openShared(shared: SharedSession, data: Uint8Array | null, migratedFrom?: number): Promise<void> {
  const id = newId();
  const s0 = useStudio.getState();
  restoring = true;
  try {
    beginSession(id, shared.name.startsWith('Shared') ? shared.name : `Shared: ${shared.name}`);
    createdAt.set(id, Date.now());
    const e = shared.editor;
    const codes = { ts: DEFAULT_REWARD_TS, py: DEFAULT_REWARD_PY, [e.language]: e.code } as Record<'ts' | 'py', string>;
    s0.loadEditor({
      language: e.language,
      codes,
      tokenizer: e.tokenizer as TokenizerId,
      timeLimitMs: e.timeLimitMs,
      pyFunction: e.pyFunction,
      pyBatchSize: e.pyBatchSize,
    });
    useStudio.getState().setOrigin({ from: 'link', at: Date.now(), run: shared.run });
    const d = shared.data;
    const choice = d.kind === 'demo' || d.kind === 'none' ? {} : { format: d.import.format, mapping: d.import.mapping };
    let loaded = false;
    if (d.kind === 'demo') loaded = await loadDemo({ run: false });
    else if (d.kind === 'inline' && data) loaded = await importBlob(new Blob([data as BlobPart]), d.name, { ...choice, source: { kind: 'file' }, run: false });
    else if (d.kind === 'url') loaded = await openUrlData(d.url, { ...choice, run: false });
    else if (d.kind === 'file' && d.sha256) {
      useStudio.getState().setPendingFile({ name: d.name, rows: d.rows, size: d.size, sha256: d.sha256, format: d.import.format, mapping: d.import.mapping });
    }
    const ds = getDataset(useStudio.getState().datasetId);
    if (loaded && ds) applyUi(shared.ui, ds.size);
    else pendingUi = shared.ui;
  } finally {
    restoring = false;
  }
  // Data that came inside the link is saved with the new session (autosave waited while it was put in place).
  await saveBlob(useStudio.getState());
  if (migratedFrom) {
    useStudio
      .getState()
      .setSessionMessage({ kind: 'info', text: `This link was made by an older version of the studio (link v${migratedFrom}) and was brought up to date.` });
  }
  await saveNow(); // at once: a reload straight after opening must find this session
}

/** Settings of a link whose file has not been dropped yet: applied once it is. */
let pendingUi: UiState | null = null;
useStudio.subscribe((s, prev) => {
  if (pendingUi && s.datasetId !== prev.datasetId && s.datasetId) {
    const ds = getDataset(s.datasetId);
    if (ds) applyUi(pendingUi, ds.size);
    pendingUi = null;
  }
});

// ---- URLs --------------------------------------------------------------------------------------------------

/** Load rollouts from a URL. The page may only connect to its own origin: any other gets a clear message. */
export async function openUrlData(
  url: string,
  opts: { run?: boolean; restoring?: boolean; format?: FormatId; mapping?: ColumnMapping } = {},
): Promise<boolean> {
  const st = useStudio.getState();
  let abs: URL;
  try {
    abs = new URL(url, location.href);
  } catch {
    st.setSessionMessage({ kind: 'error', text: `“${url}” is not a valid URL.` });
    return false;
  }
  const name = decodeURIComponent(abs.pathname.split('/').pop() || abs.hostname || 'data');
  let res: Response;
  try {
    res = await fetch(abs.href);
  } catch {
    const other = abs.origin !== location.origin;
    st.setSessionMessage({
      kind: 'error',
      text: other
        ? `The rollouts at ${abs.href} could not be fetched: this page may connect only to its own origin (${location.origin}), so that nothing you load ever leaves your machine. Download the file and drop it here instead.`
        : `The rollouts at ${abs.href} could not be fetched (the server did not answer).`,
    });
    return false;
  }
  if (!res.ok) {
    st.setSessionMessage({ kind: 'error', text: `The rollouts at ${abs.href} could not be fetched: HTTP ${res.status} ${res.statusText}.` });
    return false;
  }
  return importBlob(await res.blob(), name, {
    format: opts.format,
    mapping: opts.mapping,
    source: { kind: 'url', url: abs.href },
    run: opts.run,
    restoring: opts.restoring,
  });
}

// ---- session files -----------------------------------------------------------------------------------------

/** The whole session as one file: the document, the data (not for the demo) and every run on this data. */
export async function exportSessionFile(): Promise<{ name: string; bytes: Uint8Array }> {
  const s = useStudio.getState();
  const ds = getDataset(s.datasetId);
  const runs = s.runs.filter((r) => ds && r.datasetId === ds.id);
  const file = currentDataFile();
  const data = file && s.dataSource.kind !== 'demo' ? new Uint8Array(await file.blob.arrayBuffer()) : null;
  const doc: SessionDoc = { ...currentDoc(createdAt.get(s.sessionId ?? '')), runs: runs.map((r) => ({ ...runMeta(r), dataVersion: s.dataVersion })) };
  if (doc.data.kind === 'file' && file) doc.data = { ...doc.data, sha256: await sha256Cached(file.blob) };
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
    if (p) await db.putRun({ sessionId: id, id: m.id, dataVersion: m.dataVersion, meta: m, payload: p });
  }
  await db.putSession(mine);
  await openSession(mine);
  if (r.warnings.length) useStudio.getState().setSessionMessage({ kind: 'error', text: `${fileName}: ${r.warnings.join('; ')}.` });
  return true;
}

/** Open a share link as a new session; a link that cannot be opened leaves everything as it is, with a message. */
async function openLink(text: string): Promise<boolean> {
  const r = decodeShare(text);
  if (r.ok) {
    await openShared(r.session, r.data, r.migratedFrom);
    return true;
  }
  useStudio.getState().setSessionMessage({
    kind: 'error',
    text: `This share link cannot be opened: ${r.message}. Nothing from it was loaded or run; your own session is as you left it.`,
  });
  return false;
}

// ---- start -------------------------------------------------------------------------------------------------

/**
 * First thing the page does: open a share link (`#s=`) or a data URL (`?data=`) as a new session, else reopen the
 * session of the last visit, else start one on the demo.
 */
export async function startStudio(): Promise<void> {
  installAutosave();
  // A share link pasted into the address bar of an open studio changes only the fragment: open it too.
  window.addEventListener('hashchange', () => {
    const h = location.hash;
    if (!h.startsWith('#s=')) return;
    void openLink(h.slice(3)).finally(() => history.replaceState(null, '', location.pathname + location.search));
  });
  const hash = location.hash;
  const params = new URLSearchParams(location.search);
  const dataUrl = params.get('data');
  // The link has done its job once opened and saved: a reload then reopens the saved session instead of opening the
  // link again. Not before: a reload while the link's data is still being put in place and saved opens the link again.
  const dropLink = () => {
    if (!hash.startsWith('#s=') && !dataUrl) return;
    params.delete('data');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
  };
  if (hash.startsWith('#s=') && (await openLink(hash.slice(3)).finally(dropLink))) return;
  if (dataUrl) {
    // A new session with the user's own code (kept as it is in the editor), on the URL's data.
    beginSession(newId(), decodeURIComponent(dataUrl.split('/').pop() || 'Data from a URL'));
    createdAt.set(useStudio.getState().sessionId!, Date.now());
    if (!(await openUrlData(dataUrl))) await loadDemo({ run: true });
    await saveNow(); // at once: a reload straight after opening must find this session
    dropLink();
    return;
  }
  dropLink();
  let last: SessionDoc | null = null;
  try {
    const id = currentIdFromStorage();
    const p = id ? await db.getSession(id) : null;
    if (p?.ok) last = p.value;
    else if (p && !p.ok)
      useStudio.getState().setSessionMessage({ kind: 'error', text: `The last session could not be reopened: ${p.message}. A new one was started.` });
  } catch (e) {
    console.warn('IndexedDB unavailable: sessions are not saved', e);
  }
  if (last) await openSession(last, { preferLocalCode: true });
  else await newSession({ keepCode: true });
}
