import type { ColumnMapping, FormatId } from '../../core/formats/types';
import { type RunPayload } from '../../core/session/sessionFile';
import type { DataRef, RunMeta, SessionDoc, UiState } from '../../core/session/schema';
import { useStudio, type StudioState } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { getDataset } from '../../runtime/datasetRegistry';
import { currentDataFile } from '../studio';

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
  if (r.functions) m.functions = r.functions;
  if (r.from) m.from = r.from;
  if (r.name) m.name = r.name;
  if (r.note) m.note = r.note;
  return m;
}

export function runPayload(r: RunRecord): RunPayload {
  const { result } = r;
  return {
    scores: result.scores,
    status: result.status,
    components: result.components,
    errors: [...result.errors.values()],
    notes: [...result.notes.entries()],
    ...(result.strings ? { strings: result.strings } : {}),
    ...(result.steps ? { steps: result.steps } : {}),
    stdout: result.stdout,
  };
}

export function runRecord(meta: RunMeta, p: RunPayload, datasetId: string): RunRecord {
  return {
    id: meta.id,
    code: meta.code,
    language: meta.language,
    pyFunction: meta.pyFunction,
    ...(meta.functions ? { functions: meta.functions } : {}),
    datasetId,
    startedAt: meta.startedAt,
    elapsedMs: meta.elapsedMs,
    cancelled: meta.cancelled,
    summary: { ...meta.summary, mean: meta.summary.mean ?? Number.NaN },
    ...(meta.from ? { from: meta.from } : {}),
    ...(meta.name ? { name: meta.name } : {}),
    ...(meta.note ? { note: meta.note } : {}),
    result: {
      scores: p.scores,
      status: p.status,
      components: p.components,
      errors: new Map(p.errors.map((e) => [e.row, e])),
      notes: new Map(p.notes),
      ...(p.strings ? { strings: p.strings } : {}),
      ...(p.steps ? { steps: p.steps } : {}),
      stdout: p.stdout,
    },
  };
}

export function uiState(s: StudioState): UiState {
  return {
    diagTab: s.diagTab,
    lengthUnit: s.lengthUnit,
    preset: s.preset,
    labelColumn: s.labelColumn,
    selectedRow: s.selectedRow,
    table: { columns: s.tableColumns, filters: s.columnFilters, sortKey: s.sortKey, sortDesc: s.sortDesc },
    overlayRuns: s.overlayRuns,
    groupBy: s.groupByColumn,
    ...(s.shaping.length ? { shaping: s.shaping } : {}),
    ...(s.shapeDiagnostics ? { shapeDiagnostics: true } : {}),
    ...(s.stepsMaxLength !== null ? { stepsMaxLength: s.stepsMaxLength } : {}),
  };
}

/** The persisted reference to the loaded data (a pending link file counts as the session's data). */
export function dataRef(s: StudioState): DataRef {
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
  const size = file.parts ? file.parts.reduce((n, p) => n + p.blob.size, 0) : file.blob.size;
  return { kind: 'file', name: file.name, rows: ds.size, size, import: choice };
}

export function currentDoc(createdAt?: number): SessionDoc {
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
    ...(s.linkModels.length ? { linkModels: s.linkModels } : {}),
  };
}
