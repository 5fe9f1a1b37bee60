import { describe, expect, it } from 'vitest';
import { parseShared } from './schema';

const base = {
  v: 2,
  name: 'Shared: rm reward',
  editor: {
    language: 'ts',
    code: 'export default (t, ctx) => ctx.models.tiny_reward;',
    tokenizer: 'gpt2',
    timeLimitMs: 1000,
    pyFunction: null,
    pyBatchSize: 32,
  },
  ui: { diagTab: 'distribution', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
  data: { kind: 'demo' },
  run: null,
};
const tiny = {
  id: 'tiny_reward',
  name: 'tiny-reward',
  inputs: [
    { name: 'input_ids', shape: ['batch', 'sequence'] },
    { name: 'attention_mask', shape: ['batch', 'sequence'] },
  ],
  outputs: [{ name: 'logits', shape: ['batch', 1] }],
  size: 273_000,
  sha256: 'a'.repeat(64),
};

describe('share links: the models the reward used', () => {
  it('a link without models is the v2 link it was; one with them keeps them', () => {
    const plain = parseShared(base);
    expect(plain.ok && plain.value.models).toBeUndefined();
    const r = parseShared({ ...base, models: [tiny] });
    expect(r.ok && r.value.models).toEqual([tiny]);
  });
  it('hostile values are refused with the place of the problem', () => {
    const bad = (m: unknown) => {
      const r = parseShared({ ...base, models: m });
      return r.ok ? 'accepted' : r.message;
    };
    expect(bad([{ ...tiny, sha256: 'zz' }])).toContain('models.0.sha256: expected 64 lowercase hex digits');
    expect(bad([{ ...tiny, id: 'x; alert(1)' }])).toContain('models.0.id: expected an identifier');
    expect(bad([{ ...tiny, size: -1 }])).toContain('models.0.size');
    expect(bad([{ ...tiny, inputs: Array.from({ length: 17 }, () => tiny.inputs[0]) }])).toContain('models.0.inputs');
    expect(bad(Array.from({ length: 9 }, () => tiny))).toContain('models');
    expect(bad('tiny')).toContain('models');
    // Weights never travel: an unknown key such as `weights` is dropped, not kept.
    const r = parseShared({ ...base, models: [{ ...tiny, weights: 'AAAA' }] });
    expect(r.ok && r.value.models?.[0]).toEqual(tiny);
  });
});
