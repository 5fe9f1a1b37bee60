// Python rewards: the same Python reward (the GSM8K demo's verl `compute_score`, an answer check with `re`) over a
// generated 100,000-rollout JSONL (bench/rollouts.mjs), in Pyodide (what `reward-studio score --reward file.py`
// runs) against native CPython (bench/python_baseline.py: the same file, the same function, in a plain loop).
//
// - scoring: only the scoring loop on both sides. Pyodide: runPython (src/core/python/runPython.ts, as the CLI's
//   workers call it: ranges of the CLI's task size, the rows' payload built in JS, sent to Python as JSON, one
//   keyword call per row, results back as JSON) on rows loaded beforehand with the studio's import, in this Node
//   process, after Pyodide is loaded. Native: the loop over the parsed rows in python3. Both: median of REPS
//   passes; the first Pyodide pass (the wasm code still tiering up) is shown too.
// - start-up: loadPyodide() in this process (python3 itself starts in ~20 ms).
// - end to end: whole processes, spawn to exit: `node bin/reward-studio.mjs score <file> --reward reward.py --function compute_score --json`
//   (default pool, and --workers 1) against `python3 bench/python_baseline.py` (read the file, score, print).
// Also shown, to split the Pyodide time: the same loop written in Python and run inside Pyodide (no harness, no JSON).
// The ratio printed is native / Pyodide scoring time (1 = as fast as CPython; the target is ≥ 0.4×).
// Usage: node bench/python.bench.mjs [rows] [reps]
import { spawnSync } from 'node:child_process';
import { mkdirSync, openAsBlob, statSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeRollouts } from './rollouts.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = Number(process.argv[3] ?? 3);
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

// runPython and the import are TypeScript (src/core): strip the types on the fly with sucrase (a dependency).
const loader = `
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
const { transform } = createRequire(${JSON.stringify(resolve(ROOT, 'package.json'))})('sucrase');
export async function resolve(spec, ctx, next) {
  if (ctx.parentURL?.endsWith('.ts') && spec.startsWith('.') && !/\\.[cm]?[jt]s$/.test(spec)) {
    for (const ext of ['.ts', '/index.ts']) {
      try { return await next(spec + ext, ctx); } catch { /* not this one */ }
    }
  }
  return next(spec, ctx);
}
export async function load(url, ctx, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, ctx);
  const src = await readFile(new URL(url), 'utf8');
  const { code } = transform(src, { transforms: ['typescript'], disableESTransforms: true, filePath: url });
  return { format: 'module', source: code, shortCircuit: true };
}`;
register('data:text/javascript,' + encodeURIComponent(loader), import.meta.url);

const src = (p) => pathToFileURL(resolve(ROOT, p)).href;
const { loadAll } = await import(src('src/core/dataset/loadAll.ts'));
const { runPython, rowPayload } = await import(src('src/core/python/runPython.ts'));
const { harnessFor } = await import(src('src/core/python/harness.ts'));
// The GSM8K demo reward in Python (src/core/python/gsm8k.test.ts checks it gives the TypeScript default reward's
// scores); its verl convention, compute_score, is the one timed.
const { GSM8K_PY: REWARD_PY } = await import(src('src/core/python/testing/gsm8k.ts'));
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
const version = spawnSync('python3', ['--version'], { encoding: 'utf8' });
if (version.status !== 0) {
  console.error('python3 is needed for the baseline');
  process.exit(1);
}
const native = [];
for (let i = 0; i < REPS; i++) native.push(spawnTimed('python3', ['bench/python_baseline.py', reward, data, 'compute_score']));

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
function pyodidePass() {
  const t0 = performance.now();
  let sum = 0;
  let bad = 0;
  for (let s = 0; s < rows.length; s += TASK) {
    const r = runPython(py, REWARD_PY, choice, rowAt, s, Math.min(rows.length, s + TASK), { batchSize: 32 });
    for (let i = 0; i < r.scores.length; i++) {
      if (r.status[i] === 1) sum += r.scores[i];
      else bad++;
    }
  }
  return { ms: performance.now() - t0, sum, bad };
}
const passes = [];
for (let i = 0; i < REPS; i++) passes.push(pyodidePass());

// The bare loop inside Pyodide (after the passes above: the wasm code is warm).
const ns = py.globals.get('dict')();
py.runPython(REWARD_PY, { globals: ns });
const { readFileSync } = await import('node:fs');
ns.set('_lines', readFileSync(data, 'utf8'));
const bare = [];
for (let i = 0; i < REPS; i++) {
  py.runPython(BARE_LOOP_PY, { globals: ns });
  bare.push({ ms: ns.get('_ms'), sum: ns.get('_total') });
}
ns.destroy();

// Where runPython's time goes (warm): the payload built in JS; the JSON string handed to Python (a
// function that only takes it); json.loads of it in Python; the harness's run with and without the per-call
// callback into JS (on_call, which publishes the row for the watchdog).
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
  const payloads = time('payload', () => {
    const out = [];
    for (let s = 0; s < rows.length; s += TASK) {
      const r = [];
      for (let i = s; i < Math.min(rows.length, s + TASK); i++) r.push(rowPayload('verl', rows[i]));
      out.push(JSON.stringify({ rows: r, batch: 32 }));
    }
    return out;
  });
  const ns2 = py.globals.get('dict')();
  const take = py.runPython('def take(p):\n    return len(p)\ntake', { globals: ns2 });
  const parse = py.runPython('import json\ndef parse(p):\n    json.loads(p)\nparse', { globals: ns2 });
  time('handover', () => payloads.forEach((p) => take(p)));
  time('handover+loads', () => payloads.forEach((p) => parse(p)));
  const h = harnessFor(py);
  const noop = () => {};
  time('run', () => payloads.forEach((p) => h.run('verl', 'compute_score', p, noop)));
  time('runNoCallback', () => payloads.forEach((p) => h.run('verl', 'compute_score', p, undefined)));
  take.destroy();
  parse.destroy();
  ns2.destroy();
}

