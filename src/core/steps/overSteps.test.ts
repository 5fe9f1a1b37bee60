import { describe, expect, it } from 'vitest';
import { diff, f64, i32, type Num } from '../stats/fixtures/check';
import fixture from './fixtures/steps.json';
import { distinctSteps } from '../stats/stepRows';
import { countSteps, rowsByStep, stepIndex, divergence, DIVERGENCE_RULE, overSteps, type StepColumns } from './overSteps';
import { compareSteps, promptIndex, promptOverSteps, promptsAcrossSteps } from './prompts';

interface CaseInput {
  name: string;
  scores: Num[];
  groupOf: number[];
  groupCount: number;
  groupKeys: string[];
  steps: Num[];
  lengths: number[];
  labels: Num[] | null;
  truncated: number[] | null;
  components: Record<string, Num[]>;
}

function columns(c: CaseInput): StepColumns {
  return {
    scores: f64(c.scores),
    groupOf: i32(c.groupOf),
    groupCount: c.groupCount,
    steps: f64(c.steps),
    lengths: Float64Array.from(c.lengths),
    labels: c.labels ? f64(c.labels) : null,
    truncated: c.truncated ? Uint8Array.from(c.truncated) : null,
    components: Object.fromEntries(Object.entries(c.components).map(([k, v]) => [k, f64(v)])),
  };
}

describe('overSteps matches the numpy reference (scripts/steps-fixtures.py)', () => {
  for (const c of fixture.cases) {
    const input = c.input as unknown as CaseInput;
    it(input.name, () => {
      const got = overSteps(columns(input));
      expect(got.steps.length).toBe(c.expected.steps.length);
      expect(diff(got.steps, c.expected.steps)).toEqual([]);
      expect(got.divergence === null ? null : { step: got.divergence.step, from: got.divergence.from }).toEqual(c.expected.divergence);
    });
    it(`prompts across steps, one prompt, two steps compared: ${input.name}`, () => {
      const cols = columns(input);
      const p = promptIndex(input.groupKeys, cols.groupOf);
      expect(promptsAcrossSteps(p, cols.steps)).toEqual(c.prompts.listed);
      for (const [prompt, perStep] of Object.entries(c.prompts.perPrompt)) {
        expect(diff(promptOverSteps(p, Number(prompt), cols.scores, cols.steps).perStep, perStep)).toEqual([]);
      }
      const e = c.prompts.compare;
      const got = compareSteps(p, cols.scores, cols.steps, e.stepA, e.stepB);
      expect(
        diff(
          {
            aMean: got.a.mean,
            bMean: got.b.mean,
            aStd: got.a.std,
            bStd: got.b.std,
            meanChange: got.meanChange,
            prompts: got.prompts,
            promptIds: got.promptIds,
            meansA: got.meansA,
            meansB: got.meansB,
            meanPromptChange: got.meanPromptChange,
            ...(got.prompts > 2 ? { pearson: got.byPrompt.pearson, spearman: got.byPrompt.spearman } : {}),
          },
          Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'stepA' && k !== 'stepB' && (got.prompts > 2 || (k !== 'pearson' && k !== 'spearman')))),
        ),
      ).toEqual([]);
    });
  }
});

it('overSteps matches the reference on the CLI test run (agreement where rewards are 0/1)', () => {
  const got = overSteps(columns(fixture.cli.input as unknown as CaseInput));
  expect(got.steps.filter((s) => s.label?.agreement !== null).length).toBe(3);
  expect(diff(got.steps, fixture.cli.expected.steps)).toEqual([]);
});

