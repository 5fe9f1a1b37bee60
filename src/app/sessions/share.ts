import { DEFAULT_REWARD_TS } from '../../core/reward/defaultReward';
import { DEFAULT_REWARD_PY } from '../../core/reward/defaultRewardPy';
import type { ColumnMapping, FormatId } from '../../core/formats/types';
import { modelsUsedBy } from '../../core/models/usedModels';
import type { ModelRef, SharedSession } from '../../core/session/schema';
import { encodeShare, frameBodySize, INLINE_LIMIT } from '../../core/session/shareCodec';
import type { TokenizerId } from '../../core/tokenize/tokenizers';
import { useStudio } from '../../store';
import { getDataset } from '../../runtime/datasetRegistry';
import { sha256Cached } from '../../runtime/hash';
import { currentDataFile, importBlob, loadDemo } from '../studio';
import { saveBlob, saveNow } from './autosave';
import { dataRef, runMeta, uiState } from './convert';
import { applyUi, beginSession } from './open';
import { INLINE_TRY_BYTES, newId, session } from './state';

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
    // The overlaid runs stay home: a link carries no run's scores, so their ids would name nothing there.
    ui: { ...uiState(s), overlayRuns: undefined },
    run: run ? runMeta(run) : null,
  };
  const models = usedModelRefs(s.code, s.language);
  if (models.length > 0) base.models = models;
  const file = currentDataFile();
  // A dataset of several files is not carried by a link (one file or its SHA-256 is): the receiver opens the folder.
  let ref: ReturnType<typeof dataRef> = file?.parts && !s.pendingFile ? { kind: 'none' } : dataRef(s);
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

/** The loaded models the editor's code reads, as a link names them: name, inputs and outputs, size, SHA-256, no weights. */
function usedModelRefs(code: string, language: 'ts' | 'py'): ModelRef[] {
  const loaded = useStudio.getState().models.filter((m) => m.info !== null);
  const used = new Set(
    modelsUsedBy(
      code,
      language,
      loaded.map((m) => m.id),
    ),
  );
  return loaded
    .filter((m) => used.has(m.id))
    .slice(0, 8)
    .map((m) => ({
      id: m.id,
      name: m.name,
      inputs: m.info!.inputs.slice(0, 16).map((t) => ({ name: t.name, shape: t.shape.slice(0, 8) })),
      outputs: m.info!.outputs.slice(0, 16).map((t) => ({ name: t.name, shape: t.shape.slice(0, 8) })),
      size: m.variant.size,
      sha256: m.info!.sha256,
    }));
}

/** Open a decoded link as a new session (the user's own sessions stay as they are); nothing runs. */
export async function openShared(shared: SharedSession, data: Uint8Array | null, migratedFrom?: number): Promise<void> {
  const id = newId();
  const s0 = useStudio.getState();
  session.restoring = true;
  try {
    beginSession(id, shared.name.startsWith('Shared') ? shared.name : `Shared: ${shared.name}`);
    session.createdAt.set(id, Date.now());
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
    // The models its reward used: the Reward models panel asks for them (the link holds no weights).
    useStudio.getState().setLinkModels(shared.models ?? []);
    // Only the code of the link's language came from it (the other language has the default template).
    useStudio.getState().setOrigin({ from: 'link', at: Date.now(), run: shared.run, languages: [e.language] });
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
    else session.pendingUi = shared.ui;
  } finally {
    session.restoring = false;
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

useStudio.subscribe((s, prev) => {
  if (session.pendingUi && s.datasetId !== prev.datasetId && s.datasetId) {
    const ds = getDataset(s.datasetId);
    if (ds) applyUi(session.pendingUi, ds.size);
    session.pendingUi = null;
  }
});

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
