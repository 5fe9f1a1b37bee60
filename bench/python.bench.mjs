// Python rewards: the same Python reward (the GSM8K demo's verl `compute_score`, an answer check with `re`) over a
// generated 100,000-rollout JSONL (bench/rollouts.mjs), in Pyodide (what `reward-studio score --reward file.py`
// runs) against native CPython (bench/python_baseline.py: the same file, the same function, in a plain loop).
//
// - scoring: only the scoring loop on both sides. Pyodide: runPython (src/core/python/runPython.ts, as the workers
//   call it: ranges of the CLI's task size, an interrupt buffer and a watch slot, the rows written in JS in marshal
//   format, one keyword call per row, results back as JSON) on rows loaded beforehand with the studio's import, in
//   this Node process, after Pyodide is loaded: without a dataset key (the CLI), and with one (the browser worker),
//   first run and run again (before it, the copies the browser worker makes ahead while idle, timed apart). Native:
//   the loop over the parsed rows in python3. Each round runs them all once, with the bare loop below; times are
//   medians of REPS rounds, and each ratio is the median of the rounds' own ratios (the machine drifts between
//   rounds). The first Pyodide pass (the wasm code still tiering up) is shown too.
// - start-up: loadPyodide() in this process (python3 itself starts in ~20 ms).
// - end to end: whole processes, spawn to exit: `node bin/reward-studio.mjs score <file> --reward reward.py --function compute_score --json`
//   (default pool, and --workers 1) against `python3 bench/python_baseline.py` (read the file, score, print).
// Also shown, to split the Pyodide time: the same loop written in Python and run inside Pyodide (no harness, no JSON).
// The ratio printed is native / Pyodide scoring time (1 = as fast as CPython; the target is ≥ 0.4×).
// Usage: node bench/python.bench.mjs [rows] [reps] [--no-cli] [--json]   (--no-cli: skip the end-to-end CLI runs)
//   --json: only the end-to-end runs (after one warm-up of each side, which also makes the CLI's Pyodide snapshot,
//   src/engine/pyodideSnapshot.ts), alternated; one line {rows, oursMs, nativeMs, ratio} on stdout (medians;
//   ratio = native / ours), the rest on stderr. The native Python: $BENCH_PYTHON, else python3.
//   --baseline FILE (with --json): another build's CLI bundle (e.g. dist-cli/reward-studio.mjs built in a worktree of
//   the commit before a change) run in the same rounds, alternated; the JSON then adds baselineMs and baselineRatio.
import { spawnSync } from 'node:child_process';
import { mkdirSync, openAsBlob, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { basename, resolve } from 'node:path';
import { cpuSample, stealSince } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';
import { importTs } from './tsImport.mjs';

const argv = process.argv.slice(2);
const baselineAt = argv.indexOf('--baseline');
const BASELINE = baselineAt >= 0 ? resolve(argv[baselineAt + 1] ?? '') : null;
const args = argv.filter((a, i) => a !== '--no-cli' && a !== '--json' && (baselineAt < 0 || (i !== baselineAt && i !== baselineAt + 1)));
const NO_CLI = process.argv.includes('--no-cli');
const JSON_OUT = process.argv.includes('--json');
const PYTHON = process.env.BENCH_PYTHON || 'python3';
const ROWS = Number(args[0] ?? 100_000);
const REPS = Number(args[1] ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ROOT = resolve(import.meta.dirname, '..');

// The same loop as python_baseline.py, run inside Pyodide on lists built in Python (no harness, no JSON per call).
const BARE_LOOP_PY = `
import json, time
_rows = [json.loads(l) for l in _lines.splitlines() if l.strip()]
_calls = [("", r["completion"], r.get("ground_truth"), {"num_turns": None, "rollout_reward_scores": {}}) for r in _rows]
_t = time.perf_counter()
_total = 0.0
for _ds, _s, _gt, _ei in _calls:
    _total += float(compute_score(data_source=_ds, solution_str=_s, ground_truth=_gt, extra_info=_ei))
_ms = (time.perf_counter() - _t) * 1000
`;

const { loadAll } = await importTs('src/core/dataset/loadAll.ts');
const { preparePython, runPython, rowPayload } = await importTs('src/core/python/runPython.ts');
const { harnessFor } = await importTs('src/core/python/harness.ts');
// The GSM8K demo reward in Python (src/core/python/gsm8k.test.ts checks it gives the TypeScript default reward's
// scores); its verl convention, compute_score, is the one timed.
const { GSM8K_PY: REWARD_PY } = await importTs('src/core/python/testing/gsm8k.ts');
const { loadPyodide } = await import('pyodide');

mkdirSync(resolve(ROOT, 'bench/out'), { recursive: true });
const data = resolve(ROOT, `bench/out/python-${ROWS}.jsonl`);
writeRollouts(data, ROWS);
const reward = resolve(ROOT, 'bench/out/python-reward.py');
writeFileSync(reward, REWARD_PY);
const mb = statSync(data).size / 1e6;

function spawnTimed(cmd, args) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { ms, out: JSON.parse(r.stdout), stderr: r.stderr };
}

// ---------------------------------------------------------------------------------------------- native CPython
const version = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' });
if (version.status !== 0) {
  console.error('python3 is needed for the baseline');
  process.exit(1);
}
const native = [];
const runNative = () => native.push(spawnTimed(PYTHON, ['bench/python_baseline.py', reward, data, 'compute_score']));

// ---------------------------------------------------------------------------------------------- --json: end to end only
if (JSON_OUT) {
  const built = spawnSync(process.execPath, ['bin/build-cli.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) {
    console.error(built.stderr);
    process.exit(1);
  }
  const cliArgs = ['bin/reward-studio.mjs', 'score', data, '--reward', reward, '--function', 'compute_score', '--json'];
  // Warm-up, untimed: the file into the page cache, and the CLI's Pyodide snapshot made when missing.
  const warm = spawnTimed(process.execPath, cliArgs);
  runNative();
  native.length = 0;
  const ours = [];
  const base = [];
  const baseArgs = BASELINE ? [BASELINE, ...cliArgs.slice(1)] : null;
  if (baseArgs) spawnTimed(process.execPath, baseArgs); // its warm-up (and its snapshot, when its harness differs)
  const cpu0 = cpuSample();
  for (let i = 0; i < REPS; i++) {
    runNative();
    // The order of the two builds alternates from round to round.
    if (baseArgs && i % 2 === 0) base.push(spawnTimed(process.execPath, baseArgs));
    ours.push(spawnTimed(process.execPath, cliArgs));
    if (baseArgs && i % 2 === 1) base.push(spawnTimed(process.execPath, baseArgs));
  }
  const steal = stealSince(cpu0);
  const nativeSum = native[0].out.sum;
  const bad = [...ours, ...base].find((c) => Math.abs(c.out.reward.mean * ROWS - nativeSum) > 1e-6 || c.out.errors !== 0);
  if (bad || native.some((n) => n.out.rows !== ROWS)) {
    console.error(`results differ from native CPython (sum ${nativeSum}): mean ${bad?.out.reward.mean}, errors ${bad?.out.errors}`);
    process.exit(1);
  }
  const mo = median(ours.map((c) => c.ms));
  const mn = median(native.map((n) => n.ms));
  const fmt = (xs) => `${Math.round(median(xs))} ms   [${xs.map((x) => Math.round(x)).join(', ')}]`;
  console.error(
    `${ROWS.toLocaleString('en-US')} rollouts, ${mb.toFixed(0)} MB JSONL; ${availableParallelism()} cores; Node ${process.version}; native ${PYTHON} (${version.stdout.trim()}); ` +
      `median of ${REPS}, alternated; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}, steal ${steal}`,
  );
  console.error(`  warm-up CLI run (makes the Pyodide snapshot when missing): ${Math.round(warm.ms)} ms`);
  console.error(`  ${PYTHON} bench/python_baseline.py:                 ${fmt(native.map((n) => n.ms))}`);
  console.error(`  reward-studio score --reward reward.py --json:   ${fmt(ours.map((c) => c.ms))}`);
  const mb0 = base.length > 0 ? median(base.map((c) => c.ms)) : null;
  if (mb0 !== null) console.error(`  baseline ${BASELINE}: ${fmt(base.map((c) => c.ms))}`);
  console.error(`  ratio native / ours: ${(mn / mo).toFixed(2)}×${mb0 !== null ? `; native / baseline: ${(mn / mb0).toFixed(2)}×` : ''}`);
  const out = { rows: ROWS, oursMs: Math.round(mo), nativeMs: Math.round(mn), ratio: Number((mn / mo).toFixed(3)) };
  if (mb0 !== null) Object.assign(out, { baselineMs: Math.round(mb0), baselineRatio: Number((mn / mb0).toFixed(3)) });
  console.log(JSON.stringify(out));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------- Pyodide, in process
const tLoad = performance.now();
const py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
const startupMs = performance.now() - tLoad;

const tRead = performance.now();
const { rows } = await loadAll({ name: basename(data), blob: await openAsBlob(data) });
const readMs = performance.now() - tRead;

// The CLI's task size for the default pool on this machine (pool.ts, planTasks), a multiple of the batch size.
const pool = Math.max(2, availableParallelism());
const TASK = Math.ceil(Math.max(16, Math.min(20_000, Math.ceil(rows.length / (pool * 8)))) / 32) * 32;
const choice = { name: 'compute_score', kind: 'verl' };
const rowAt = (i) => rows[i];
// As the CLI's and the browser's workers call it: an interrupt buffer, each call published to a watch slot.
const watch = new Int32Array(new SharedArrayBuffer(12));
const interrupt = new Int32Array(watch.buffer, 4, 1);
py.setInterruptBuffer(interrupt);
const onCall = (row, count) => {
  Atomics.store(watch, 2, count);
  Atomics.store(watch, 0, row);
};
const cpuMs = (c0) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
function pyodidePass(datasetKey) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let sum = 0;
  let bad = 0;
  for (let s = 0; s < rows.length; s += TASK) {
    const r = runPython(py, REWARD_PY, choice, rowAt, s, Math.min(rows.length, s + TASK), { batchSize: 32, interrupt, onCall, datasetKey });
    for (let i = 0; i < r.scores.length; i++) {
      if (r.status[i] === 1) sum += r.scores[i];
      else bad++;
    }
  }
  return { ms: performance.now() - t0, cpu: cpuMs(c0), sum, bad };
}
// The bare loop inside Pyodide, set up once (the lines parsed in Python), run in every round below.
const ns = py.globals.get('dict')();
py.runPython(REWARD_PY, { globals: ns });
const { readFileSync } = await import('node:fs');
ns.set('_lines', readFileSync(data, 'utf8'));
ns.set('_cpu', () => cpuMs());
// The lines are parsed once; each pass runs the timed loop (from `_t = ...` on), reading the CPU clock with it.
const [BARE_PARSE, BARE_TIMED] = BARE_LOOP_PY.split('_t = time.perf_counter()');
py.runPython(BARE_PARSE, { globals: ns });
const bare = [];
function barePass() {
  py.runPython('_t = time.perf_counter()\n_c0 = _cpu()' + BARE_TIMED, { globals: ns });
  return { ms: ns.get('_ms'), cpu: ns.get('_cpu')() - ns.get('_c0'), sum: ns.get('_total') };
}

// Each round: native CPython, then without a dataset key (the CLI: each range scored once: every run converts its
// rows), then with one (the browser worker, which scores the same rows again while the user edits the reward: the
// first run on a dataset converts and keeps the rows, the next only calls the function; a new key each round).
// Native and Pyodide alternate so both see the same machine: on shared cores the speed drifts within a minute.
const passes = [];
const keyedFirst = [];
const keyedAgain = [];
const prepared = [];
const cpu0 = cpuSample();
for (let i = 0; i < REPS; i++) {
  runNative();
  passes.push(pyodidePass(undefined));
  const key = {};
  keyedFirst.push(pyodidePass(key));
  // What the browser worker does when a run has ended (the pool's 'idle' message), while the user edits: the argument
  // copies for the next run are made ahead. Timed apart: it is not in the next run's time.
  const t = performance.now();
  preparePython(py);
  prepared.push(performance.now() - t);
  keyedAgain.push(pyodidePass(key));
  bare.push(barePass());
}
ns.destroy();
const steal = stealSince(cpu0);
pyodidePass({}); // drop the rows held (a new key replaces them)

// Where runPython's time goes (warm): the rows written in marshal format in JS; the harness's run on them (marshal.loads
// in Python, the calls, the results' JSON), with and without the per-call tick into JS (which publishes the call).
const breakdown = {};
{
  // Median of REPS runs each (the machine is shared).
  const time = (key, f) => {
    const ms = [];
    let r;
    for (let i = 0; i < REPS; i++) {
      const t = performance.now();
      r = f();
      ms.push(performance.now() - t);
    }
    breakdown[key] = median(ms);
    return r;
  };
  const { MarshalWriter } = await importTs('src/core/python/marshal.ts');
  const fields = ['data_source', 'solution_str', 'ground_truth', 'extra_info'];
  const ranges = [];
  for (let s = 0; s < rows.length; s += TASK) ranges.push([s, Math.min(rows.length, s + TASK)]);
  let scratch;
  const payloads = time('payload', () =>
    ranges.map(([s, e]) => {
      // As runPython does: each range written into the buffer the last one grew.
      const w = new MarshalWriter(scratch);
      w.seq('(', 2);
      w.seq('[', e - s);
      for (let i = s; i < e; i++) w.number(i);
      w.seq('[', e - s);
      for (let i = s; i < e; i++) {
        const p = rowPayload('verl', rows[i]);
        w.seq('(', 6);
        for (const f of fields) w.value(p[f]);
        w.number(0);
        w.value(null);
      }
      const bytes = w.bytes().slice();
      scratch = w.buf;
      return bytes;
    }),
  );
  const h = harnessFor(py);
  const tick = () => {
    Atomics.store(interrupt, 0, 0);
    onCall(0, 1);
  };
  time('run', () => payloads.forEach((p, k) => h.run('verl', 'compute_score', p, tick, undefined, ranges[k][0], ranges[k][1], 32)));
  time('runNoTick', () => payloads.forEach((p, k) => h.run('verl', 'compute_score', p, undefined, undefined, ranges[k][0], ranges[k][1], 32)));
}

// ---------------------------------------------------------------------------------------------- end to end
const build = NO_CLI ? { status: 0 } : spawnSync(process.execPath, ['bin/build-cli.mjs'], { cwd: ROOT, encoding: 'utf8' });
if (build.status !== 0) {
  console.error(build.stderr);
  process.exit(1);
}
const cliArgs = ['bin/reward-studio.mjs', 'score', data, '--reward', reward, '--function', 'compute_score', '--json'];
const cli = [];
const cli1 = [];
for (let i = 0; i < (NO_CLI ? 0 : REPS); i++) {
  cli.push(spawnTimed(process.execPath, cliArgs));
  cli1.push(spawnTimed(process.execPath, [...cliArgs, '--workers', '1']));
}

// ---------------------------------------------------------------------------------------------- checks, report
const nativeSum = native[0].out.sum;
const mismatch = [
  ...[...passes, ...keyedFirst, ...keyedAgain].map((p, i) =>
    p.sum !== nativeSum || p.bad !== 0 ? `Pyodide pass ${i}: sum ${p.sum}, ${p.bad} rows not Ok` : null,
  ),
  ...bare.map((b, i) => (b.sum !== nativeSum ? `bare Pyodide loop ${i}: sum ${b.sum}` : null)),
  ...[...cli, ...cli1].map((c, i) =>
    Math.abs(c.out.reward.mean * ROWS - nativeSum) > 1e-6 || c.out.errors !== 0 ? `CLI run ${i}: mean ${c.out.reward.mean}, errors ${c.out.errors}` : null,
  ),
].filter(Boolean);
if (native.some((n) => n.out.rows !== ROWS) || mismatch.length > 0) {
  console.error(`results differ from native CPython (sum ${nativeSum}):\n${mismatch.join('\n')}`);
  process.exit(1);
}

const fmt = (xs) => `${Math.round(median(xs))} ms   [${xs.map((x) => Math.round(x)).join(', ')}]`;
const pyScore = median(passes.map((p) => p.ms));
const pyodideVersion = py.version;
console.log(
  `${ROWS.toLocaleString('en-US')} rollouts, ${mb.toFixed(0)} MB JSONL; ${availableParallelism()} cores; Node ${process.version}, ` +
    `Pyodide ${pyodideVersion} (Python ${py.runPython('import sys; sys.version.split()[0]')}), native ${version.stdout.trim()}; median of ${REPS}; ` +
    `${nativeSum} rows score 1 on both sides`,
);
console.log(`\nscoring loop only (rows already parsed); CPU time taken by the hypervisor (steal) during the scoring rounds: ${steal}`);
const bareMs = median(bare.map((b) => b.ms));
// Each ratio is the median over the rounds of that round's native time over its Pyodide time: within a round the two
// ran a few seconds apart, while the machine's speed drifts by up to 2x over the minutes of the whole bench.
const ratio = (xs) => median(xs.map((p, i) => native[i].out.score_ms / p.ms)).toFixed(2);
const ratioCpu = (xs) => median(xs.map((p, i) => native[i].out.score_cpu_ms / p.cpu)).toFixed(2);
const cpu = (xs) => `cpu ${Math.round(median(xs))} ms`;
console.log(
  `  native CPython, compute_score in a loop:                 ${fmt(native.map((n) => n.out.score_ms))}   ${cpu(native.map((n) => n.out.score_cpu_ms))}`,
);
console.log(
  `  Pyodide, runPython, no dataset key (ranges of ${TASK}):  ${fmt(passes.map((p) => p.ms))}   ${cpu(passes.map((p) => p.cpu))}   (first pass: wasm still tiering up)`,
);
console.log(`  Pyodide, runPython with a dataset key, first run:        ${fmt(keyedFirst.map((p) => p.ms))}   ${cpu(keyedFirst.map((p) => p.cpu))}`);
console.log(
  `  Pyodide, runPython with a dataset key, run again:        ${fmt(keyedAgain.map((p) => p.ms))}   ${cpu(keyedAgain.map((p) => p.cpu))}   (rows held in the interpreter)`,
);
console.log(`    before it, made ahead while the worker is idle (argument copies, preparePython): ${fmt(prepared)}`);
console.log(`  Pyodide, the same bare loop inside Pyodide (no harness):  ${fmt(bare.map((b) => b.ms))}   ${cpu(bare.map((b) => b.cpu))}`);
console.log(
  `  ratio native / Pyodide, wall: runPython ${ratio(passes)}×, keyed first run ${ratio(keyedFirst)}×, keyed run again ${ratio(keyedAgain)}×, bare loop ${ratio(bare)}×   (target ≥ 0.4×; each the median of the rounds' own ratios)`,
);
console.log(
  `  ratio native / Pyodide, CPU time: runPython ${ratioCpu(passes)}×, keyed first run ${ratioCpu(keyedFirst)}×, keyed run again ${ratioCpu(keyedAgain)}×, bare loop ${ratioCpu(bare)}×`,
);
const b = (k) => `${Math.round(breakdown[k])} ms`;
console.log(
  `  runPython's time, warm, no key: rows written in marshal format in JS ${b('payload')}; the harness's run ` +
    `(marshal.loads, the calls, the results' JSON) ${b('run')}, of which the per-call tick into JS ${Math.round(breakdown.run - breakdown.runNoTick)} ms; the bare loop ${Math.round(bareMs)} ms`,
);
console.log('\nstart-up');
console.log(
  `  loadPyodide() in this process: ${Math.round(startupMs)} ms   (reading the file with the studio's import: ${Math.round(readMs)} ms; native json.loads: ${Math.round(median(native.map((n) => n.out.read_ms)))} ms)`,
);
console.log(`  in process, load + read + score: ${Math.round(startupMs + readMs + pyScore)} ms`);
if (NO_CLI) process.exit(0);
console.log('\nend to end (whole processes, spawn to exit)');
console.log(`  python3 bench/python_baseline.py:                                 ${fmt(native.map((n) => n.ms))}`);
console.log(`  reward-studio score --reward reward.py --json (pool of up to ${pool}): ${fmt(cli.map((c) => c.ms))}`);
console.log(`  reward-studio score … --workers 1:                                ${fmt(cli1.map((c) => c.ms))}`);
console.log(
  `  ratio native / CLI: ${(median(native.map((n) => n.ms)) / median(cli.map((c) => c.ms))).toFixed(2)}× (pool), ${(median(native.map((n) => n.ms)) / median(cli1.map((c) => c.ms))).toFixed(2)}× (1 worker)`,
);
