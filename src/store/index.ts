import { create } from 'zustand';
import { createDatasetSlice, type DatasetSlice } from './datasetSlice';
import { createEditorSlice, type EditorSlice } from './editorSlice';
import { createRunsSlice, type RunsSlice } from './runsSlice';
import { createUiSlice, type UiSlice } from './uiSlice';

export type StudioState = DatasetSlice & EditorSlice & RunsSlice & UiSlice;

/** Slices are creator functions combined once here (zustand slices pattern). */
export const createStudioStore = () =>
  create<StudioState>()((...a) => ({
    ...createDatasetSlice(...a),
    ...createEditorSlice(...a),
    ...createRunsSlice(...a),
    ...createUiSlice(...a),
  }));

export const useStudio = createStudioStore();
