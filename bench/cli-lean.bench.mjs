// `reward-studio score` on a file read in pieces, its rows kept by the workers against lean pieces (each task reads
// its rows again and lets go of them: src/cli/pieceCount.ts `leanPieces`), both forced with the environment knobs
// and alternated after one warm-up each, on a generated GRPO dump (bench/rollouts.mjs, ~913 bytes a rollout).
// Prints the medians of wall time and of the peak memory of the largest process (`/usr/bin/time`'s %M), and the
// ratio kept / lean (above 1: lean is faster). Both must print the same JSON.
// Usage: node bench/cli-lean.bench.mjs [rows] [reps] [--json]
//   --json: one line {rows, keptMs, leanMs, ratio, keptMB, leanMB} on stdout, the rest on stderr.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { cpuSample, stealSince } from './cpu.mjs';
import { writeRollouts } from './rollouts.mjs';

const JSON_OUT = process.argv.includes('--json');
const args = process.argv.slice(2).filter((a) => a !== '--json');
const ROWS = Number(args[0] ?? 1_000_000);
const REPS = Number(args[1] ?? 3);
const log = JSON_OUT ? (...xs) => console.error(...xs) : (...xs) => console.log(...xs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.error(`${TIME} is needed for the peak memory (Debian: apt install time)`);
  process.exit(1);
}

mkdirSync('bench/out', { recursive: true });
const data = `bench/out/cli-${ROWS}.jsonl`;
if (!existsSync(data)) writeRollouts(data, ROWS);
const reward = 'bench/out/cli-reward.js';
writeFileSync(
  reward,
  `export default function reward(t) {
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : 0;
}
`,
);
const build = spawnSync(process.execPath, ['bin/build-cli.mjs'], { encoding: 'utf8' });
if (build.status !== 0) {
  console.error(build.stderr);
  process.exit(1);
}

/** One run: pieces of 8 MB or more (on any machine), lean or kept. */
function run(lean) {
  const env = { ...process.env, REWARD_STUDIO_MIN_PIECE_BYTES: String(8 << 20), REWARD_STUDIO_LEAN_PIECE_BYTES: lean ? '1' : String(2 ** 50) };
  const t0 = performance.now();
  const r = spawnSync(TIME, ['-f', '%M', process.execPath, 'bin/reward-studio.mjs', 'score', data, '--reward', reward, '--json'], {
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 26,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`the CLI failed (${r.status}): ${r.stderr}`);
  const kb = Number(r.stderr.trim().split('\n').pop());
  return { ms, mb: kb / 1024, out: r.stdout };
}

const first = [run(false), run(true)];
if (first[0].out !== first[1].out) {
  console.error('kept and lean pieces printed different JSON');
  process.exit(1);
}
const kept = [];
const lean = [];
const cpu0 = cpuSample();
for (let i = 0; i < REPS; i++) {
  kept.push(run(false));
  lean.push(run(true));
}
const steal = stealSince(cpu0);
const mk = median(kept.map((r) => r.ms));
const ml = median(lean.map((r) => r.ms));
const memK = median(kept.map((r) => r.mb));
const memL = median(lean.map((r) => r.mb));
const fmt = (xs) => xs.map((x) => Math.round(x)).join(', ');
log(
  `${ROWS.toLocaleString('en-US')} rollouts, ${(statSync(data).size / 1e6).toFixed(0)} MB JSONL; ${availableParallelism()} cores, ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; median of ${REPS}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, steal ${steal}`,
);
log(`rows kept: ${Math.round(mk)} ms [${fmt(kept.map((r) => r.ms))}], peak ${Math.round(memK)} MB [${fmt(kept.map((r) => r.mb))}]`);
log(`lean:      ${Math.round(ml)} ms [${fmt(lean.map((r) => r.ms))}], peak ${Math.round(memL)} MB [${fmt(lean.map((r) => r.mb))}]`);
log(`ratio kept / lean: ${(mk / ml).toFixed(2)}× the time, ${(memK / memL).toFixed(2)}× the memory (the same JSON out)`);
if (JSON_OUT)
  console.log(
    JSON.stringify({
      rows: ROWS,
      keptMs: Math.round(mk),
      leanMs: Math.round(ml),
      ratio: Number((mk / ml).toFixed(3)),
      keptMB: Math.round(memK),
      leanMB: Math.round(memL),
    }),
  );
