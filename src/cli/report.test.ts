import { describe, expect, it } from 'vitest';
import type { Diagnostics } from '../core/stats/diagnose';
import type { DatasetMeta } from '../core/dataset/meta';
import { errorText } from '../core/reward/runRows';
import { diagnosticsJson, issuesText, outLines } from './report';

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
