/**
 * Each transform against values worked out by hand (the arithmetic is in the comments); the Python reference
 * (scripts/shaping-fixtures.py) checks longer lists on random data in shapeReference.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { applyShaping, dapoPenalty, kimiLambda, type ShapeInput, type StepColumn } from './shape';
import { normaliseShapes, type ShapeSpec } from './spec';

// Group 0: rows 0–2; group 1: rows 3–5, row 5 unscored (its length 50 must not count as the group's minimum).
const R = [1, 0, 1, 0.5, 0.5, NaN];
const LEN = [100, 350, 420, 300, 380, 50];
const input: ShapeInput = { groupOf: Int32Array.from([0, 0, 0, 1, 1, 1]), groupCount: 2, lengths: { chars: LEN } };

function shape(specs: unknown[], inp: ShapeInput = input, r: number[] = R): number[] {
  const n = normaliseShapes(specs);
  if (!n.ok) throw new Error(n.message);
  return [...applyShaping(r, n.value, inp)];
}

function close(got: number[], exp: number[]) {
  expect(got.length).toBe(exp.length);
  got.forEach((g, i) => (Number.isNaN(exp[i]) ? expect(g, `row ${i}`).toBeNaN() : expect(g, `row ${i}`).toBeCloseTo(exp[i], 12)));
}

describe('dapo-overlong', () => {
  it('0 up to L − C, a linear ramp to −1 at L, −1 beyond', () => {
    // L = 400, C = 100: L − C = 300.
    expect(dapoPenalty(300, 400, 100)).toBe(0);
    expect(dapoPenalty(350, 400, 100)).toBe(-0.5); // (300 − 350) / 100
    expect(dapoPenalty(400, 400, 100)).toBe(-1); // (300 − 400) / 100
    expect(dapoPenalty(401, 400, 100)).toBe(-1);
    expect(dapoPenalty(401, 400, 0)).toBe(-1); // C = 0: the hard limit
    expect(dapoPenalty(400, 400, 0)).toBe(0);
  });
  it('is added to the reward; unscored rows stay NaN', () => {
    // 1 + 0, 0 − 0.5, 1 − 1, 0.5 + 0, 0.5 + (300 − 380)/100 = −0.3
    close(shape([{ name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' }]), [1, -0.5, 0, 0.5, -0.3, NaN]);
  });
  it('needs the lengths in its unit', () => {
    expect(() => shape([{ name: 'dapo-overlong', max: 400, cache: 100 }])).toThrow("dapo-overlong needs the completions' lengths in tokens");
  });
});

describe('kimi-length', () => {
  it('λ = 0.5 − (len − min)/(max − min), 0 when all lengths are equal', () => {
    expect(kimiLambda(100, 100, 420)).toBe(0.5);
    expect(kimiLambda(420, 100, 420)).toBe(-0.5);
    expect(kimiLambda(350, 100, 420)).toBe(0.5 - 250 / 320);
    expect(kimiLambda(7, 7, 7)).toBe(0);
  });
  it('correct rows (r > 0) get λ, the others min(0, λ); min/max over the group’s scored rows', () => {
    // Group 0 (min 100, max 420): λ = 0.5, −0.28125, −0.5 → 1 + 0.5, 0 + min(0, −0.28125), 1 − 0.5.
    // Group 1 (scored lengths 300, 380; row 5's 50 left out): λ = 0.5, −0.5 → 0.5 + 0.5, 0.5 − 0.5.
    close(shape([{ name: 'kimi-length', unit: 'chars' }]), [1.5, -0.28125, 0.5, 1, 0, NaN]);
  });
  it('a wrong row with a short length gets no bonus (min(0, λ) = 0)', () => {
    // Group of two: lengths 10 (λ 0.5), 20 (λ −0.5); rewards 0 and −1 (both wrong) → 0 + 0, −1 − 0.5.
    const inp: ShapeInput = { groupOf: Int32Array.from([0, 0]), groupCount: 1, lengths: { tokens: [10, 20] } };
    close(shape([{ name: 'kimi-length' }], inp, [0, -1]), [0, -1.5]);
  });
});

describe('par', () => {
  const inp: ShapeInput = { groupOf: Int32Array.from([0, 0, 0]), groupCount: 1, columns: { ref: [0.2, NaN, 1.5] } };
  const r = [0.2, 0.8, 0.5];
  const sig = (x: number) => 1 / (1 + Math.exp(-x));
  it('ref=median: sigmoid(r − median of the group)', () => {
    // median 0.5 → sigmoid(−0.3), sigmoid(0.3), sigmoid(0) = 0.5
    close(shape([{ name: 'par' }], inp, r), [sig(-0.3), sig(0.3), 0.5]);
    expect(sig(0)).toBe(0.5);
    expect(sig(0.3)).toBeCloseTo(0.574442516811659, 14); // 1 / (1 + e^−0.3), e^−0.3 = 0.7408182206817179
  });
  it('ref=first: the group’s first scored rollout', () => {
    close(shape([{ name: 'par', ref: 'first' }], inp, r), [0.5, sig(0.6), sig(0.3)]);
    // Row 0 unscored: the first scored rollout is row 1 (0.8).
    close(shape([{ name: 'par', ref: 'first' }], inp, [NaN, 0.8, 0.5]), [NaN, 0.5, sig(-0.3)]);
  });
  it('ref=column: the row’s own reference; a missing one unscores the row', () => {
    close(shape([{ name: 'par', ref: 'column', column: 'ref' }], inp, r), [0.5, NaN, sig(-1)]);
  });
  it('an even group: the median is the mean of the two middle values', () => {
    const inp4: ShapeInput = { groupOf: Int32Array.from([0, 0, 0, 0]), groupCount: 1 };
    // sorted 0, 1, 2, 10 → median 1.5
    close(shape([{ name: 'par' }], inp4, [10, 0, 2, 1]), [sig(8.5), sig(-1.5), sig(0.5), sig(-0.5)]);
  });
});

describe('clip, scale, center', () => {
  it('clip bounds each side given', () => {
    close(shape([{ name: 'clip', min: 0, max: 0.6 }]), [0.6, 0, 0.6, 0.5, 0.5, NaN]);
    close(shape([{ name: 'clip', min: 0.7 }]), [1, 0.7, 1, 0.7, 0.7, NaN]);
  });
  it('scale multiplies', () => close(shape([{ name: 'scale', by: -2 }]), [-2, -0, -2, -1, -1, NaN]));
  it('center: the batch mean (3/5) or the group mean (2/3, 1/2) of scored rows', () => {
    close(shape([{ name: 'center' }]), [0.4, -0.6, 0.4, -0.1, -0.1, NaN]);
    close(shape([{ name: 'center', over: 'group' }]), [1 / 3, -2 / 3, 1 / 3, 0, 0, NaN]);
  });
  it('transforms apply in order', () => {
    // scale then clip: 2, 0, 2, 1, 1 → clip max 1.5 → 1.5, 0, 1.5, 1, 1; clip then scale: 0.6·2 …
    close(
      shape([
        { name: 'scale', by: 2 },
        { name: 'clip', max: 1.5 },
      ]),
      [1.5, 0, 1.5, 1, 1, NaN],
    );
    close(
      shape([
        { name: 'clip', max: 0.6 },
        { name: 'scale', by: 2 },
      ]),
      [1.2, 0, 1.2, 1, 1, NaN],
    );
    // DAPO then Kimi: Kimi's "correct" reads the reward after DAPO (row 2: 1 − 1 = 0 is no longer correct).
    // Group 0 after DAPO: 1, −0.5, 0; λ 0.5, −0.28125, −0.5 → 1.5, −0.78125, 0 + min(0, −0.5) = −0.5.
    // Group 1 after DAPO: 0.5, −0.3; λ 0.5, −0.5 → 1, −0.3 − 0.5 = −0.8.
    close(
      shape([
        { name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' },
        { name: 'kimi-length', unit: 'chars' },
      ]),
      [1.5, -0.78125, -0.5, 1, -0.8, NaN],
    );
  });
});

describe('step rewards (Gao et al. 2024)', () => {
  // Row 0: 0.9, 0.7, 0.8; row 1: none; row 2: 0.2; row 3: 0.5, 0.6; row 4: none; row 5 (unscored): 1.
  const steps: StepColumn = { offsets: Int32Array.from([0, 3, 3, 4, 6, 6, 7]), values: Float64Array.from([0.9, 0.7, 0.8, 0.2, 0.5, 0.6, 1]) };
  const inp: ShapeInput = { ...input, steps };
  it('step-sum alone adds the raw step rewards', () => {
    close(shape([{ name: 'step-sum' }], inp), [1 + 2.4, 0, 1.2, 0.5 + 1.1, 0.5, NaN]);
  });
  it('Clip: min(r_k − η, 0), then summed', () => {
    // η = 0.75: row 0 → 0, −0.05, 0 (−0.05); row 2 → −0.55; row 3 → −0.25, −0.15 (−0.4)
    close(shape([{ name: 'step-clip', eta: 0.75 }, { name: 'step-sum' }], inp), [0.95, 0, 0.45, 0.1, 0.5, NaN]);
  });
  it('Delta: r_k − r_{k+1}, the last step kept, so the sum is the first step’s reward', () => {
    // row 0 → 0.2, −0.1, 0.8 (0.9); row 2 → 0.2; row 3 → −0.1, 0.6 (0.5); weight 0.5
    close(shape([{ name: 'step-delta' }, { name: 'step-sum', weight: 0.5 }], inp), [1.45, 0, 1.1, 0.75, 0.5, NaN]);
  });
  it('Delta with last=drop: the last step gets 0, so the sum is r_1 − r_K', () => {
    // row 0 → 0.2, −0.1, 0 (0.1); row 2 → 0; row 3 → −0.1, 0 (−0.1)
    close(shape([{ name: 'step-delta', last: 'drop' }, { name: 'step-sum' }], inp), [1.1, 0, 1, 0.4, 0.5, NaN]);
  });
  it('Clip then Delta: the return is the clipped first step', () => {
    // row 0: clipped 0, −0.05, 0 → 0.05, −0.05, 0 (0); row 2: −0.55; row 3: −0.25, −0.15 → −0.1, −0.15 (−0.25)
    close(shape([{ name: 'step-clip', eta: 0.75 }, { name: 'step-delta' }, { name: 'step-sum' }], inp), [1, 0, 0.45, 0.25, 0.5, NaN]);
  });
  it('leaves the caller’s step column as it was', () => {
    shape([{ name: 'step-clip', eta: 0.75 }, { name: 'step-sum' }], inp);
    expect([...steps.values]).toEqual([0.9, 0.7, 0.8, 0.2, 0.5, 0.6, 1]);
  });
  it('needs step rewards', () => {
    expect(() => shape([{ name: 'step-sum' }])).toThrow('step-sum needs step rewards');
  });
});

describe('applyShaping', () => {
  it('an empty list copies the scored rewards; rows outside the groups become NaN', () => {
    const r = applyShaping([1, 2, 3], [] as ShapeSpec[], { groupOf: Int32Array.from([0, -1, 5]), groupCount: 1 });
    expect([...r]).toEqual([1, NaN, NaN]);
  });
  it('refuses a list that was not normalised', () => {
    expect(() => applyShaping([1], [{ name: 'scale', by: NaN }], { groupOf: Int32Array.from([0]), groupCount: 1 })).toThrow('invalid scale by: NaN');
  });
});
