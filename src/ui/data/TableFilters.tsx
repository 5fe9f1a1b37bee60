import { useEffect, useState } from 'react';
import { GroupFilter } from './GroupFilter';
import { ColumnsMenu } from './ColumnsMenu';
import { DownloadRows } from './DownloadRows';
import type { ColumnValues } from '../../core/table/columns';
import { getDataset } from '../../runtime/datasetRegistry';
import { searchRows } from '../../runtime/importClient';
import { useStudio } from '../../store';

/** Filters for the table: errors only, one group, text search, and the chart selection in force. */
export function TableFilters({ view, columns }: { view: Int32Array; columns: Map<string, ColumnValues> }) {
  const shown = view.length;
  const errorsOnly = useStudio((s) => s.errorsOnly);
  const setErrorsOnly = useStudio((s) => s.setErrorsOnly);
  const setSearch = useStudio((s) => s.setSearch);
  const datasetId = useStudio((s) => s.datasetId);
  const subset = useStudio((s) => s.subset);
  const setSubset = useStudio((s) => s.setSubset);
  const [text, setText] = useState('');
  const [searchError, setSearchError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  // Debounced text search, answered by the data worker (from the file, for a JSONL import); the latest query wins.
  useEffect(() => {
    let live = true;
    const needle = text.trim();
    const ds = getDataset(datasetId);
    const t = setTimeout(async () => {
      setSearchError(null);
      if (!needle || !ds) return setSearch('', null);
      // A large file is read again for each search (a second or two at a million rows): say so meanwhile.
      setSearching(true);
      const start = performance.now();
      try {
        const hits = await searchRows(ds, needle);
        if (!live) return;
        setSearch(needle, hits ?? new Int32Array(0));
        performance.measure('search', { start }); // for bench/search.bench.mjs
      } catch (e) {
        if (!live) return;
        setSearch(needle, new Int32Array(0));
        setSearchError(`Search failed: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        if (live) setSearching(false);
      }
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
      setSearching(false);
    };
  }, [text, datasetId, setSearch]);
  return (
    <div className="toolbar filters">
      <h2>Rollouts</h2>
      <span className="muted" data-testid="shown-count">
        {shown.toLocaleString('en-US')} shown
      </span>
      <input type="search" aria-label="Search text" placeholder="Search text in any field" value={text} onChange={(e) => setText(e.target.value)} />
      <span role="status" aria-label="Search status" className="muted search-status">
        {searching ? 'Searching…' : ''}
      </span>
      {searchError ? (
        <span role="alert" className="error-text">
          {searchError}
        </span>
      ) : null}
      <GroupFilter />
      <ColumnsMenu values={columns} />
      <DownloadRows view={view} columns={columns} />
      <label>
        <input type="checkbox" checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} /> Errors only
      </label>
      {subset ? (
        <span className="chip">
          {subset.label}
          <button type="button" aria-label="Clear chart selection" onClick={() => setSubset(null)}>
            ×
          </button>
        </span>
      ) : null}
    </div>
  );
}
