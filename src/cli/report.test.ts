import { describe, expect, it } from 'vitest';
import type { Diagnostics } from '../core/stats/diagnose';
import type { DatasetMeta } from '../core/dataset/meta';
import { errorText } from '../core/reward/runRows';
import { diagnosticsJson, issuesText, outLines, stepsTable } from './report';
import { stepsJson } from '../core/steps/json';

describe('diagnosticsJson', () => {
  it('keeps the binding keys in order, NaN and ±Infinity as null, and drops anything else', () => {
    const d = {
      rows: 3,
      groups: 1,
      errors: 1,
      nulls: 0,
      reward: { mean: 0.5, std: 0.5, min: 0, max: 1, distinct: 2 },
      length: { pearson: Number.NaN, spearman: Infinity, withinGroupPearson: -0.25 },
      collapse: { zeroStdGroupFraction: 0, nearZeroStdGroupFraction: 0, zeroAdvantageRolloutFraction: 0 },
      label: { agreement: null },
      extra: 1,
    } as Diagnostics;
    expect(diagnosticsJson(d)).toBe(
      '{"rows":3,"groups":1,"errors":1,"nulls":0,"reward":{"mean":0.5,"std":0.5,"min":0,"max":1,"distinct":2},' +
        '"length":{"pearson":null,"spearman":null,"withinGroupPearson":-0.25},' +
        '"collapse":{"zeroStdGroupFraction":0,"nearZeroStdGroupFraction":0,"zeroAdvantageRolloutFraction":0},"label":{"agreement":null}}',
    );
    expect(JSON.parse(diagnosticsJson({ ...d, label: null })).label).toBeNull();
  });
});

describe('--out lines and messages', () => {
  it('one object per row; reward/advantage null when not scored; error with its line when known', () => {
    const meta = { rows: 3, groupOf: Int32Array.from([0, 0, 1]), groupKeys: ['a', 'b'], lengths: Float64Array.from([3, 0, 12]) } as DatasetMeta;
    const errors = new Map([
      [1, { row: 1, message: 'TypeError: x is undefined', line: 4 }],
      [2, { row: 2, message: 'timed out after 200 ms' }],
    ]);
    const lines = [...outLines(meta, Float64Array.from([1, Number.NaN, Number.NaN]), Float64Array.from([0, Number.NaN, Number.NaN]), errors)];
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { index: 0, group: 'a', reward: 1, advantage: 0, length: 3, error: null },
      { index: 1, group: 'a', reward: null, advantage: null, length: 0, error: 'TypeError: x is undefined (line 4)' },
      { index: 2, group: 'b', reward: null, advantage: null, length: 12, error: 'timed out after 200 ms' },
    ]);
    expect(errorText({ row: 0, message: 'm' })).toBe('m');
    // With group labels (the file's own values, e.g. "200"), the lines name groups by them.
    const labelled = [...outLines(meta, Float64Array.from([1, 0, 1]), Float64Array.from([0, 0, 0]), new Map(), ['200', '9007199254740993'])];
    expect(labelled.map((l) => (JSON.parse(l) as { group: string }).group)).toEqual(['200', '200', '9007199254740993']);
  });

  it('malformed input: the count and the first 10, with line (or row) numbers', () => {
    const issues = Array.from({ length: 12 }, (_, i) => ({ line: 2 * i + 1, reason: `bad ${i}` }));
    const t = issuesText(issues, 'jsonl');
    expect(t.split('\n')).toHaveLength(12);
    expect(t).toMatch(/^skipped 12 malformed lines/);
    expect(t).toContain('  line 19: bad 9');
    expect(t).not.toContain('line 21');
    expect(t).toMatch(/… and 2 more$/);
    expect(issuesText([{ line: 3, reason: 'x' }], 'parquet')).toBe('skipped 1 malformed row (the rest was scored):\n  row 3: x');
  });
});

describe('--by-step', () => {
  // Two steps of two groups of two. Step 0: rewards 1, 1 | 0, 1 (mean 0.75); step 1: 0, 0 | 0, 0 (all min, both cut).
  const by = stepsJson({
    scores: Float64Array.from([1, 1, 0, 1, 0, 0, 0, 0]),
    groupOf: Int32Array.from([0, 0, 1, 1, 0, 0, 1, 1]),
    groupCount: 2,
    steps: Float64Array.from([0, 0, 0, 0, 1, 1, 1, 1]),
    lengths: Float64Array.from([1, 2, 3, 4, 10, 10, 10, 10]),
    labels: Float64Array.from([1, 1, 1, 1, 1, 0, 1, 0]),
    truncated: Uint8Array.from([0, 0, 0, 0, 1, 1, 1, 1]),
  });
  it('adds steps and divergence after the usual keys, by hand', () => {
    const d = { rows: 8, groups: 2, errors: 0, nulls: 0, reward: {}, length: {}, collapse: {}, label: null } as unknown as Diagnostics;
    const out = JSON.parse(diagnosticsJson(d, undefined, null, by)) as Record<string, unknown>;
    expect(Object.keys(out).slice(-2)).toEqual(['steps', 'divergence']);
    expect(out.divergence).toBeNull();
    const [s0, s1] = out.steps as { reward: unknown; collapse: Record<string, number>; label: unknown; length: unknown; truncated: number }[];
    // Step 0: mean 0.75, std √(0.1875); group 0 all 1 = the step's max → all max 1/2; lengths 1..4: mean 2.5, p95 3.85.
    expect(s0.reward).toEqual({ mean: 0.75, std: Math.sqrt(0.1875) });
    expect([s0.collapse.zeroStdGroupFraction, s0.collapse.allMaxFraction, s0.collapse.truncatedZeroStdFraction]).toEqual([0.5, 0.5, 0]);
    expect(s0.label).toEqual({ agreement: 0.75, accuracy: 1, gap: -0.25 });
    const len = s0.length as { mean: number; p95: number };
    expect(len.mean).toBe(2.5);
    expect(len.p95).toBeCloseTo(3.85, 12); // 3 + 0.85·(4 − 3), in floating point
    // Step 1: both groups all 0 and every rollout cut: the truncated cause, not all max (0 is also the step's max).
    expect([s1.collapse.zeroStdGroupFraction, s1.collapse.truncatedZeroStdFraction, s1.collapse.allMaxFraction]).toEqual([1, 1, 0]);
    expect(s1.truncated).toBe(1);
  });
  it('the human report: one line per step and the divergence in words', () => {
    const t = stepsTable(by);
    expect(t[0]).toMatch(/^by step {5}2 steps/);
    expect(t[1]).toMatch(/step +rows +groups +mean/);
    expect(t[2].trim().split(/ +/)).toEqual(['0', '4', '2', '0.75', '0.433', '50.0%', '0.0%', '2.5', '3.85', '0.0%', '1', '75.0%']);
    expect(t.at(-1)).toMatch(/^divergence {2}none/);
  });
});
