import type { StateCreator } from 'zustand';
import type { InputMode } from '../core/models/encode';
import type { ModelRef } from '../core/session/schema';
import type { OnnxVariant } from '../core/models/modelFolder';
import type { LoadedModelInfo, ScoredReply } from '../runtime/modelProtocol';
import type { StudioState } from './index';

export type ProviderChoice = 'auto' | 'webgpu' | 'wasm';

/** One scoring pass of a model over a dataset (the worker's reply, kept): typed arrays, never copied into React state. */
export type ModelScores = Omit<ScoredReply, 'kind' | 'jobId' | 'errors'> & {
  datasetId: string;
  mode: InputMode;
  numLabels: number;
  errors: Map<number, string>;
};

export type ProviderCheck =
  { state: 'running' } | { state: 'done'; rows: number; maxDiff: number; webgpu: string; wasm: string } | { state: 'failed'; message: string };

export interface ModelEntry {
  /** The name reward code uses: `ctx.models.<id>` (an identifier made from the model's name). */
  id: string;
  name: string;
  variants: OnnxVariant[];
  variant: OnnxVariant;
  architectures: string[];
  modelType: string | null;
  labels: string[];
  /** The logit used as the score (a one-logit reward head: 0, its raw value). */
  label: number;
  maxLength: number | null;
  hasChatTemplate: boolean;
  mode: InputMode;
  status: 'loading' | 'ready' | 'scoring' | 'failed';
  /** Why loading or the last scoring failed. */
  message: string | null;
  /** Why the model runs on another provider than asked (e.g. no WebGPU adapter). */
  fallback: string | null;
  info: LoadedModelInfo | null;
  /** "WebGPU (…)" / "WASM (2 threads)": the provider the worker reported, never guessed. */
  providerLabel: string | null;
  progress: { done: number; total: number; cached: number } | null;
  scores: ModelScores | null;
  check: ProviderCheck | null;
}

export interface ModelsSlice {
  models: ModelEntry[];
  providerChoice: ProviderChoice;
  /** The message of a load that never produced a model (missing files, a corrupt .onnx). */
  modelLoadError: string | null;
  /** What the diagnostics show: null for the current reward run, else a model's id (its score as the reward) or "ensemble:mean|min|std". */
  diagSource: string | null;
  /** The models an opened share link's reward used: the recipient is asked to load them (never their weights). */
  linkModels: ModelRef[];
  setLinkModels(m: ModelRef[]): void;
  setDiagSource(id: string | null): void;
  addModel(m: ModelEntry): void;
  patchModel(id: string, patch: Partial<ModelEntry>): void;
  dropModel(id: string): void;
  setProviderChoice(p: ProviderChoice): void;
  setModelLoadError(message: string | null): void;
}

export const createModelsSlice: StateCreator<StudioState, [], [], ModelsSlice> = (set) => ({
  models: [],
  providerChoice: 'auto',
  modelLoadError: null,
  diagSource: null,
  linkModels: [],
  setLinkModels: (linkModels) => set({ linkModels }),
  setDiagSource: (diagSource) => set({ diagSource }),
  addModel: (m) => set((s) => ({ models: [...s.models.filter((x) => x.id !== m.id), m] })),
  patchModel: (id, patch) => set((s) => ({ models: s.models.map((m) => (m.id === id ? { ...m, ...patch } : m)) })),
  dropModel: (id) =>
    set((s) => {
      const models = s.models.filter((m) => m.id !== id);
      // An ensemble column ("ensemble:mean") needs two models left.
      const gone = s.diagSource === id || (s.diagSource?.startsWith('ensemble:') === true && models.length < 2);
      return { models, diagSource: gone ? null : s.diagSource };
    }),
  setProviderChoice: (providerChoice) => set({ providerChoice }),
  setModelLoadError: (modelLoadError) => set({ modelLoadError }),
});
