import type { StateCreator } from 'zustand';
import type { Detection } from '../core/formats/types';
import type { ParseIssue } from '../core/trajectory';
import type { ImportFailure } from '../runtime/importProtocol';
import type { StudioState } from './index';

export interface ImportState {
  fileName: string;
  bytesRead: number;
  totalBytes: number;
  rows: number;
  issues: number;
  /** A dataset of several files: the file being read (0-based), of how many, and the step its name gives. */
  part?: { index: number; count: number; step: number | null };
  /** A gzip file is being decompressed before its rows come. */
  decompressing?: boolean;
}

export interface DatasetSlice {
  /** Handle of the loaded dataset (see runtime/datasetRegistry). */
  datasetId: string | null;
  datasetName: string;
  rowCount: number;
  groupCount: number;
  detection: Detection | null;
  /** Lines that failed to load in the current dataset. */
  issues: ParseIssue[];
  importing: ImportState | null;
  /** The last import's failure; the previous dataset stays loaded. */
  importError: (ImportFailure & { fileName: string }) | null;
  setImporting(s: ImportState | null): void;
  setImportError(e: (ImportFailure & { fileName: string }) | null): void;
  setDataset(d: { id: string; name: string; rowCount: number; groupCount: number; detection: Detection; issues: ParseIssue[] }): void;
}

export const createDatasetSlice: StateCreator<StudioState, [], [], DatasetSlice> = (set) => ({
  datasetId: null,
  datasetName: '',
  rowCount: 0,
  groupCount: 0,
  detection: null,
  issues: [],
  importing: null,
  importError: null,
  setImporting: (importing) => set({ importing }),
  setImportError: (importError) => set({ importError }),
  setDataset: (d) =>
    set({ datasetId: d.id, datasetName: d.name, rowCount: d.rowCount, groupCount: d.groupCount, detection: d.detection, issues: d.issues, importError: null }),
});
