/** The Shaping list in share links and session documents (issue 25): kept, normalised, and refused when bad. */
import { describe, expect, it } from 'vitest';
import { parseSessionDoc, parseShared, type SessionDoc, type SharedSession } from './schema';
import { decodeShare, encodeShare } from './shareCodec';

const shared: SharedSession = {
  v: 2,
  name: 'Shaped',
  editor: { language: 'ts', code: 'export default () => 1', tokenizer: 'gpt2', timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 },
  ui: { diagTab: 'shaping', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
  data: { kind: 'demo' },
  run: null,
};
const LIST = [
  { name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' },
  { name: 'kimi-length', unit: 'tokens' },
];

describe('shaping in share links', () => {
  it('round-trips through a link; a link without it still opens', () => {
    const link = encodeShare({ ...shared, ui: { ...shared.ui, shaping: LIST as never } });
    const back = decodeShare(link);
    expect(back.ok && back.session.ui.shaping).toEqual(LIST);
    const old = parseShared(shared);
    expect(old.ok && old.value.ui.shaping).toBeUndefined();
  });
  it('fills defaults once, at the door', () => {
    const r = parseShared({ ...shared, ui: { ...shared.ui, shaping: [{ name: 'kimi-length' }, { name: 'scale', by: 2 }] } });
    expect(r.ok && r.value.ui.shaping).toEqual([
      { name: 'kimi-length', unit: 'tokens' },
      { name: 'scale', by: 2 },
    ]);
  });
  it.each([
    [[{ name: 'dapo-overlong', max: 400, cache: 'x' }], 'invalid dapo-overlong cache: x'],
    [[{ name: 'scale', by: 1, evil: true }], 'invalid scale option: evil'],
    [[{ name: 'eval' }], 'invalid shape name: eval'],
    [{ name: 'clip' }, 'invalid shaping: {"name":"clip"}'],
    [[{ name: 'step-delta' }], 'invalid shaping: step-delta without a step-sum after it'],
  ])('refuses %j with %s, at ui.shaping', (shaping, message) => {
    const r = parseShared({ ...shared, ui: { ...shared.ui, shaping } });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(message);
    expect(!r.ok && r.message).toContain('ui.shaping');
  });
});

describe('the "shaped reward in the other tabs" switch', () => {
  it('is kept when it is a boolean and dropped (off) when it is not', () => {
    const on = parseShared({ ...shared, ui: { ...shared.ui, shapeDiagnostics: true } });
    expect(on.ok && on.value.ui.shapeDiagnostics).toBe(true);
    const odd = parseShared({ ...shared, ui: { ...shared.ui, shapeDiagnostics: 'yes' } });
    expect(odd.ok && odd.value.ui.shapeDiagnostics).toBeUndefined();
  });
});

describe('shaping in session documents', () => {
  const doc: SessionDoc = {
    v: 1,
    id: 's1',
    name: 'S',
    createdAt: 1,
    updatedAt: 2,
    editor: { language: 'ts', code: { ts: '', py: '' }, tokenizer: 'gpt2', timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 },
    ui: { ...shared.ui, shaping: LIST as never },
    data: { kind: 'none' },
    dataVersion: 0,
    runs: [],
    currentRunId: null,
    origin: null,
  };
  it('keeps the list and refuses a bad one', () => {
    const r = parseSessionDoc(doc);
    expect(r.ok && r.value.ui.shaping).toEqual(LIST);
    const bad = parseSessionDoc({ ...doc, ui: { ...doc.ui, shaping: [{ name: 'clip', min: 3, max: 1 }] } });
    expect(!bad.ok && bad.message).toContain('invalid clip min: 3 (above max 1)');
  });
});
