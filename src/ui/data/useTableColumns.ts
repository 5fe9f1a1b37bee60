import { useEffect, useMemo, useState } from 'react';
import { columnNow, fieldColumnOf, FIELD_PREFIX } from '../../app/tableColumns';
import type { ColumnValues } from '../../core/table/columns';
import { getDataset } from '../../runtime/datasetRegistry';
import { useStudio } from '../../store';
import { useCurrentRun } from '../charts/useCurrentRun';
import { useTokenCounts } from '../diagnostics/useDataColumns';

export interface TableColumns {
  /** The values of every column asked for that is there now. */
  values: Map<string, ColumnValues>;
  /** Why a column is not there: "loading…", or the reason it failed. */
  missing: Map<string, string>;
}

/** The ids of the columns the table needs: reward and length (always offered to filter), those shown, filtered on, sorted by. */
export function useNeededColumns(): string[] {
  const shown = useStudio((s) => s.tableColumns);
  const filters = useStudio((s) => s.columnFilters);
  const sortKey = useStudio((s) => s.sortKey);
  return useMemo(() => Array.from(new Set(['reward', 'length', ...shown, ...filters.map((f) => f.id), sortKey])), [shown, filters, sortKey]);
}

/** The values of the table's columns `ids`: computed from the run, counted (tokens) or read by the data worker (fields). */
export function useTableColumns(ids: string[]): TableColumns {
  const datasetId = useStudio((s) => s.datasetId);
  const preset = useStudio((s) => s.preset);
  const tokenizer = useStudio((s) => s.tokenizer);
  const run = useCurrentRun();
  const ds = getDataset(datasetId);
  const tokens = useTokenCounts(ds, tokenizer, ids.includes('tokens'));
  const fieldNames = ids.filter((id) => id.startsWith(FIELD_PREFIX)).map((id) => id.slice(FIELD_PREFIX.length));
  const fieldKey = fieldNames.join('\u0000');
  const [fields, setFields] = useState<{ ds: string; got: Map<string, ColumnValues | string> }>({ ds: '', got: new Map() });
  useEffect(() => {
    if (!ds) return;
    let live = true;
    for (const name of fieldKey === '' ? [] : fieldKey.split('\u0000')) {
      fieldColumnOf(ds, name).then(
        (c) => live && setFields((f) => ({ ds: ds.id, got: new Map(f.ds === ds.id ? f.got : []).set(name, c) })),
        (e: unknown) =>
          live && setFields((f) => ({ ds: ds.id, got: new Map(f.ds === ds.id ? f.got : []).set(name, e instanceof Error ? e.message : String(e)) })),
      );
    }
    return () => {
      live = false;
    };
  }, [ds, fieldKey]);
  return useMemo(() => {
    const values = new Map<string, ColumnValues>();
    const missing = new Map<string, string>();
    if (!ds) return { values, missing };
    const src = { ds, run, preset, tokens: tokens.status === 'ready' ? tokens.counts : null };
    for (const id of ids) {
      if (id === 'index' || id === 'group') continue;
      if (id.startsWith(FIELD_PREFIX)) {
        const got = fields.ds === ds.id ? fields.got.get(id.slice(FIELD_PREFIX.length)) : undefined;
        if (got === undefined) missing.set(id, 'loading…');
        else if (typeof got === 'string') missing.set(id, got);
        else values.set(id, got);
        continue;
      }
      const c = columnNow(id, src);
      if (c) values.set(id, c);
      else if (id === 'tokens') missing.set(id, tokens.status === 'failed' ? tokens.message : 'counting tokens…');
      else missing.set(id, 'no run yet');
    }
    return { values, missing };
  }, [ds, run, preset, tokens, fields, ids]);
}