// ---------------------------------------------------------------------------------------------- end to end
const build = spawnSync(process.execPath, ['bin/build-cli.mjs'], { cwd: ROOT, encoding: 'utf8' });
if (build.status !== 0) {
  console.error(build.stderr);
  process.exit(1);
}
const cliArgs = ['bin/reward-studio.mjs', 'score', data, '--reward', reward, '--function', 'compute_score', '--json'];
const cli = [];
const cli1 = [];
for (let i = 0; i < REPS; i++) {
  cli.push(spawnTimed(process.execPath, cliArgs));
  cli1.push(spawnTimed(process.execPath, [...cliArgs, '--workers', '1']));
}

// ---------------------------------------------------------------------------------------------- checks, report
const nativeSum = native[0].out.sum;
const mismatch = [
  ...passes.map((p, i) => (p.sum !== nativeSum || p.bad !== 0 ? `Pyodide pass ${i}: sum ${p.sum}, ${p.bad} rows not Ok` : null)),
  ...bare.map((b, i) => (b.sum !== nativeSum ? `bare Pyodide loop ${i}: sum ${b.sum}` : null)),
  ...[...cli, ...cli1].map((c, i) => (Math.abs(c.out.reward.mean * ROWS - nativeSum) > 1e-6 || c.out.errors !== 0 ? `CLI run ${i}: mean ${c.out.reward.mean}, errors ${c.out.errors}` : null)),
].filter(Boolean);
if (native.some((n) => n.out.rows !== ROWS) || mismatch.length > 0) {
  console.error(`results differ from native CPython (sum ${nativeSum}):\n${mismatch.join('\n')}`);
  process.exit(1);
}

const fmt = (xs) => `${Math.round(median(xs))} ms   [${xs.map((x) => Math.round(x)).join(', ')}]`;
const nativeScore = median(native.map((n) => n.out.score_ms));
const pyScore = median(passes.map((p) => p.ms));
const pyodideVersion = py.version;
console.log(
  `${ROWS.toLocaleString('en-US')} rollouts, ${mb.toFixed(0)} MB JSONL; ${availableParallelism()} cores; Node ${process.version}, ` +
    `Pyodide ${pyodideVersion} (Python ${py.runPython('import sys; sys.version.split()[0]')}), native ${version.stdout.trim()}; median of ${REPS}; ` +
    `${nativeSum} rows score 1 on both sides`,
);
console.log('\nscoring loop only (rows already parsed)');
console.log(`  native CPython, compute_score in a loop:                 ${fmt(native.map((n) => n.out.score_ms))}`);
console.log(`  Pyodide, runPython (harness, JSON, ranges of ${TASK}):  ${fmt(passes.map((p) => p.ms))}   (first pass: wasm still tiering up)`);
console.log(`  Pyodide, the same bare loop inside Pyodide (no harness):  ${fmt(bare.map((b) => b.ms))}`);
console.log(`  ratio native / Pyodide (runPython): ${(nativeScore / pyScore).toFixed(2)}×   (target ≥ 0.4×)`);
console.log(`  ratio native / Pyodide (bare loop): ${(nativeScore / median(bare.map((b) => b.ms))).toFixed(2)}×`);
const b = (k) => `${Math.round(breakdown[k])} ms`;
console.log(
  `  runPython's time, warm: payload built in JS ${b('payload')}; the JSON string handed to Python ${b('handover')}; ` +
    `json.loads there ${Math.round(breakdown['handover+loads'] - breakdown.handover)} ms; the harness's run (from the handover to the results' JSON) ${b('run')}, ` +
    `of which the per-call callback into JS ${Math.round(breakdown.run - breakdown.runNoCallback)} ms; the bare loop ${Math.round(median(bare.map((x) => x.ms)))} ms`,
);
console.log('\nstart-up');
console.log(`  loadPyodide() in this process: ${Math.round(startupMs)} ms   (reading the file with the studio's import: ${Math.round(readMs)} ms; native json.loads: ${Math.round(median(native.map((n) => n.out.read_ms)))} ms)`);
console.log(`  in process, load + read + score: ${Math.round(startupMs + readMs + pyScore)} ms`);
console.log('\nend to end (whole processes, spawn to exit)');
console.log(`  python3 bench/python_baseline.py:                                 ${fmt(native.map((n) => n.ms))}`);
console.log(`  reward-studio score --reward reward.py --json (pool of up to ${pool}): ${fmt(cli.map((c) => c.ms))}`);
console.log(`  reward-studio score … --workers 1:                                ${fmt(cli1.map((c) => c.ms))}`);
console.log(`  ratio native / CLI: ${(median(native.map((n) => n.ms)) / median(cli.map((c) => c.ms))).toFixed(2)}× (pool), ${(median(native.map((n) => n.ms)) / median(cli1.map((c) => c.ms))).toFixed(2)}× (1 worker)`);
