import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import type { PresetId } from './advantage';
import { diagnose } from './diagnose';
import { diff, f64, i32, type Num } from './fixtures/check';
import cases from './fixtures/diagnose.json';

describe('diagnose', () => {
  it('counts statuses and treats non-ok scores as missing', () => {
    const d = diagnose({
      scores: f64([1, 0, 99, 0.5]),
      status: Uint8Array.from([RowStatus.Ok, RowStatus.Ok, RowStatus.Error, RowStatus.Null]),
      groupOf: i32([0, 0, 1, 1]),
      groupCount: 2,
      lengths: [10, 20, 30, 40],
    });
    expect(d.rows).toBe(4);
    expect(d.groups).toBe(2);
    expect(d.errors).toBe(1);
    expect(d.nulls).toBe(1);
    expect(d.reward).toEqual({ mean: 0.5, std: 0.5, min: 0, max: 1, distinct: 2 });
    expect(d.length.pearson).toBeCloseTo(-1, 15);
    expect(d.collapse.zeroStdGroupFraction).toBe(0);
    expect(d.label).toBeNull();
  });

  for (const c of cases) {
    it(`matches the reference: ${c.name}`, () => {
      const got = diagnose({
        scores: f64(c.scores as Num[]),
        status: Uint8Array.from(c.status),
        groupOf: i32(c.groupOf),
        groupCount: c.groupCount,
        lengths: c.lengths,
        labels: c.labels ? f64(c.labels as Num[]) : null,
        preset: c.preset as PresetId,
      });
      expect(diff(got, c.expected)).toEqual([]);
    });
  }
});
