/**
 * The workers read the page's columns without copying them (runtime/sharedColumns: one shared copy per column, sent
 * to every job): no figure may write into its inputs, or every later job would compute from changed data.
 */
import { describe, expect, it } from 'vitest';
import { overSteps } from '../steps/overSteps';
import { PRESET_IDS } from './advantage';
import { truncatedRows } from './truncation';
import { figuresOf, type FigureJob } from './figures';

/** A seeded generator (mulberry32): the same columns at every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** On a SharedArrayBuffer, as the workers get them. */
function sharedOf<T extends Float64Array | Int32Array | Uint8Array>(a: T): T {
  const s = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
  s.set(a as never);
  return s;
}

const N = 5000; // past the radix sorts' thresholds (512 and 4,096 values)
const r = rng(7);
const pick = (xs: number[]) => xs[Math.floor(r() * xs.length)];
const values = sharedOf(Float64Array.from({ length: N }, () => pick([0, 1, 1, 0.5, -0, NaN, r(), -r() * 3])));
const other = sharedOf(Float64Array.from({ length: N }, () => pick([0, 1, NaN, r()])));
const groupOf = sharedOf(Int32Array.from({ length: N }, (_, i) => Math.floor(i / 8)));
const lengths = sharedOf(Int32Array.from({ length: N }, () => Math.floor(r() * 2000)));
const steps = sharedOf(Float64Array.from({ length: N }, (_, i) => (i % 97 === 0 ? NaN : Math.floor(i / 500))));
const truncated = sharedOf(Uint8Array.from({ length: N }, () => (r() < 0.1 ? 1 : 0)));
const fields = sharedOf(Float64Array.from({ length: N }, () => pick([NaN, NaN, 0, 1])));
const all = { values, other, groupOf, lengths, steps, truncated, fields };
const before = Object.fromEntries(Object.entries(all).map(([k, a]) => [k, Array.from(a as ArrayLike<number>)]));

function expectUnchanged() {
  for (const [k, a] of Object.entries(all)) {
    const now = Array.from(a as ArrayLike<number>);
    // Object.is: a NaN stays NaN, −0 stays −0.
    expect(
      now.every((x, i) => Object.is(x, before[k][i])),
      k,
    ).toBe(true);
  }
}

const groupCount = Math.ceil(N / 8);
const jobs: FigureJob[] = [
  { kind: 'distribution', values, others: [other] },
  { kind: 'histogram', values, maxBins: 30 },
  { kind: 'component', values },
  { kind: 'length', values, lengths, groupOf, groupCount },
  ...PRESET_IDS.map((preset, k): FigureJob => ({ kind: 'collapse', values, groupOf, groupCount, preset, steps: k % 2 ? null : steps })),
  { kind: 'shaping-side', values, groupOf, groupCount, lengths, preset: 'trl', truncated, floor: 0.5 },
  { kind: 'compare', a: values, b: other },
];

describe('the workers’ figures leave their inputs as they were', () => {
  it.each(jobs.map((j) => [j.kind === 'collapse' ? `collapse ${j.preset}` : j.kind, j] as const))('%s', (_, job) => {
    figuresOf(job);
    expectUnchanged();
  });

  it('over steps, with its truncated rows made from the fields (the data worker)', () => {
    const t = truncatedRows(fields, lengths, 1500);
    overSteps({ scores: values, groupOf, groupCount, steps, lengths, labels: other, truncated: t, components: { a: other }, preset: 'trl' });
    expectUnchanged();
  });
});
