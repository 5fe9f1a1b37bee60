import { describe, expect, it } from 'vitest';
import { createStudioStore } from './index';

describe('table slice', () => {
  it('shows columns once, in the order picked', () => {
    const store = createStudioStore();
    store.getState().toggleTableColumn('advantage', true);
    store.getState().toggleTableColumn('field:model', true);
    store.getState().toggleTableColumn('advantage', true);
    expect(store.getState().tableColumns).toEqual(['advantage', 'field:model']);
  });
  it('keeps one filter per column; hiding a column drops its filter and its sort', () => {
    const store = createStudioStore();
    const st = store.getState();
    st.toggleTableColumn('advantage', true);
    st.setColumnFilter('advantage', { id: 'advantage', min: 0 });
    st.setColumnFilter('advantage', { id: 'advantage', min: 1 });
    st.setColumnFilter('reward', { id: 'reward', max: 0.5 });
    expect(store.getState().columnFilters).toEqual([
      { id: 'advantage', min: 1 },
      { id: 'reward', max: 0.5 },
    ]);
    st.setSort('advantage');
    st.toggleTableColumn('advantage', false);
    const s = store.getState();
    expect(s.tableColumns).toEqual([]);
    expect(s.columnFilters).toEqual([{ id: 'reward', max: 0.5 }]);
    expect([s.sortKey, s.sortDesc]).toEqual(['index', false]);
    st.setColumnFilter('reward', null);
    expect(store.getState().columnFilters).toEqual([]);
  });
});
