/**
 * **Download rows** (issue 21, item 17): the rows the table shows, in its order, as JSONL, CSV or Parquet, with the
 * file's own group ids, reward, status, advantage (the chosen estimator), length, error, the reward components, the
 * result's text values and the extra columns shown (core/table/rowExport writes the bytes).
 */
import type { ColumnValues } from '../core/table/columns';
import { errorText } from '../core/reward/runRows';
import { exportBytes, type ExportFormat, type ExportInput } from '../core/table/rowExport';
import { getDataset } from '../runtime/datasetRegistry';
import { buildRowsFile } from '../runtime/importClient';
import { useStudio } from '../store';
import { columnNow, fieldColumnOf, FIELD_PREFIX } from './tableColumns';

const TYPES: Record<ExportFormat, string> = { jsonl: 'application/jsonl', csv: 'text/csv', parquet: 'application/vnd.apache.parquet' };

/** "gsm8k-rollouts.jsonl" → "gsm8k-rollouts-rows.csv". */
export function rowsFileName(datasetName: string, format: ExportFormat): string {
  const base = datasetName.replace(/(\.gz)?$/i, '').replace(/\.[^./\\]*$/, '') || 'rollouts';
  return `${base}-rows.${format}`;
}

/**
 * The file for `order` (the table's rows as filtered and sorted). `shown`: the values of the extra columns the
 * table has now; a field not read yet is read first, token counts must already be there.
 */
export async function rowsFile(
  format: ExportFormat,
  order: Int32Array,
  shown: ReadonlyMap<string, ColumnValues>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ name: string; blob: Blob }> {
  const s = useStudio.getState();
  const ds = getDataset(s.datasetId);
  if (!ds) throw new Error('no data loaded');
  const run = s.runs.find((r) => r.id === s.currentRunId && r.datasetId === ds.id) ?? null;
  const extra: ExportInput['extra'][number][] = [];
  for (const id of s.tableColumns) {
    if (id === 'tokens') {
      const values = shown.get(id);
      if (!values) throw new Error('the token counts are not ready yet: wait for the Tokens column, or hide it');
      extra.push({ key: 'tokens', values });
    } else if (id.startsWith(FIELD_PREFIX)) {
      const name = id.slice(FIELD_PREFIX.length);
      extra.push({ key: `fields.${name}`, values: shown.get(id) ?? (await fieldColumnOf(ds, name)) });
    }
  }
  const src = { ds, run, preset: s.preset, tokens: null };
  const adv = columnNow('advantage', src);
  const errors = new Map<number, string>();
  for (const [row, e] of run?.result.errors ?? []) errors.set(row, errorText(e));
  const input: ExportInput = {
    order,
    groupOf: ds.groupOf,
    groupLabels: ds.groupLabels,
    length: ds.charLengths,
    scores: run?.result.scores ?? null,
    status: run?.result.status ?? null,
    errors,
    advantage: adv?.kind === 'number' ? adv.values : null,
    components: run?.result.components ?? {},
    ...(run?.result.strings ? { strings: run.result.strings } : {}),
    extra,
  };
  // Built in the data worker: the page stays responsive while 100,000 rows are written.
  const body = onPageAsked() ? exportBytes(format, input) : await buildRowsFile(format, input, onProgress);
  return { name: rowsFileName(ds.name, format), blob: new Blob([body], { type: TYPES[format] }) };
}

/** `?rowsOnPage` in the page address: the file is built on the page's thread, as before: bench/download.bench.mjs's baseline. */
function onPageAsked(): boolean {
  return typeof location !== 'undefined' && new URLSearchParams(location.search).has('rowsOnPage');
}
