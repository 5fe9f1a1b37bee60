import { loadAll } from '../core/dataset/loadAll';
import type { ColumnMapping, FormatId } from '../core/formats/types';
import type { Trajectory } from '../core/trajectory';

/** A dataset's file and how it was imported: every worker reads it itself and gets the same trajectories. */
export interface DatasetFile {
  datasetId: string;
  blob: Blob;
  name: string;
  format: FormatId;
  mapping?: ColumnMapping;
}

/**
 * The rollouts a worker holds (reward workers, model workers): read from the dataset's file with the import's format
 * and mapping. While a load runs, and after one fails, the worker holds none.
 */
export class WorkerRows {
  datasetId = '';
  rows: Trajectory[] = [];

  /** Throws what the read threw; `rows` is then empty. */
  async load(f: DatasetFile): Promise<void> {
    this.datasetId = '';
    this.rows = [];
    const loaded = await loadAll({ name: f.name, blob: f.blob }, { format: f.format, mapping: f.mapping });
    this.datasetId = f.datasetId;
    this.rows = loaded.rows;
  }
}
