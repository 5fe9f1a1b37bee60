// `reward-studio merge` against scoring, on a generated 100,000-rollout JSONL (bench/rollouts.mjs, groups of 4):
// the whole file scored at once, the same file as 4 shards (--shard i/4 --save-partial, one after another), then
// `merge` of the 4 partials. Whole processes timed from spawn to exit, medians of REPS after one warm-up each. Prints
// the medians, the ratio merge / whole score, the partials' bytes per row, and checks merge printed the whole run's JSON.
// Usage: node bench/merge.bench.mjs [rows] [reps]
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { writeRollouts } from './rollouts.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = Number(process.argv[3] ?? 3);
const SHARDS = 4;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The answer check of bench/cli.bench.mjs.
const REWARD = `export default function reward(t) {
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : 0;
}
`;

mkdirSync('bench/out', { recursive: true });
const data = `bench/out/merge-${ROWS}.jsonl`;
writeRollouts(data, ROWS);
const reward = 'bench/out/merge-reward.js';
writeFileSync(reward, REWARD);
const build = spawnSync(process.execPath, ['bin/build-cli.mjs'], { encoding: 'utf8' });
if (build.status !== 0) {
  console.error(build.stderr);
  process.exit(1);
}

function timed(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['bin/reward-studio.mjs', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`reward-studio ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { ms, out: r.stdout };
}
const part = (i) => `bench/out/merge-part-${i}.rsp`;
const whole = () => timed(['score', data, '--reward', reward, '--label', 'model', '--json']);
const shard = (i) => timed(['score', data, '--reward', reward, '--label', 'model', '--json', '--shard', `${i}/${SHARDS}`, '--save-partial', part(i)]);
const merge = () => timed(['merge', ...Array.from({ length: SHARDS }, (_, k) => part(k + 1)), '--json']);

const w0 = whole();
for (let i = 1; i <= SHARDS; i++) shard(i);
const m0 = merge();
if (m0.out !== w0.out) throw new Error(`merge printed\n${m0.out}where the whole run printed\n${w0.out}`);
const times = { whole: [], shards: [], merge: [] };
for (let r = 0; r < REPS; r++) {
  times.whole.push(whole().ms);
  let s = 0;
  for (let i = 1; i <= SHARDS; i++) s += shard(i).ms;
  times.shards.push(s);
  times.merge.push(merge().ms);
}
const bytes = Array.from({ length: SHARDS }, (_, k) => statSync(part(k + 1)).size).reduce((a, b) => a + b);
const [w, s, m] = [median(times.whole), median(times.shards), median(times.merge)];
console.log(`${ROWS.toLocaleString('en-US')} rows (${(statSync(data).size / 1e6).toFixed(0)} MB), ${SHARDS} shards, medians of ${REPS}`);
console.log(`score, whole file        ${w.toFixed(0)} ms`);
console.log(`score, ${SHARDS} shards (sum)   ${s.toFixed(0)} ms`);
console.log(`merge of ${SHARDS} partials     ${m.toFixed(0)} ms`);
console.log(`ratio merge / whole score ${(m / w).toFixed(2)}×`);
console.log(`partials: ${bytes.toLocaleString('en-US')} bytes, ${(bytes / ROWS).toFixed(1)} bytes per row (gzip; with --label)`);
console.log('merge printed the whole run’s JSON: yes');
