import { describe, expect, it } from 'vitest';
import { createStudioStore } from './index';
import type { ModelEntry } from './modelsSlice';

const model = (id: string, patch: Partial<ModelEntry> = {}): ModelEntry => ({
  id,
  name: `org/${id}`,
  variants: [],
  variant: { path: 'onnx/model.onnx', size: 1, dtype: 'fp32' },
  architectures: [],
  modelType: null,
  labels: ['LABEL_0'],
  label: 0,
  maxLength: null,
  hasChatTemplate: false,
  mode: 'pair',
  status: 'loading',
  message: null,
  fallback: null,
  info: null,
  providerLabel: null,
  progress: null,
  scores: null,
  check: null,
  ...patch,
});

describe('models slice', () => {
  it('addModel appends, and a model added again under the same id replaces the old one at the end', () => {
    const store = createStudioStore();
    store.getState().addModel(model('a'));
    store.getState().addModel(model('b'));
    store.getState().addModel(model('a', { status: 'ready' }));
    expect(store.getState().models.map((m) => [m.id, m.status])).toEqual([
      ['b', 'loading'],
      ['a', 'ready'],
    ]);
  });

  it('patchModel changes only the model named', () => {
    const store = createStudioStore();
    store.getState().addModel(model('a'));
    store.getState().addModel(model('b'));
    const b = store.getState().models[1];
    store.getState().patchModel('a', { status: 'failed', message: 'no onnx' });
    const [a, b2] = store.getState().models;
    expect([a.status, a.message]).toEqual(['failed', 'no onnx']);
    expect(b2).toBe(b);
  });

  it('dropModel removes the model, and the diagnostics fall back to the reward run if they showed it', () => {
    const store = createStudioStore();
    store.getState().addModel(model('a'));
    store.getState().addModel(model('b'));
    store.getState().setDiagSource('a');
    store.getState().dropModel('b');
    expect(store.getState().diagSource).toBe('a');
    store.getState().dropModel('a');
    expect([store.getState().models, store.getState().diagSource]).toEqual([[], null]);
  });

  it('holds the provider choice and the load error', () => {
    const store = createStudioStore();
    expect([store.getState().providerChoice, store.getState().modelLoadError]).toEqual(['auto', null]);
    store.getState().setProviderChoice('wasm');
    store.getState().setModelLoadError('This model cannot be loaded: no .onnx file.');
    expect([store.getState().providerChoice, store.getState().modelLoadError]).toEqual(['wasm', 'This model cannot be loaded: no .onnx file.']);
  });

  it('dropModel leaves an ensemble column as the diagnostics source only while two models remain', () => {
    const store = createStudioStore();
    for (const id of ['a', 'b', 'c']) store.getState().addModel(model(id));
    store.getState().setDiagSource('ensemble:std');
    store.getState().dropModel('c');
    expect(store.getState().diagSource).toBe('ensemble:std');
    store.getState().dropModel('b');
    expect(store.getState().diagSource).toBeNull();
  });
});
