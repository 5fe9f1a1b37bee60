import type { PresetId } from '../core/stats/advantage';
import type { StateCreator } from 'zustand';
import type { SortKey } from '../core/table/rowView';
import type { DiagTabId } from '../core/session/schema';
import type { StudioState } from './index';

export interface UiSlice {
  /** Dataset index of the rollout open in the detail view. */
  selectedRow: number | null;
  sortKey: SortKey;
  sortDesc: boolean;
  errorsOnly: boolean;
  groupFilter: number | null;
  search: string;
  /** Rows matching `search` (found by the data worker), or null when there is no search. */
  searchHits: Int32Array | null;
  /** Only these rows in the table (the rollouts behind a chart bar or point), with a label saying why. */
  subset: { label: string; rows: Int32Array } | null;
  selectRow(row: number | null): void;
  setSort(key: SortKey): void;
  setErrorsOnly(v: boolean): void;
  setGroupFilter(g: number | null): void;
  setSearch(s: string, hits: Int32Array | null): void;
  setSubset(subset: { label: string; rows: Int32Array } | null): void;
  /** Diagnostics panel: the open tab and each tab's choices. */
  diagTab: DiagTab;
  lengthUnit: 'chars' | 'tokens';
  preset: PresetId;
  /** The trusted-label column picked, or null for none. */
  labelColumn: string | null;
  /** Run ids compared in the Compare tab (null: the two latest). */
  compare: { a: number | null; b: number | null };
  /**
   * The "Scores from" pick of the Preference and Best-of-N tabs (a ScoreSource id, see ui/diagnostics/useScoreSources),
   * or null to follow the first source, the current run.
   */
  scoreSource: string | null;
  /** The Group by tab's column: null for its default (a usual column such as `model`), '' for none picked. */
  groupByColumn: string | null;
  setGroupByColumn(c: string | null): void;
  /** The Over steps tab's maximum completion length (a rollout that long counts as truncated), or null for none. */
  stepsMaxLength: number | null;
  setStepsMaxLength(n: number | null): void;
  setDiagTab(t: DiagTab): void;
  setLengthUnit(u: 'chars' | 'tokens'): void;
  setPreset(p: PresetId): void;
  setLabelColumn(c: string | null): void;
  setCompare(c: { a: number | null; b: number | null }): void;
  setScoreSource(id: string | null): void;
}

export type DiagTab = DiagTabId;

export const createUiSlice: StateCreator<StudioState, [], [], UiSlice> = (set) => ({
  selectedRow: null,
  sortKey: 'index',
  sortDesc: false,
  errorsOnly: false,
  groupFilter: null,
  search: '',
  searchHits: null,
  subset: null,
  selectRow: (selectedRow) => set({ selectedRow }),
  setSort: (key) => set((s) => (s.sortKey === key ? { sortDesc: !s.sortDesc } : { sortKey: key, sortDesc: key === 'reward' || key === 'length' })),
  setErrorsOnly: (errorsOnly) => set({ errorsOnly }),
  setGroupFilter: (groupFilter) => set({ groupFilter }),
  setSearch: (search, searchHits) => set({ search, searchHits }),
  setSubset: (subset) => set({ subset }),
  diagTab: 'distribution',
  lengthUnit: 'chars',
  preset: 'trl',
  labelColumn: null,
  compare: { a: null, b: null },
  scoreSource: null,
  groupByColumn: null,
  setGroupByColumn: (groupByColumn) => set({ groupByColumn }),
  stepsMaxLength: null,
  setStepsMaxLength: (stepsMaxLength) => set({ stepsMaxLength }),
  setDiagTab: (diagTab) => set({ diagTab }),
  setLengthUnit: (lengthUnit) => set({ lengthUnit }),
  setPreset: (preset) => set({ preset }),
  setLabelColumn: (labelColumn) => set({ labelColumn }),
  setCompare: (compare) => set({ compare }),
  setScoreSource: (scoreSource) => set({ scoreSource }),
});
