import type { StateCreator } from 'zustand';
import type { SortKey } from '../core/table/rowView';
import type { StudioState } from './index';

export interface UiSlice {
  /** Dataset index of the rollout open in the detail view. */
  selectedRow: number | null;
  sortKey: SortKey;
  sortDesc: boolean;
  errorsOnly: boolean;
  groupFilter: number | null;
  search: string;
  /** Only these rows in the table (the rollouts behind a chart bar or point), with a label saying why. */
  subset: { label: string; rows: Int32Array } | null;
  selectRow(row: number | null): void;
  setSort(key: SortKey): void;
  setErrorsOnly(v: boolean): void;
  setGroupFilter(g: number | null): void;
  setSearch(s: string): void;
  setSubset(subset: { label: string; rows: Int32Array } | null): void;
}

export const createUiSlice: StateCreator<StudioState, [], [], UiSlice> = (set) => ({
  selectedRow: null,
  sortKey: 'index',
  sortDesc: false,
  errorsOnly: false,
  groupFilter: null,
  search: '',
  subset: null,
  selectRow: (selectedRow) => set({ selectedRow }),
  setSort: (key) => set((s) => (s.sortKey === key ? { sortDesc: !s.sortDesc } : { sortKey: key, sortDesc: key === 'reward' || key === 'length' })),
  setErrorsOnly: (errorsOnly) => set({ errorsOnly }),
  setGroupFilter: (groupFilter) => set({ groupFilter }),
  setSearch: (search) => set({ search }),
  setSubset: (subset) => set({ subset }),
});
