// `reward-studio score` on a file read in pieces, its rows kept by the workers against lean pieces (each task reads
// its rows again and lets go of them: src/cli/pieceCount.ts `leanPieces`), both forced with the environment knobs
// and alternated after one warm-up each, on a generated GRPO dump (bench/rollouts.mjs, ~913 bytes a rollout).
// Prints the medians of wall time and of the peak memory of the largest process (`/usr/bin/time`'s %M), and the
// ratio kept / lean (above 1: lean is faster). Both must print the same JSON.
// `--gzip`: the same rows gzip-compressed (level 1), read as gzip by one worker (both knobs off) against their inflated
// copy read in pieces (src/cli/inflateCopy.ts; pieces of 8 MB or more, lean as the CLI decides); ratio gzip / copy.
// Usage: node bench/cli-lean.bench.mjs [rows] [reps] [--gzip] [--json]
//   --json: one line {rows, keptMs, leanMs, ratio, keptMB, leanMB} on stdout (with --gzip: {rows, gzipMs, copyMs,
//   ratio, gzipMB, copyMB}), the rest on stderr.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { cpuSample, stealSince } from './cpu.mjs';
import { gzippedFile, writeRollouts } from './rollouts.mjs';

const JSON_OUT = process.argv.includes('--json');
const GZIP = process.argv.includes('--gzip');
const args = process.argv.slice(2).filter((a) => a !== '--json' && a !== '--gzip');
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
const plain = `bench/out/cli-${ROWS}.jsonl`;
if (!existsSync(plain)) writeRollouts(plain, ROWS);
const data = GZIP ? await gzippedFile(plain, log) : plain;
// [name, the environment knobs] of the baseline, then of the variant measured against it.
const OFF = String(2 ** 50);
const [A, B] = GZIP
  ? [
      ['gzip', { REWARD_STUDIO_MIN_PIECE_BYTES: OFF, REWARD_STUDIO_LEAN_PIECE_BYTES: OFF }],
      ['copy', { REWARD_STUDIO_MIN_PIECE_BYTES: String(8 << 20) }],
    ]
  : [
      ['kept', { REWARD_STUDIO_MIN_PIECE_BYTES: String(8 << 20), REWARD_STUDIO_LEAN_PIECE_BYTES: OFF }],
      ['lean', { REWARD_STUDIO_MIN_PIECE_BYTES: String(8 << 20), REWARD_STUDIO_LEAN_PIECE_BYTES: '1' }],
    ];
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

/** One run of a variant ([name, knobs]). */
function run([, knobs]) {
  const env = { ...process.env };
  delete env.REWARD_STUDIO_MIN_PIECE_BYTES;
  delete env.REWARD_STUDIO_LEAN_PIECE_BYTES;
  Object.assign(env, knobs);
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

const first = [run(A), run(B)];
if (first[0].out !== first[1].out) {
  console.error(`${A[0]} and ${B[0]} printed different JSON`);
  process.exit(1);
}
const kept = [];
const lean = [];
const cpu0 = cpuSample();
for (let i = 0; i < REPS; i++) {
  kept.push(run(A));
  lean.push(run(B));
}
const steal = stealSince(cpu0);
const mk = median(kept.map((r) => r.ms));
const ml = median(lean.map((r) => r.ms));
const memK = median(kept.map((r) => r.mb));
const memL = median(lean.map((r) => r.mb));
const fmt = (xs) => xs.map((x) => Math.round(x)).join(', ');
log(
  `${ROWS.toLocaleString('en-US')} rollouts, ${(statSync(data).size / 1e6).toFixed(0)} MB ${GZIP ? 'gzip JSONL' : 'JSONL'}; ${availableParallelism()} cores, ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; median of ${REPS}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, steal ${steal}`,
);
log(`${A[0].padEnd(5)}: ${Math.round(mk)} ms [${fmt(kept.map((r) => r.ms))}], peak ${Math.round(memK)} MB [${fmt(kept.map((r) => r.mb))}]`);
log(`${B[0].padEnd(5)}: ${Math.round(ml)} ms [${fmt(lean.map((r) => r.ms))}], peak ${Math.round(memL)} MB [${fmt(lean.map((r) => r.mb))}]`);
log(`ratio ${A[0]} / ${B[0]}: ${(mk / ml).toFixed(2)}× the time, ${(memK / memL).toFixed(2)}× the memory (the same JSON out)`);
if (JSON_OUT)
  console.log(
    JSON.stringify({
      rows: ROWS,
      [`${A[0]}Ms`]: Math.round(mk),
      [`${B[0]}Ms`]: Math.round(ml),
      ratio: Number((mk / ml).toFixed(3)),
      [`${A[0]}MB`]: Math.round(memK),
      [`${B[0]}MB`]: Math.round(memL),
    }),
  );
