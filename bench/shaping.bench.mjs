// Time of the Shaping step on 100,000 rollouts (groups of 8): the issue's list (dapo-overlong + kimi-length), then a
// longer one (par median, clip, center per group, step Clip/Delta/sum), and the raw | shaped figures the tab draws.
// Baseline in the same process and run: sorting 100,000 random doubles (Float64Array.prototype.sort).
// Usage: node bench/shaping.bench.mjs [rows] [reps]
import { importTs } from './tsImport.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = Number(process.argv[3] ?? 7);
const { applyShaping } = await importTs('src/core/shaping/shape.ts');
const { normaliseShapes } = await importTs('src/core/shaping/spec.ts');
const { shapingSide } = await importTs('src/core/shaping/compare.ts');

let seed = 25;
const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const groupOf = Int32Array.from({ length: ROWS }, (_, i) => i >> 3);
const groupCount = Math.ceil(ROWS / 8);
const rewards = Float64Array.from({ length: ROWS }, () => (rand() < 0.5 ? 1 : 0));
const chars = Float64Array.from({ length: ROWS }, () => 50 + Math.floor(rand() * 600));
const offsets = new Int32Array(ROWS + 1);
for (let i = 0; i < ROWS; i++) offsets[i + 1] = offsets[i] + (i % 5);
const steps = { offsets, values: Float64Array.from({ length: offsets[ROWS] }, rand) };
const input = { groupOf, groupCount, lengths: { chars }, steps };
const list = (raw) => {
  const n = normaliseShapes(raw);
  if (!n.ok) throw new Error(n.message);
  return n.value;
};
const ISSUE = list([
  { name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' },
  { name: 'kimi-length', unit: 'chars' },
]);
const LONG = list([
  ...ISSUE,
  { name: 'par' },
  { name: 'clip', min: 0.1, max: 0.9 },
  { name: 'center', over: 'group' },
  { name: 'step-clip', eta: 0.5 },
  { name: 'step-delta' },
  { name: 'step-sum', weight: 0.5 },
]);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const time = (f) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const t = { sort: [], issue: [], long: [], sides: [] };
for (let r = 0; r < REPS; r++) {
  t.sort.push(time(() => Float64Array.from({ length: ROWS }, rand).sort()));
  t.issue.push(time(() => applyShaping(rewards, ISSUE, input)));
  let shaped;
  t.long.push(time(() => (shaped = applyShaping(rewards, LONG, input))));
  const side = { groupOf, groupCount, lengths: chars, preset: 'trl', truncated: null };
  t.sides.push(time(() => [shapingSide(rewards, side), shapingSide(shaped, side)]));
}
const base = median(t.sort);
const fmt = ROWS.toLocaleString('en-US');
console.log(`Shaping on ${fmt} rollouts (groups of 8), medians of ${REPS}; baseline: sorting ${fmt} doubles = ${base.toFixed(1)} ms`);
for (const [name, xs] of [
  ['dapo-overlong + kimi-length', t.issue],
  ['8 transforms (par, clip, center, step Clip/Delta/sum)', t.long],
  ['raw | shaped figures (2 sides)', t.sides],
]) {
  const m = median(xs);
  console.log(`  ${name.padEnd(56)} ${m.toFixed(1).padStart(7)} ms  ${(m / base).toFixed(2)}× the sort`);
}