describe('the divergence rule, by hand', () => {
  const series = (reward: number[], label: number[]) => reward.map((r, k) => ({ step: k * 10, reward: r, label: label[k] }));
  it('flags the step ending three rises of the reward that are three falls of the label', () => {
    // Changes 10→20, 20→30, 30→40 all rise / fall: flagged at 40, counted from 10.
    expect(divergence(series([0.1, 0.2, 0.3, 0.4, 0.5], [0.9, 0.8, 0.7, 0.6, 0.5]))).toEqual({ step: 30, from: 0, rule: DIVERGENCE_RULE });
    expect(divergence(series([0.1, 0.1, 0.2, 0.3, 0.4], [0.9, 0.8, 0.7, 0.6, 0.5]))).toEqual({ step: 40, from: 10, rule: DIVERGENCE_RULE });
  });
  it('is null when the reward is flat, when both rise, when the run is broken, and without labels', () => {
    expect(divergence(series([0.3, 0.3, 0.3, 0.3], [0.9, 0.8, 0.7, 0.6]))).toBeNull();
    expect(divergence(series([0.1, 0.2, 0.3, 0.4], [0.1, 0.2, 0.3, 0.4]))).toBeNull();
    expect(divergence(series([0.1, 0.2, 0.3, 0.25, 0.4, 0.5], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]))).toBeNull();
    expect(divergence(series([0.1, 0.2, 0.3, 0.4], [NaN, NaN, NaN, NaN]))).toBeNull();
  });
  it('skips steps without a label mean (they neither break nor extend the run)', () => {
    expect(divergence(series([0.1, 0.2, 0.25, 0.3, 0.4], [0.9, 0.8, NaN, 0.7, 0.6]))).toEqual({ step: 40, from: 0, rule: DIVERGENCE_RULE });
  });
});

describe('stepIndex and rowsByStep', () => {
  it("numbers the distinct finite steps ascending (0 and −0 one step) and lists each step's rows in row order", () => {
    const { values, of } = stepIndex(f64([5, 5, -1, NaN, 0, -0, 5, Infinity, 2.5]));
    expect(Array.from(values)).toEqual([-1, 0, 2.5, 5]);
    expect(Array.from(of)).toEqual([3, 3, 0, -1, 1, 1, 3, -1, 2]);
    const { start, order } = rowsByStep(of, values.length);
    expect(Array.from(start)).toEqual([0, 1, 3, 4, 7]);
    expect(Array.from(order)).toEqual([2, 4, 5, 8, 0, 1, 6]);
  });
});

describe('distinctSteps', () => {
  it('counts distinct finite steps up to its bound: 0 and −0 are one, NaN and ±Infinity none', () => {
    expect(distinctSteps(f64([NaN, Infinity, -Infinity]), 2)).toBe(0);
    expect(distinctSteps(f64([0, -0, NaN, 0]), 2)).toBe(1);
    expect(distinctSteps(f64([3, 3, NaN, 1, 7]), 2)).toBe(2);
    expect(distinctSteps(f64([3, 3, NaN, 1, 7]), 5)).toBe(3);
    expect(distinctSteps(f64([]), 2)).toBe(0);
  });
});

describe('countSteps', () => {
  it('counts distinct finite steps (0 and −0 are one), up to a limit', () => {
    expect(countSteps(f64([3, NaN, 3, -0, 0, Infinity, 7]))).toBe(3);
    expect(countSteps(f64([1, 2, 3, 4]), 2)).toBe(2);
    expect(countSteps(f64([null, null]))).toBe(0);
  });
});

describe('overSteps on hostile columns', () => {
  it('leaves out rows without a finite step, and refuses columns of another length', () => {
    const cols: StepColumns = {
      scores: f64([1, 0, 1, 1]),
      groupOf: i32([0, 0, 1, 1]),
      groupCount: 2,
      steps: f64([1, Infinity, NaN, 1]),
      lengths: f64([3, 4, 5, 6]),
    };
    const r = overSteps(cols);
    // Step 1 holds rows 0 and 3: rewards 1, 1; lengths 3, 6 (mean 4.5; p95 = 3 + 0.95·3 = 5.85).
    expect(r.steps.map((s) => [s.step, s.rows, s.groups, s.reward.mean, s.length.mean, s.length.p95, s.truncated, s.label])).toEqual([
      [1, 2, 2, 1, 4.5, 5.85, null, null],
    ]);
    expect(() => overSteps({ ...cols, lengths: f64([1]) })).toThrow(/lengths/);
  });
});
