/** A probe or row-subset task's rows as a runtime sees them: position start + j is dataset row rows[j] (probed, for a probe). */
import { applyProbe, probeByName } from '../core/probe/probes';
import type { Trajectory } from '../core/trajectory';
import type { ProbeTask } from './protocol';
import type { WorkerRows } from './workerRows';

/** What a runtime reads rows from: the dataset's rows, or a probe task's made-up ones (never kept for a next run). */
export interface RowSource {
  rows: readonly Trajectory[];
  /** false: rows made for one task; a runtime must not keep its conversion of them for later runs. */
  keep?: false;
}

/** Read the task's rows and donors (the whole run's rows are rarely contiguous: each run of neighbours is one read). */
export async function probeRows(data: WorkerRows, datasetId: string, start: number, p: ProbeTask): Promise<RowSource> {
  const probe = probeByName(p.name);
  if (!probe) throw new Error(`unknown probe ${p.name}`);
  await readRows(data, datasetId, Int32Array.from(new Set([...p.rows, ...(p.donors ?? [])])).sort(), 'probe row');
  const rows: Trajectory[] = [];
  p.rows.forEach((r, j) => (rows[start + j] = applyProbe(probe, data.rows[r], p.donors ? data.rows[p.donors[j]] : undefined)));
  return { rows, keep: false };
}

/** A row-subset task (`--shard`): position start + j is dataset row rows[j], as it is. */
export async function subsetRows(data: WorkerRows, datasetId: string, start: number, subset: Int32Array): Promise<RowSource> {
  await readRows(data, datasetId, subset, 'row');
  const rows: Trajectory[] = [];
  subset.forEach((r, j) => (rows[start + j] = data.rows[r]));
  // Positions are not dataset rows: a runtime keeping conversions by position would mix them up on a later run.
  return { rows, keep: false };
}

/** Read sorted rows `wanted` (each run of neighbours in one read), after checking each is a row of the dataset. */
async function readRows(data: WorkerRows, datasetId: string, wanted: Int32Array, what: string): Promise<void> {
  for (const r of wanted) if (r >= data.size) throw new Error(`${what} ${r} is outside the dataset (${data.size} rows)`);
  for (let i = 0; i < wanted.length;) {
    let j = i + 1;
    while (j < wanted.length && wanted[j] === wanted[j - 1] + 1) j++;
    await data.ensureFor(datasetId, wanted[i], wanted[j - 1] + 1, false);
    i = j;
  }
}
