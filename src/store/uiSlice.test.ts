import { describe, expect, it } from 'vitest';
import { createStudioStore } from './index';

describe('ui slice', () => {
  it('setSort: a new key sorts descending for reward and length, ascending otherwise; the same key flips the order', () => {
    const store = createStudioStore();
    expect([store.getState().sortKey, store.getState().sortDesc]).toEqual(['index', false]);
    const sort = (k: 'index' | 'group' | 'reward' | 'length') => {
      store.getState().setSort(k);
      return [store.getState().sortKey, store.getState().sortDesc];
    };
    expect(sort('reward')).toEqual(['reward', true]);
    expect(sort('reward')).toEqual(['reward', false]);
    expect(sort('group')).toEqual(['group', false]);
    expect(sort('group')).toEqual(['group', true]);
    expect(sort('length')).toEqual(['length', true]);
    expect(sort('index')).toEqual(['index', false]);
  });

  it('holds the table filters: selected row, errors only, group, search with its hits, subset', () => {
    const store = createStudioStore();
    const st = store.getState();
    const hits = new Int32Array([2, 5]);
    const rows = new Int32Array([1]);
    st.selectRow(4);
    st.setErrorsOnly(true);
    st.setGroupFilter(3);
    st.setSearch('answer', hits);
    st.setSubset({ label: 'reward in [0, 0.1)', rows });
    const s = store.getState();
    expect([s.selectedRow, s.errorsOnly, s.groupFilter, s.search, s.subset?.label]).toEqual([4, true, 3, 'answer', 'reward in [0, 0.1)']);
    // Typed arrays are held as given (a handle), never copied.
    expect(s.searchHits).toBe(hits);
    expect(s.subset?.rows).toBe(rows);
  });

  it('holds the diagnostics choices', () => {
    const store = createStudioStore();
    const st = store.getState();
    st.setDiagTab('collapse');
    st.setLengthUnit('tokens');
    st.setPreset('verl');
    st.setLabelColumn('correct');
    st.setCompare({ a: 1, b: 3 });
    st.setScoreSource('model:rm');
    const s = store.getState();
    expect([s.diagTab, s.lengthUnit, s.preset, s.labelColumn, s.compare, s.scoreSource]).toEqual([
      'collapse',
      'tokens',
      'verl',
      'correct',
      { a: 1, b: 3 },
      'model:rm',
    ]);
  });
});
