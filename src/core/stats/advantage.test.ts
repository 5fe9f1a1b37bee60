import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advantages, isPresetId, PRESET_IDS, PRESETS, type PresetId } from './advantage';
import { diff, f64, i32, type Num } from './fixtures/check';
import cases from './fixtures/advantage.json';

const one = (rewards: number[], preset: PresetId, groupOf = rewards.map(() => 0), groupCount = 1) =>
  Array.from(advantages(rewards, i32(groupOf), groupCount, preset));

describe('advantage presets, hand-worked', () => {
  const S = Math.sqrt(1 / 3); // Bessel std of [1, 0, 0, 1] = √(1/3) = 0.57735…

  it('TRL group: [1,0,0,1] → ±0.5 / (0.57735 + 1e-4)', () => {
    const a = 0.5 / (S + 1e-4);
    expect(
      one([1, 0, 0, 1], 'trl')
        .map((v, i) => v - [a, -a, -a, a][i])
        .every((d) => Math.abs(d) < 1e-15),
    ).toBe(true);
    expect(one([1, 0, 0, 1], 'trl')[0]).toBeCloseTo(0.865875, 6);
  });

  it('verl GRPO: ±0.5 / (0.57735 + 1e-6); OpenRLHF group_norm: ±0.5 / (0.57735 + 1e-9)', () => {
    expect(one([1, 0, 0, 1], 'verl')[0]).toBeCloseTo(0.5 / (S + 1e-6), 15);
    expect(one([1, 0, 0, 1], 'openrlhf')[1]).toBeCloseTo(-0.5 / (S + 1e-9), 15);
  });

  it('no std: trl-none, dr-grpo, openrlhf-dr-grpo give r − mean', () => {
    for (const p of ['trl-none', 'dr-grpo', 'openrlhf-dr-grpo'] as const) expect(one([1, 0, 0, 1], p)).toEqual([0.5, -0.5, -0.5, 0.5]);
  });

  it('RLOO: r − mean of the others: [1,0,0,1] → 1 − 1/3 = 2/3, 0 − 2/3', () => {
    for (const p of ['rloo', 'openrlhf-rloo'] as const) {
      const a = one([1, 0, 0, 1], p);
      expect(a[0]).toBeCloseTo(2 / 3, 15);
      expect(a[1]).toBeCloseTo(-2 / 3, 15);
    }
  });

  it('a group of one: TRL 0 (nan_to_num), verl r/(1+1e-6), Dr. GRPO and verl RLOO r, OpenRLHF NaN / NaN / 0', () => {
    expect(one([1], 'trl')).toEqual([0]);
    expect(one([1], 'trl-batch')).toEqual([0]);
    expect(one([1], 'trl-none')).toEqual([0]);
    expect(one([1], 'verl')).toEqual([1 / (1 + 1e-6)]);
    expect(one([1], 'dr-grpo')).toEqual([1]);
    expect(one([0.25], 'rloo')).toEqual([0.25]);
    expect(one([1], 'openrlhf')).toEqual([NaN]);
    expect(one([1], 'openrlhf-rloo')).toEqual([NaN]);
    expect(one([1], 'openrlhf-dr-grpo')).toEqual([0]);
  });

  it('TRL batch: group mean, batch std', () => {
    // groups [1, 0] and [1, 1]; batch Bessel std of [1,0,1,1] = √(0.1875·4/3) = 0.5
    expect(one([1, 0, 1, 1], 'trl-batch', [0, 0, 1, 1], 2)).toEqual([0.5 / 0.5001, -0.5 / 0.5001, 0, 0]);
  });

  it('eps decides what a tiny std does: [0, 2e-9] → TRL ≈ 1e-5, verl ≈ 1e-3, OpenRLHF ≈ 0.414', () => {
    const sd = Math.SQRT2 * 1e-9; // Bessel std of [0, 2e-9]
    expect(one([0, 2e-9], 'trl')[1]).toBeCloseTo(1e-9 / (sd + 1e-4), 18);
    expect(one([0, 2e-9], 'verl')[1]).toBeCloseTo(1e-9 / (sd + 1e-6), 15);
    expect(one([0, 2e-9], 'openrlhf')[1]).toBeCloseTo(1e-9 / (sd + 1e-9), 15);
  });

  it('OpenRLHF clamps to ±10 (--reward.clip_range default); the others do not', () => {
    expect(one([0, 100], 'openrlhf-dr-grpo')).toEqual([-10, 10]);
    expect(one([0, 100], 'dr-grpo')).toEqual([-50, 50]);
  });

  it('all-equal groups give exactly 0, even for 0.1 · 3 (no rounding crumb)', () => {
    for (const p of PRESET_IDS) expect(one([0.1, 0.1, 0.1], p)).toEqual([0, 0, 0]);
  });

  it('unscored rows (NaN reward, unknown group) are NaN and left out of their group', () => {
    const a = one([1, NaN, 0, 1], 'trl-none', [0, 0, 0, 5], 1);
    expect(a).toEqual([0.5, NaN, -0.5, NaN]);
  });

  it('rejects an unknown preset and mismatched lengths', () => {
    expect(() => advantages([1], i32([0]), 1, 'grpo' as PresetId)).toThrow('invalid preset: grpo');
    expect(() => advantages([1, 2], i32([0]), 1, 'trl')).toThrow(RangeError);
  });
});

describe('preset table', () => {
  it('lists every preset once with a label, framework and formula', () => {
    expect(new Set(PRESET_IDS).size).toBe(9);
    expect(Object.keys(PRESETS).sort()).toEqual([...PRESET_IDS].sort());
    for (const id of PRESET_IDS) {
      expect(isPresetId(id)).toBe(true);
      expect(PRESETS[id].label.length).toBeGreaterThan(0);
      expect(PRESETS[id].formula.length).toBeGreaterThan(0);
    }
    expect(PRESETS.trl.label).toBe('TRL GRPO · scale_rewards=group');
    expect(isPresetId('grpo')).toBe(false);
    expect(isPresetId(3)).toBe(false);
  });

  it("is the list README's CLI section names", () => {
    // README writes the --preset values by hand: the lines that mention presets must name each, and nothing else.
    const lines = readFileSync(join(__dirname, '../../../README.md'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('--preset') || l.includes('presets `'));
    const named = new Set(lines.flatMap((l) => [...l.matchAll(/--preset ([\w|-]+)|`([a-z][\w-]*)`/g)].flatMap((m) => (m[1] ?? m[2]).split('|'))));
    expect([...named].sort()).toEqual([...PRESET_IDS].sort());
  });
});

describe('advantages match the numpy transcriptions of TRL / verl / OpenRLHF', () => {
  for (const c of cases) {
    for (const p of PRESET_IDS) {
      it(`${c.name} · ${p}`, () => {
        const got = advantages(f64(c.rewards as Num[]), i32(c.groupOf), c.groupCount, p);
        expect(diff(got, (c.expected as Record<string, Num[]>)[p])).toEqual([]);
      });
    }
  }
});
