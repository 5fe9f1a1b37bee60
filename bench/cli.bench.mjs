// `reward-studio score` end to end on a generated 100,000-rollout JSONL (~91 MB), against a Python/pandas baseline
// doing the same job (bench/cli_baseline.py: pandas.read_json(lines=True), the same answer-check reward with `re`,
// per-group std, Pearson of reward vs length). Both are whole processes timed from spawn to exit, alternated, after
// one warm-up each (the file is then in the page cache for both). Prints the medians and the ratio ours / python
// (below 1: the CLI is faster; the goal of issue 27 is ≤ 0.5).
// Usage: node bench/cli.bench.mjs [rows] [reps] [--json]
//   --json: one line {rows, oursMs, pandasMs, ratio} (medians; ratio = ours / pandas) on stdout, the rest on stderr.
// The Python used: $BENCH_PYTHON, else the first of python3, /usr/bin/python3.11, /usr/bin/python3 that imports pandas.
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { cpuSample, stealSince } from './cpu.mjs';
import { writeRollouts } from './rollouts.mjs';

const JSON_OUT = process.argv.includes('--json');
const args = process.argv.slice(2).filter((a) => a !== '--json');
const ROWS = Number(args[0] ?? 100_000);
const REPS = Number(args[1] ?? 5);
// With --json, stdout carries the one JSON line only.
const log = JSON_OUT ? (...xs) => console.error(...xs) : (...xs) => console.log(...xs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The reward bench's "answer check": the number after a final `A:` equals `ground_truth` (one anchored regex).
const REWARD = `export default function reward(t) {
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : 0;
}
`;

mkdirSync('bench/out', { recursive: true });
const data = `bench/out/cli-${ROWS}.jsonl`;
writeRollouts(data, ROWS);
// .js, not .ts: tsc checks every .ts under bench/.
const reward = 'bench/out/cli-reward.js';
writeFileSync(reward, REWARD);
const mb = statSync(data).size / 1e6;

const PYTHONS = process.env.BENCH_PYTHON ? [process.env.BENCH_PYTHON] : ['python3', '/usr/bin/python3.11', '/usr/bin/python3'];
let PYTHON = null;
let py = null;
for (const cand of PYTHONS) {
  py = spawnSync(cand, ['-c', 'import sys, pandas, numpy; print(pandas.__version__, sys.version.split()[0])'], { encoding: 'utf8' });
  if (py.status === 0) {
    PYTHON = cand;
    break;
  }
}
if (PYTHON === null) {
  console.error(`no Python with pandas and numpy (tried ${PYTHONS.join(', ')}): set BENCH_PYTHON, or install pandas (Debian: python3-pandas)`);
  process.exit(1);
}
const [pandasVersion, pythonVersion] = py.stdout.trim().split(' ');
const build = spawnSync(process.execPath, ['bin/build-cli.mjs'], { encoding: 'utf8' });
if (build.status !== 0) {
  console.error(build.stderr);
  process.exit(1);
}

function timed(cmd, args) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { ms, out: JSON.parse(r.stdout) };
}
const ours = () => timed(process.execPath, ['bin/reward-studio.mjs', 'score', data, '--reward', reward, '--json']);
const python = () => timed(PYTHON, ['bench/cli_baseline.py', data]);

// Warm-up, and a cross-check that both computed the same thing.
const a = ours().out;
const b = python().out;
const same = (x, y) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
const checks = [
  ['rows', a.rows, b.rows],
  ['groups', a.groups, b.groups],
  ['reward mean', a.reward.mean, b.reward.mean],
  ['reward std', a.reward.std, b.reward.std],
  ['pearson(reward, length)', a.length.pearson, b.length.pearson],
  ['zero-std group fraction', a.collapse.zeroStdGroupFraction, b.collapse.zeroStdGroupFraction],
];
for (const [name, x, y] of checks) {
  if (!same(x, y)) {
    console.error(`mismatch in ${name}: reward-studio ${x}, python ${y}`);
    process.exit(1);
  }
}

const tOurs = [];
const tPy = [];
const cpu0 = cpuSample();
for (let i = 0; i < REPS; i++) {
  tOurs.push(ours().ms);
  tPy.push(python().ms);
}
const steal = stealSince(cpu0);
const mo = median(tOurs);
const mp = median(tPy);
const fmt = (xs) => xs.map((x) => Math.round(x)).join(', ');
log(
  `${ROWS.toLocaleString('en-US')} rollouts, ${mb.toFixed(0)} MB JSONL; ${availableParallelism()} cores; Node ${process.version}; ` +
    `${PYTHON} (Python ${pythonVersion}), pandas ${pandasVersion}; median of ${REPS}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, steal ${steal}`,
);
log(`reward-studio score --json (node bin/reward-studio.mjs): ${Math.round(mo)} ms   [${fmt(tOurs)}]`);
log(`${PYTHON} bench/cli_baseline.py (pandas):   ${Math.round(mp)} ms   [${fmt(tPy)}]`);
log(`ratio ours / python: ${(mo / mp).toFixed(2)}×  (results cross-checked: ${checks.map((c) => c[0]).join(', ')})`);
if (JSON_OUT) console.log(JSON.stringify({ rows: ROWS, oursMs: Math.round(mo), pandasMs: Math.round(mp), ratio: Number((mo / mp).toFixed(3)) }));
