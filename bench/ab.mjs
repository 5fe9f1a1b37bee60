// A/B of whole commands: the variants alternated in each of N rounds after one untimed warm-up round; per variant the
// median wall time and the median CPU time of its process tree (user + sys of the reaped children, from
// /proc/self/stat), and both as ratios to the first variant, in the same run.
// Usage: node bench/ab.mjs <rounds> "<name> <command> <args…> [ENV:NAME=value…]" …
//   e.g. node bench/ab.mjs 5 "pandas python3 bench/cli_baseline.py f.jsonl" "ours node bin/reward-studio.mjs score f.jsonl --reward r.js --json"
// Arguments are split at spaces (no quoting); ENV:NAME=value sets an environment variable for that variant.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { cpuSample, stealSince } from './cpu.mjs';

const [rounds, ...specs] = process.argv.slice(2);
if (!(Number(rounds) > 0) || specs.length === 0) {
  console.error('usage: node bench/ab.mjs <rounds> "<name> <command> <args…>" …');
  process.exit(2);
}
const variants = specs.map((s) => {
  const [name, ...words] = s.split(' ').filter(Boolean);
  const env = { ...process.env };
  const cmd = words.filter((w) => {
    const m = /^ENV:([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(w);
    if (m) env[m[1]] = m[2];
    return !m;
  });
  return { name, cmd, env, wall: [], cpu: [] };
});
// CPU time of the reaped children so far, in ms (fields cutime and cstime, in clock ticks of 10 ms).
const childrenCpu = () => {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
};
const cpu0 = cpuSample();
for (let r = -1; r < Number(rounds); r++) {
  for (const v of variants) {
    const c0 = childrenCpu();
    const t0 = performance.now();
    const res = spawnSync(v.cmd[0], v.cmd.slice(1), { encoding: 'utf8', env: v.env, maxBuffer: 1 << 26 });
    const wall = performance.now() - t0;
    if (res.status !== 0) {
      console.error(`${v.name} failed (${res.status}): ${(res.stderr ?? String(res.error)).slice(-800)}`);
      process.exit(1);
    }
    if (r < 0) continue;
    v.wall.push(wall);
    v.cpu.push(childrenCpu() - c0);
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (xs) => `${Math.round(med(xs))} ms [${xs.map(Math.round).join(', ')}]`;
const base = variants[0];
for (const v of variants)
  console.log(
    `${v.name.padEnd(14)} wall ${ms(v.wall)}   cpu ${ms(v.cpu)}   ÷ ${base.name}: wall ${(med(v.wall) / med(base.wall)).toFixed(2)}, cpu ${(med(v.cpu) / med(base.cpu)).toFixed(2)}`,
  );
console.log(
  `${rounds} rounds; load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; steal ${stealSince(cpu0)}`,
);
