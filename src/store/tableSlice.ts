import type { StateCreator } from 'zustand';
import type { ColumnFilter } from '../core/table/columns';
import type { StudioState } from './index';

/** The table's extra columns and their filters (issue 21, item 15), remembered in the session. */
export interface TableSlice {
  /** Ids of the extra columns shown, in the order picked: `field:<name>`, `component:<name>`, `advantage`, `tokens`. */
  tableColumns: string[];
  /** At most one filter per column id (reward and length included). */
  columnFilters: ColumnFilter[];
  /** Show or hide a column; hiding it drops its filter and, if the table is sorted by it, sorts by index again. */
  toggleTableColumn(id: string, shown: boolean): void;
  /** Set a column's filter; null removes it. */
  setColumnFilter(id: string, filter: ColumnFilter | null): void;
  /** Put a saved table back (a session being opened): its columns, filters and sort. */
  setTable(t: { columns: string[]; filters: ColumnFilter[]; sortKey: string; sortDesc: boolean }): void;
}

export const createTableSlice: StateCreator<StudioState, [], [], TableSlice> = (set) => ({
  tableColumns: [],
  columnFilters: [],
  toggleTableColumn: (id, shown) =>
    set((s) => {
      if (shown) return s.tableColumns.includes(id) ? {} : { tableColumns: [...s.tableColumns, id] };
      return {
        tableColumns: s.tableColumns.filter((c) => c !== id),
        columnFilters: s.columnFilters.filter((f) => f.id !== id),
        ...(s.sortKey === id ? { sortKey: 'index', sortDesc: false } : {}),
      };
    }),
  setColumnFilter: (id, filter) =>
    set((s) => {
      const rest = s.columnFilters.filter((f) => f.id !== id);
      return { columnFilters: filter ? [...rest, filter] : rest };
    }),
  setTable: ({ columns, filters, sortKey, sortDesc }) => set({ tableColumns: columns, columnFilters: filters, sortKey, sortDesc }),
});
