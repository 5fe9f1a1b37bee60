import { useEffect, useState } from 'react';
import { useStudio } from '../../store';

/** Filters for the table: errors only, one group, text search, and the chart selection in force. */
export function TableFilters({ shown }: { shown: number }) {
  const errorsOnly = useStudio((s) => s.errorsOnly);
  const setErrorsOnly = useStudio((s) => s.setErrorsOnly);
  const group = useStudio((s) => s.groupFilter);
  const setGroup = useStudio((s) => s.setGroupFilter);
  const groupCount = useStudio((s) => s.groupCount);
  const setSearch = useStudio((s) => s.setSearch);
  const subset = useStudio((s) => s.subset);
  const setSubset = useStudio((s) => s.setSubset);
  const [text, setText] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(text), 150);
    return () => clearTimeout(t);
  }, [text, setSearch]);
  return (
    <div className="toolbar filters">
      <h2>Rollouts</h2>
      <span className="muted" data-testid="shown-count">
        {shown.toLocaleString('en-US')} shown
      </span>
      <input type="search" aria-label="Search text" placeholder="Search prompt or completion" value={text} onChange={(e) => setText(e.target.value)} />
      <label>
        Group{' '}
        <input
          type="number"
          aria-label="Filter by group"
          min={0}
          max={Math.max(0, groupCount - 1)}
          placeholder="all"
          value={group ?? ''}
          onChange={(e) => setGroup(e.target.value === '' ? null : Number(e.target.value))}
          className="narrow"
        />
      </label>
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
