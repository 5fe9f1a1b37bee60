import { create } from 'zustand';
import { createDatasetSlice, type DatasetSlice } from './datasetSlice';
import { createEditorSlice, type EditorSlice } from './editorSlice';
import { createModelsSlice, type ModelsSlice } from './modelsSlice';
import { createRunsSlice, type RunsSlice } from './runsSlice';
import { createSessionSlice, type SessionSlice } from './sessionSlice';
import { createShapingSlice, type ShapingSlice } from './shapingSlice';
import { createStressSlice, type StressSlice } from './stressSlice';
import { createTableSlice, type TableSlice } from './tableSlice';
import { createUiSlice, type UiSlice } from './uiSlice';

export type StudioState = DatasetSlice & EditorSlice & RunsSlice & ModelsSlice & UiSlice & SessionSlice & TableSlice & StressSlice & ShapingSlice;

/** Slices are creator functions combined once here (zustand slices pattern). */
export const createStudioStore = () =>
  create<StudioState>()((...a) => ({
    ...createDatasetSlice(...a),
    ...createEditorSlice(...a),
    ...createRunsSlice(...a),
    ...createModelsSlice(...a),
    ...createUiSlice(...a),
    ...createSessionSlice(...a),
    ...createTableSlice(...a),
    ...createStressSlice(...a),
    ...createShapingSlice(...a),
  }));

export const useStudio = createStudioStore();
