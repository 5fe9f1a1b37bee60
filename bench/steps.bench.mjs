// Over steps at the scale: 50 steps × 10,000 rollouts (500k rows, GRPO groups of 8, a 0/1 label, truncation)
// through core/steps overSteps (what the Over steps tab computes on the page's thread), and the per-prompt and
// two-step helpers, and what the tab does on the page's thread: the rows of each step (byStep), the prompt list. Baseline in the same process and rounds: sorting 500k random doubles (Float64Array.prototype.sort).
// Usage: node bench/steps.bench.mjs [--steps=50] [--per-step=10000] [--reps=5]
import { importTs } from './tsImport.mjs';

const arg = (name, dflt) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const STEPS = arg('steps', 50);
const PER = arg('per-step', 10_000);
const REPS = arg('reps', 5);
const N = STEPS * PER;
const GROUP = 8;

const { overSteps, stepIndex, rowsByStep } = await importTs('src/core/steps/overSteps.ts');
const { promptIndex, promptOverSteps, promptsAcrossSteps, compareSteps } = await importTs('src/core/steps/prompts.ts');

// mulberry32, so every run times the same data.
let a = 12345;
const rnd = () => {
  a = (a + 0x6d2b79f5) >>> 0;
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const prompts = PER / GROUP;
const scores = new Float64Array(N);
const groupOf = new Int32Array(N);
const steps = new Float64Array(N);
const lengths = new Float64Array(N);
const labels = new Float64Array(N);
const truncated = new Uint8Array(N);
for (let i = 0; i < N; i++) {
  const s = Math.floor(i / PER);
  scores[i] = rnd() < 0.3 + s / (2 * STEPS) ? 1 : rnd() < 0.2 ? 0.5 : 0;
  groupOf[i] = Math.floor((i % PER) / GROUP); // the same prompts at every step
  steps[i] = s;
  lengths[i] = Math.floor(100 + rnd() * 4000);
  labels[i] = rnd() < 0.5 ? 1 : 0;
  truncated[i] = lengths[i] >= 4000 ? 1 : 0;
}
const keys = Array.from({ length: prompts }, (_, k) => `prompt ${k}`);
const cols = { scores, groupOf, groupCount: prompts, steps, lengths, labels, truncated, components: { format: scores } };

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const time = (f) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const t = { overSteps: [], byStep: [], prompts: [], prompt: [], compare: [], sort: [] };
for (let r = 0; r < REPS + 1; r++) {
  const base = Float64Array.from({ length: N }, rnd);
  const o = time(() => overSteps(cols));
  const b = time(() => {
    const { values, of } = stepIndex(steps);
    rowsByStep(of, values.length);
  });
  let idx;
  const l = time(() => promptsAcrossSteps((idx = promptIndex(keys, groupOf)), steps));
  const p = time(() => promptOverSteps(idx, 7, scores, steps));
  const c = time(() => compareSteps(idx, scores, steps, 0, STEPS - 1));
  const s = time(() => base.sort());
  if (r === 0) continue; // warm-up
  t.overSteps.push(o);
  t.byStep.push(b);
  t.prompts.push(l);
  t.prompt.push(p);
  t.compare.push(c);
  t.sort.push(s);
}
const sort = median(t.sort);
console.log(`Over steps, ${STEPS} steps × ${PER.toLocaleString('en-US')} rollouts (${N.toLocaleString('en-US')} rows), medians of ${REPS}:`);
for (const [name, xs] of Object.entries(t)) {
  const m = median(xs);
  console.log(`  ${name.padEnd(10)} ${m.toFixed(1).padStart(8)} ms   ${(m / sort).toFixed(2)}× the sort of ${N.toLocaleString('en-US')} doubles`);
}
