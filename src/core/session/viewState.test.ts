import { describe, expect, it } from 'vitest';
import {
  MAX_LINK_MODELS,
  MAX_OVERLAY_RUNS,
  MAX_STEPS_MAX_LENGTH,
  parseSessionDoc,
  parseShared,
  type ModelRef,
  type SessionDoc,
  type SharedSession,
} from './schema';

const ui: SessionDoc['ui'] = { diagTab: 'distribution', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null };
const doc: SessionDoc = {
  v: 1,
  id: 's1',
  name: 'Session',
  createdAt: 1,
  updatedAt: 2,
  editor: { language: 'ts', code: { ts: 'x', py: 'y' }, tokenizer: 'gpt2', timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 },
  ui,
  data: { kind: 'demo' },
  dataVersion: 0,
  runs: [],
  currentRunId: null,
  origin: null,
};
const model = (id: string): ModelRef => ({ id, name: id, inputs: [], outputs: [], size: 10, sha256: 'a'.repeat(64) });
const parsed = (raw: unknown) => {
  const r = parseSessionDoc(raw);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};

describe('saved view state (overlaid runs, Group by column, a link’s models)', () => {
  it('comes back as saved', () => {
    const d = parsed({ ...doc, ui: { ...ui, overlayRuns: [3, 1], groupBy: 'model' }, linkModels: [model('judge')] });
    expect(d.ui.overlayRuns).toEqual([3, 1]);
    expect(d.ui.groupBy).toBe('model');
    expect(d.linkModels).toEqual([model('judge')]);
  });
  it('is absent from sessions saved before it, which still open', () => {
    const d = parsed(doc);
    expect(d.ui.overlayRuns).toBeUndefined();
    expect(d.ui.groupBy).toBeUndefined();
    expect(d.linkModels).toBeUndefined();
  });
  it('cuts lists too long and repeated ids, and drops a list far too long', () => {
    const d = parsed({ ...doc, ui: { ...ui, overlayRuns: [2, 2, 3, 4, 5, 6] }, linkModels: Array.from({ length: 20 }, (_, i) => model(`m${i}`)) });
    expect(d.ui.overlayRuns).toEqual([2, 3, 4]);
    expect(d.ui.overlayRuns).toHaveLength(MAX_OVERLAY_RUNS);
    expect(d.linkModels).toHaveLength(MAX_LINK_MODELS);
    expect(parsed({ ...doc, ui: { ...ui, overlayRuns: Array.from({ length: 100_000 }, (_, i) => i + 1) } }).ui.overlayRuns).toBeUndefined();
  });
  it('drops a value of the wrong kind instead of refusing the session or the link', () => {
    const d = parsed({ ...doc, ui: { ...ui, overlayRuns: 'all', groupBy: 42 }, linkModels: [{ id: 'not an identifier' }] });
    expect(d.ui.overlayRuns).toBeUndefined();
    expect(d.ui.groupBy).toBeUndefined();
    expect(d.linkModels).toBeUndefined();
    expect(parsed({ ...doc, ui: { ...ui, overlayRuns: [0, -1, 1.5] } }).ui.overlayRuns).toBeUndefined();
    expect(parsed({ ...doc, ui: { ...ui, groupBy: 'x'.repeat(501) } }).ui.groupBy).toBeUndefined();
    const link: SharedSession = { v: 2, name: 'L', editor: { ...doc.editor, language: 'ts', code: 'x' }, ui, data: { kind: 'demo' }, run: null };
    const r = parseShared({ ...link, ui: { ...ui, groupBy: { evil: true }, overlayRuns: [1] } });
    expect(r.ok && r.value.ui).toEqual({ ...ui, overlayRuns: [1] });
  });
  it("keeps the Over steps tab's maximum completion length, and drops one no cap could be", () => {
    expect(parsed({ ...doc, ui: { ...ui, stepsMaxLength: 4096 } }).ui.stepsMaxLength).toBe(4096);
    expect(parsed(doc).ui.stepsMaxLength).toBeUndefined();
    for (const bad of [0, -1, 1.5, '4096', 1e12, Number.MAX_SAFE_INTEGER, null, { n: 1 }])
      expect(parsed({ ...doc, ui: { ...ui, stepsMaxLength: bad } }).ui.stepsMaxLength).toBeUndefined();
    expect(parsed({ ...doc, ui: { ...ui, stepsMaxLength: MAX_STEPS_MAX_LENGTH } }).ui.stepsMaxLength).toBe(MAX_STEPS_MAX_LENGTH);
    const link: SharedSession = { v: 2, name: 'L', editor: { ...doc.editor, language: 'ts', code: 'x' }, ui, data: { kind: 'demo' }, run: null };
    const r = parseShared({ ...link, ui: { ...ui, stepsMaxLength: 512 } });
    expect(r.ok && r.value.ui.stepsMaxLength).toBe(512);
  });
});
