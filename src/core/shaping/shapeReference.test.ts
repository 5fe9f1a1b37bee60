/** The shaping transforms and the low-std diagnostic against the independent Python reference (scripts/shaping-fixtures.py). */
import { describe, expect, it } from 'vitest';
import { diff, f64, type Num } from '../stats/fixtures/check';
import type { PresetId } from '../stats/advantage';
import fixture from './fixtures/shaping.json';
import { lowStdGroups } from './lowStd';
import { applyShaping, type ShapeInput } from './shape';
import { normaliseShapes } from './spec';

const d = fixture.input;
const input: ShapeInput = {
  groupOf: Int32Array.from(d.groupOf),
  groupCount: d.groupCount,
  lengths: { chars: d.chars, tokens: d.tokens },
  columns: { ref: f64(d.ref as Num[]) },
  steps: { offsets: Int32Array.from(d.stepOffsets), values: Float64Array.from(d.stepValues) },
};
const rewards = f64(d.rewards as Num[]);

function shaped(specs: unknown): Float64Array {
  const n = normaliseShapes(specs);
  if (!n.ok) throw new Error(n.message);
  return applyShaping(rewards, n.value, input);
}

describe('shaping against the Python reference', () => {
  it.each(fixture.cases.map((c) => [c.specs.map((s) => s.name).join(' → '), c] as const))('%s', (_, c) => {
    expect(diff(shaped(c.specs), c.shaped as Num[])).toEqual([]);
  });
  it.each(fixture.lowStd.map((c) => [`${c.preset} after [${c.specs.map((s) => s.name).join(', ')}]`, c] as const))('low-std groups, %s', (_, c) => {
    const r = lowStdGroups(shaped(c.specs), input.groupOf, input.groupCount, c.preset as PresetId);
    const e = c.expected;
    expect(
      diff({ floor: r.floor, lowGroups: [...r.lowGroups], fraction: r.fraction }, { floor: e.floor, lowGroups: e.lowGroups, fraction: e.fraction }),
    ).toEqual([]);
    // Advantages of near-equal rewards: float64 cancellation in (r − mean) differs between summation orders.
    expect(diff(r.maxAbsAdvantage, e.maxAbsAdvantage, '$', 1e-6)).toEqual([]);
  });
  it('the fixture has low-std groups to find', () => expect(fixture.lowStd[0].expected.lowGroups.length).toBeGreaterThan(2));
});
