import { useId, useState } from 'react';
import { columnLabel, offeredColumns } from '../../app/tableColumns';
import type { ColumnFilter, ColumnValues } from '../../core/table/columns';
import { getDataset } from '../../runtime/datasetRegistry';
import { useStudio } from '../../store';
import { useCurrentRun } from '../charts/useCurrentRun';

/** Columns always in the table that can be filtered on too. */
const BUILT_IN = ['reward', 'length'];

/**
 * The **Columns** control (issue 21, item 15): pick extra columns (advantage, tokens, reward components, any field)
 * and filter any column by range (numbers) or text. Sorting is by the column headers.
 */
export function ColumnsMenu({ values }: { values: Map<string, ColumnValues> }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const datasetId = useStudio((s) => s.datasetId);
  const shown = useStudio((s) => s.tableColumns);
  const filters = useStudio((s) => s.columnFilters);
  const toggle = useStudio((s) => s.toggleTableColumn);
  const run = useCurrentRun();
  const ds = getDataset(datasetId);
  const offered = ds ? offeredColumns(ds, run) : [];
  const groups = [
    { key: 'computed', legend: 'Computed' },
    { key: 'component', legend: 'Reward components' },
    { key: 'field', legend: 'Fields of the file' },
  ] as const;
  const active = filters.length;
  return (
    <div className="columns-menu" onKeyDown={(e) => e.key === 'Escape' && open && (e.stopPropagation(), setOpen(false))}>
      <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        Columns{active > 0 ? ` · ${active} filter${active === 1 ? '' : 's'}` : ''}
      </button>
      {open ? (
        <div id={panelId} role="group" aria-label="Table columns and filters" className="columns-panel">
          {groups.map((g) => {
            const cols = offered.filter((c) => c.group === g.key);
            if (cols.length === 0) return null;
            return (
              <fieldset key={g.key}>
                <legend>{g.legend}</legend>
                {cols.map((c) => (
                  <label key={c.id} className="column-pick">
                    <input type="checkbox" checked={shown.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} /> {c.label}
                  </label>
                ))}
              </fieldset>
            );
          })}
          <fieldset>
            <legend>Filters</legend>
            {[...BUILT_IN, ...shown].map((id) => (
              <FilterRow key={id} id={id} column={values.get(id) ?? null} filter={filters.find((f) => f.id === id) ?? null} />
            ))}
          </fieldset>
        </div>
      ) : null}
    </div>
  );
}

/** A column's filter: minimum and maximum for numbers, "contains" for text; nothing until its values are there. */
function FilterRow({ id, column, filter }: { id: string; column: ColumnValues | null; filter: ColumnFilter | null }) {
  const setFilter = useStudio((s) => s.setColumnFilter);
  const label = columnLabel(id);
  if (!column) return <div className="filter-row muted">{label}: not available yet</div>;
  if (column.kind === 'text') {
    const contains = filter && 'contains' in filter ? filter.contains : '';
    return (
      <div className="filter-row">
        <label>
          {label} contains{' '}
          <input
            type="text"
            aria-label={`${label} contains`}
            value={contains}
            onChange={(e) => setFilter(id, e.target.value === '' ? null : { id, contains: e.target.value })}
          />
        </label>
      </div>
    );
  }
  const range = filter && !('contains' in filter) ? filter : { id };
  const set = (end: 'min' | 'max', x: number | undefined) => {
    const next = { ...range, [end]: x };
    setFilter(id, next.min === undefined && next.max === undefined ? null : next);
  };
  return (
    <div className="filter-row">
      <span>{label}</span>
      <NumberInput label={`Minimum ${label}`} value={range.min} onChange={(x) => set('min', x)} />
      <span aria-hidden="true">to</span>
      <NumberInput label={`Maximum ${label}`} value={range.max} onChange={(x) => set('max', x)} />
    </div>
  );
}

/** A number box that keeps what is typed ("-", "0.") while it is not a number yet; empty means no bound. */
function NumberInput({ label, value, onChange }: { label: string; value: number | undefined; onChange(x: number | undefined): void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const parsed = text.trim() === '' ? undefined : Number(text);
  const shownText = parsed === value || (parsed !== undefined && Number.isNaN(parsed)) ? text : value === undefined ? '' : String(value);
  return (
    <input
      type="text"
      inputMode="decimal"
      aria-label={label}
      className="narrow"
      placeholder="any"
      value={shownText}
      aria-invalid={parsed !== undefined && !Number.isFinite(parsed)}
      onChange={(e) => {
        setText(e.target.value);
        const t = e.target.value.trim();
        const x = t === '' ? undefined : Number(t);
        if (x === undefined || Number.isFinite(x)) onChange(x);
      }}
    />
  );
}
