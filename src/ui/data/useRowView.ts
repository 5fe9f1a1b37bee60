import { groupLabelClasses, groupRanks } from '../../core/dataset/groupLabels';
import type { Dataset } from '../../core/dataset/dataset';
import { rowView } from '../../core/table/rowView';
import { getDataset } from '../../runtime/datasetRegistry';
import { useStudio } from '../../store';
import { useCurrentRun } from '../charts/useCurrentRun';
import { useNeededColumns, useTableColumns } from './useTableColumns';

/** The last view computed, so the table and the detail view (both call the hook) sort 100k rows once, not twice. */
let last: { deps: unknown[]; view: Int32Array } | null = null;
/** Each dataset's group ranks by label (sorting by group follows the file's values). */
const ranks = new WeakMap<Dataset, Int32Array>();
/** Each dataset's group label classes (the group filter keeps a label's groups at every step). */
const classes = new WeakMap<Dataset, Int32Array>();

/** The table's filtered, sorted row order (an index array), shared by the table and the detail view's arrows. */
export function useRowView(): Int32Array {
  const datasetId = useStudio((s) => s.datasetId);
  const run = useCurrentRun();
  const sortKey = useStudio((s) => s.sortKey);
  const sortDesc = useStudio((s) => s.sortDesc);
  const errorsOnly = useStudio((s) => s.errorsOnly);
  const group = useStudio((s) => s.groupFilter);
  const hits = useStudio((s) => s.searchHits);
  const subset = useStudio((s) => s.subset);
  const filters = useStudio((s) => s.columnFilters);
  const { values: columns } = useTableColumns(useNeededColumns());
  const deps = [datasetId, run, sortKey, sortDesc, errorsOnly, group, hits, subset, filters, ...Array.from(columns).flat()];
  if (last && last.deps.length === deps.length && last.deps.every((d, i) => Object.is(d, deps[i]))) return last.view;
  const ds = getDataset(datasetId);
  let groupRank: Int32Array | undefined;
  if (ds && sortKey === 'group') {
    groupRank = ranks.get(ds);
    if (!groupRank) ranks.set(ds, (groupRank = groupRanks(ds.groupLabels)));
  }
  let groupClass: Int32Array | undefined;
  if (ds && group !== null) {
    groupClass = classes.get(ds);
    if (!groupClass) classes.set(ds, (groupClass = groupLabelClasses(ds.groupLabels)));
  }
  const view = ds
    ? rowView(
        {
          size: ds.size,
          groupOf: ds.groupOf,
          charLengths: ds.charLengths,
          scores: run?.result.scores ?? null,
          status: run?.result.status ?? null,
          groupRank,
          groupClass,
          columns,
        },
        { sortKey, sortDesc, errorsOnly, group, hits, subset: subset?.rows ?? null, filters },
      )
    : new Int32Array(0);
  // eslint-disable-next-line react-hooks/globals -- one cache for the table and the detail view: 100k rows sorted once
  last = { deps, view };
  return view;
}
