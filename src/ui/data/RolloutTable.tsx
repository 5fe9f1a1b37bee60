import { useEffect, useRef } from 'react';
import { RowStatus } from '../../core/reward/contract';
import type { SortKey } from '../../core/table/rowView';
import { previewOf } from '../../core/dataset/dataset';
import { getDataset } from '../../runtime/datasetRegistry';
import { modelScoreColumn } from '../../app/models';
import { useStudio } from '../../store';
import { useCurrentRun } from '../charts/useCurrentRun';
import { TableFilters } from './TableFilters';
import { useRowKeys } from './useRowKeys';
import { useRowWindow } from './useRowWindow';
import { useRowView } from './useRowView';
import { useNeededColumns, useTableColumns } from './useTableColumns';
import { columnLabel } from '../../app/tableColumns';
import type { ColumnValues } from '../../core/table/columns';

const ROW_HEIGHT = 30;
const COLUMNS: { key: SortKey | null; label: string; className: string }[] = [
  { key: 'index', label: '#', className: 'c-index' },
  { key: 'group', label: 'Group', className: 'c-group' },
  { key: 'reward', label: 'Reward', className: 'c-reward' },
  { key: 'length', label: 'Length', className: 'c-length' },
  { key: null, label: 'Completion', className: 'c-text' },
];

/** A number as the reward column shows it: integers whole, others to 4 decimals; a row without one "—". */
function numberCell(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return Number.isInteger(x) ? String(x) : x.toFixed(4);
}

/** An extra column's cell (issue 21, item 15). */
function extraCell(c: ColumnValues | undefined, i: number): string {
  if (!c) return '…';
  return c.kind === 'number' ? numberCell(c.values[i]) : (c.values[i] ?? '—');
}

function rewardCell(status: number | undefined, score: number): string {
  switch (status) {
    case RowStatus.Ok:
      return Number.isInteger(score) ? String(score) : score.toFixed(4);
    case RowStatus.Null:
      return 'null';
    case RowStatus.Error:
      return 'error';
    case RowStatus.TimedOut:
      return 'timed out';
    default:
      return '—';
  }
}

/** Every rollout, virtualized (only the visible rows are in the DOM), with sort and filters. */
export function RolloutTable() {
  const datasetId = useStudio((s) => s.datasetId);
  const sortKey = useStudio((s) => s.sortKey);
  const sortDesc = useStudio((s) => s.sortDesc);
  const setSort = useStudio((s) => s.setSort);
  const selectRow = useStudio((s) => s.selectRow);
  const selected = useStudio((s) => s.selectedRow);
  const run = useCurrentRun();
  // One column per reward model that has scored these rollouts: its score, next to the reward.
  const models = useStudio((s) => s.models);
  const modelCols = models.filter((m) => m.scores?.datasetId === datasetId).map((m) => ({ id: m.id, scores: modelScoreColumn(m), status: m.scores!.status }));
  const view = useRowView();
  const extra = useStudio((s) => s.tableColumns);
  const { values: columns, missing } = useTableColumns(useNeededColumns());
  const ds = getDataset(datasetId);
  const scroller = useRef<HTMLDivElement>(null);
  const { items, totalSize, scrollToIndex } = useRowWindow(view.length, scroller, ROW_HEIGHT, 12);

  const rowKeys = useRowKeys({
    count: ds ? view.length : 0,
    rendered: ds && items.length ? [items[0].index, items[items.length - 1].index] : null,
    container: scroller,
    scrollTo: scrollToIndex,
    open: (pos) => selectRow(view[pos]),
  });

  useEffect(() => {
    if (selected === null) return;
    const pos = view.indexOf(selected);
    if (pos >= 0) scrollToIndex(pos);
  }, [selected, view, scrollToIndex]);

  return (
    <section className="panel table-panel" aria-label="Rollouts">
      <TableFilters view={view} columns={columns} />
      <div role="table" aria-label="Rollouts table" aria-rowcount={view.length + 1} className="rtable">
        <div role="rowgroup" className="rt-head">
          <div role="row" className="rt-row">
            {COLUMNS.map((c) => (
              <div
                role="columnheader"
                key={c.label}
                className={c.className}
                aria-sort={c.key === sortKey ? (sortDesc ? 'descending' : 'ascending') : undefined}
              >
                {c.key ? (
                  <button
                    type="button"
                    className="sort"
                    onClick={() => setSort(c.key!)}
                    aria-label={`Sort by ${c.label === '#' ? 'index' : c.label.toLowerCase()}`}
                  >
                    {c.label}
                    {c.key === sortKey ? (sortDesc ? ' ▼' : ' ▲') : ''}
                  </button>
                ) : (
                  c.label
                )}
              </div>
            ))}
            {modelCols.map((c) => (
              <div role="columnheader" key={`model-${c.id}`} className="c-model" title={`ctx.models.${c.id}`}>
                {c.id}
              </div>
            ))}
            {extra.map((id) => (
              <div
                role="columnheader"
                key={id}
                className="c-extra"
                title={missing.get(id) ?? id}
                aria-sort={id === sortKey ? (sortDesc ? 'descending' : 'ascending') : undefined}
              >
                <button type="button" className="sort" onClick={() => setSort(id)} aria-label={`Sort by ${columnLabel(id)}`}>
                  {columnLabel(id)}
                  {id === sortKey ? (sortDesc ? ' ▼' : ' ▲') : ''}
                </button>
              </div>
            ))}
          </div>
        </div>
        <div ref={scroller} className="rt-body" role="rowgroup">
          <div style={{ height: totalSize, position: 'relative' }}>
            {ds
              ? items.map((v) => {
                  const i = view[v.index];
                  const st = run?.result.status[i];
                  const bad = st === RowStatus.Error || st === RowStatus.TimedOut;
                  return (
                    <div
                      role="row"
                      aria-rowindex={v.index + 2}
                      aria-selected={selected === i}
                      key={i}
                      className={`rt-row rt-data${selected === i ? ' selected' : ''}${bad ? ' bad' : ''}`}
                      style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
                      onClick={() => selectRow(i)}
                      data-row={i}
                      {...rowKeys(v.index)}
                    >
                      <div role="cell" className="c-index">
                        {i}
                      </div>
                      <div role="cell" className="c-group" title={ds.groupKeys[ds.groupOf[i]].slice(0, 300)}>
                        {ds.groupLabels[ds.groupOf[i]]}
                      </div>
                      <div role="cell" className="c-reward">
                        {rewardCell(st, run?.result.scores[i] ?? Number.NaN)}
                      </div>
                      <div role="cell" className="c-length">
                        {ds.charLengths[i]}
                      </div>
                      <div role="cell" className="c-text">
                        {previewOf(ds, i)}
                      </div>
                      {modelCols.map((c) => (
                        <div role="cell" key={`model-${c.id}`} className="c-model">
                          {rewardCell(c.status[i], c.scores[i])}
                        </div>
                      ))}
                      {extra.map((id) => {
                        const c = columns.get(id);
                        return (
                          <div role="cell" key={id} className={`c-extra${c?.kind === 'text' ? ' text' : ''}`}>
                            {extraCell(c, i)}
                          </div>
                        );
                      })}
                    </div>
                  );
                })
              : null}
          </div>
        </div>
      </div>
    </section>
  );
}
