/**
 * `reward-studio score`: the same import, reward and diagnostics code as the browser, run in Node worker threads.
 * Returns the exit status: 0 scored, 1 the reward does not compile or a file cannot be read, 2 usage error.
 */
import { groupLabels, groupsFromColumn } from '../core/dataset/groupLabels';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dataOf, dataPathsOf, datasetFile, firstFileCopied, loadData, readParts, readPathOf } from './dataFiles';
import { plainGroupKey } from '../core/dataset/parts';
import { basename } from 'node:path';
import { chooseRewardFunction, defaultReason, describeChoice } from '../core/python/choose';
import { FORMAT_LABELS } from '../core/formats/labels';
import type { RangeResult } from '../core/reward/runRows';
import { combineFunctions, uniqueNames, type WeightedFunction } from '../core/reward/weighted';
import { advantages } from '../core/stats/advantage';
import { isPythonReward, type ScoreOptions } from './args';
import { checkOut, fail, reason, type Io } from './io';
import { RewardEngine, type LoadInfo, type PieceRead, type RunOptions, type RunOutcome, type RunResult } from '../engine/engine';
import { leanParts, leanPieces, pieceCount } from './pieceCount';
import { joinPartPieces, joinPieces, planFilePieces, planPartPieces } from './pieces';
import { defaultPoolSize, nodeWorkerPort, type EarlyWorker } from '../engine/node';
import { ensureSnapshot, handedSnapshotRef, snapshotRef } from '../engine/pyodideSnapshot';
import type { DatasetFile, DatasetMeta, PythonCall } from '../engine/protocol';
import { issuesText, outLines } from './report';
import { columnsOf } from './columns';
import { encodePartial, type PartialHeader } from './partial';
import { scoreReport } from './scoreReport';
import { shardRows } from '../core/dataset/shard';
import { sandboxed } from './sandbox';
import { shapeReadsRows, shapeRun } from './shaping';
import { closeModels, ensembleReport, openModels, scoreColumns, type CliModel, type ScoredColumns } from './models';
import { localSessions, remoteSessions } from './modelHost';
import type { Trajectory } from '../core/trajectory';

export { fail, type Io };

/** The reward files' code, or why a reward file or the data file cannot be read. */
export function readInputs(o: ScoreOptions): { ok: true; codes: string[] } | { ok: false; message: string } {
  const codes: string[] = [];
  for (const path of o.rewardPaths) {
    try {
      codes.push(readFileSync(path, 'utf8'));
    } catch (e) {
      return { ok: false, message: `cannot read the reward file ${path}: ${reason(e)}` };
    }
  }
  const data = dataOf(o);
  if (!data.ok) return data;
  return { ok: true, codes };
}

/** The engine's descriptor of the data paths (checked by readInputs before). */

/** Several data files: how many, in what order, what was skipped and which names gave no step (on stderr). */
function tellDataFiles(o: ScoreOptions, io: Io): void {
  const d = dataOf(o);
  if (!d.ok || d.parts === null) return;
  const steps = d.parts.filter((p) => p.step !== null).length;
  const skipped = d.skipped.length > 0 ? `; ${d.skipped.length} skipped (not data files)` : '';
  io.stderr(`reward-studio: ${d.parts.length} data files in step order (${steps} with a step in their name)${skipped}\n`);
  for (const n of d.notes.slice(0, 10)) io.stderr(`reward-studio: note: ${n}\n`);
}

/** `early`: workers started before this module loaded, taken as the first reward's first workers (of its language). */
export async function score(o: ScoreOptions, workerUrl: URL, io: Io, early?: EarlyWorker): Promise<number> {
  const inputs = readInputs(o);
  if (!inputs.ok) return fail(io, inputs.message);
  const { codes } = inputs;
  if (!o.json) tellDataFiles(o, io);
  if (!sandboxed()) {
    const bad = checkOut(o.out) ?? checkOut(o.savePartial);
    if (bad) return fail(io, bad);
  }

  const size = o.workers ?? defaultPoolSize();
  let models: Record<string, Float64Array> | undefined;
  // The rows --model read, kept for --shape when it needs them (token counts, a column): not read a second time.
  let modelRows: Trajectory[] | null = null;
  if (o.models.length > 0) {
    const scored = await modelScores(o, io);
    if (!scored.ok) return fail(io, scored.message);
    await closeModels(scored.models);
    models = scored.columns;
    if (shapeReadsRows(o.shapes)) modelRows = scored.rows;
  }
  // Each --reward is run on every row, one after another; several are then combined as TRL combines reward_funcs.
  const runs: Extract<Ran, { ok: true }>[] = [];
  for (let k = 0; k < codes.length; k++) {
    const ran = await runEngine(o, o.rewardPaths[k], codes[k], size, workerUrl, io, models, early);
    if (!ran.ok) return fail(io, ran.message);
    if (ran.outcome.result.stdout) io.stderr(ran.outcome.result.stdout);
    runs.push(ran);
  }
  // Read from its inflated copy, a gzip file is still one (the report and the partial say so).
  const meta = firstFileCopied(o) ? { ...runs[0].meta, detection: { ...runs[0].meta.detection, gzip: true } } : runs[0].meta;
  let { result } = runs[0].outcome;
  let functions: WeightedFunction[] | undefined = runs[0].functions;
  if (runs.length > 1 || o.rewardWeights !== null) {
    const names = uniqueNames(runs.map((r) => r.name));
    const parts = runs.map((r, k) => ({ name: names[k], weight: o.rewardWeights?.[k] ?? 1, result: asRange(r.outcome.result) }));
    const combined = combineFunctions(parts);
    functions = parts.map(({ name, weight }) => ({ name, weight }));
    result = {
      ...combined,
      errors: new Map(combined.errors.map((e) => [e.row, e])),
      notes: new Map(combined.notes.map((x) => [x.row, x.note])),
      stdout: '',
    };
  }
  const { errors } = result;
  const elapsedMs = runs.reduce((a, r) => a + r.outcome.elapsedMs, 0);
  const workersUsed = Math.max(...runs.map((r) => r.outcome.workersUsed));
  if (meta.issues.length > 0) io.stderr(issuesText(meta.issues, meta.detection.container) + '\n');
  if (o.label !== null && meta.labelPresent === 0)
    io.stderr(`reward-studio: warning: no row has a "${o.label}" field (columns: ${meta.detection.columns.join(', ')})\n`);

  if (o.groupBy !== null && (!meta.groupBy || meta.groupBy.present === 0)) {
    io.stderr(`reward-studio: --group-by: no row has a column "${o.groupBy}" (columns: ${meta.detection.columns.join(', ')})\n`);
    return 2;
  }
  // --shape: from here on the reward is the shaped one (the report, --out, the partial); the JSON keeps the raw one apart.
  const shaping = o.shapes.length > 0 ? await shapeRun(o, meta, result.scores, result.status, result.steps ?? null, modelRows) : null;
  if (shaping && !shaping.ok) {
    io.stderr(`reward-studio: ${shaping.message}\n`);
    return shaping.status;
  }
  const shaped = shaping?.shaped ?? null;
  if (shaped) result = { ...result, scores: shaped.scores };
  // With --shard the run covered its rows only (by position); the report and the partial describe those rows.
  const subset = runs[0].rows ?? null;
  if (o.byStep && !meta.steps.some(Number.isFinite)) io.stderr('reward-studio: warning: --by-step: no row has a step (a `step` field)\n');
  const columns = columnsOf(meta, result, subset, functions?.map((f) => f.name) ?? [], o.byStep);

  if (o.out !== null) {
    const { rows: c, groupKeys } = columns;
    const adv = advantages(c.score, c.group, groupKeys.length, o.preset);
    try {
      const labels = groupLabels(groupKeys.map(plainGroupKey), groupsFromColumn(meta.detection, o.mapping ?? undefined));
      const shardMeta = { ...meta, rows: c.index.length, groupOf: c.group, groupKeys, lengths: c.length };
      writeLines(o.out, outLines(shardMeta, c.score, adv, errors, labels, result.strings, subset ?? undefined));
    } catch (e) {
      return fail(io, `cannot write ${o.out}: ${reason(e)}`);
    }
  }
  if (o.savePartial !== null) {
    try {
      writeFileSync(o.savePartial, encodePartial(partialHeader(o, codes, meta, functions, { elapsedMs, workersUsed, poolSize: size }), columns));
    } catch (e) {
      return fail(io, `cannot write ${o.savePartial}: ${reason(e)}`);
    }
  }

  const shardNote = o.shard ? ` (shard ${o.shard.index}/${o.shard.count}: ${columns.rows.index.length} of ${meta.rows} rows)` : '';
  const report = scoreReport(columns, {
    preset: o.preset,
    label: o.label,
    groupBy: o.groupBy,
    byStep: o.byStep,
    maxLength: o.maxLength,
    ...(functions ? { functions } : {}),
    ...extraReport(models ? ensembleReport(models) : null, shaped ? { json: shaped.json, text: shaped.text } : null),
    json: o.json,
    human: {
      file: dataPathsOf(o).join(' ') + shardNote,
      reward: o.rewardPaths.join(', '),
      formatLabel: FORMAT_LABELS[meta.detection.format],
      container: meta.detection.container,
      gzip: meta.detection.gzip,
      skipped: meta.issues.length,
      elapsedMs,
      workersUsed,
      poolSize: size,
      out: o.out,
    },
  });
  io.stdout(report + '\n');
  return 0;
}

/** The keys and lines added after the report: the models' ensemble, then --shape's. */
function extraReport(...parts: ({ json: Record<string, unknown>; text: string } | null)[]): { extra?: { json: Record<string, unknown>; text: string } } {
  const got = parts.filter((p) => p !== null);
  if (got.length === 0) return {};
  return { extra: { json: Object.assign({}, ...got.map((p) => p.json)), text: got.map((p) => p.text).join('\n') } };
}

/** The data a partial was scored on: its file's name and size, or a folder's (several files') names and total size. */
function dataIdentity(o: ScoreOptions): { name: string; bytes: number } {
  const d = dataOf(o);
  if (!d.ok) throw new Error(d.message);
  if (d.single !== null) return { name: basename(d.single), bytes: statSync(d.single).size };
  const name = d.folder !== null ? `${basename(d.folder)}/ (${d.parts.map((p) => p.name).join(', ')})` : d.parts.map((p) => p.name).join(', ');
  return { name: name.slice(0, 100_000), bytes: d.parts.reduce((a, p) => a + statSync(p.path).size, 0) };
}

/** What a partial says about the run, besides its rows: merge checks that every shard's agrees. */
function partialHeader(o: ScoreOptions, codes: string[], meta: DatasetMeta, functions: WeightedFunction[] | undefined, time: PartialHeader['time']) {
  return {
    run: {
      rewards: o.rewardPaths.map((p, k) => ({ file: basename(p), sha256: createHash('sha256').update(codes[k]).digest('hex') })),
      weights: o.rewardWeights,
      function: o.pythonFunction,
      preset: o.preset,
      label: o.label,
      groupBy: o.groupBy,
      byStep: o.byStep,
      maxLength: o.maxLength,
      tokenizer: o.tokenizer,
      import: { format: o.format, mapping: o.mapping ? { ...o.mapping } : null },
      data: dataIdentity(o),
      detection: { container: meta.detection.container, gzip: meta.detection.gzip, format: meta.detection.format },
      datasetRows: meta.rows,
      skipped: meta.issues.length,
      groupByValues: meta.groupBy ? meta.groupBy.values : null,
      functions: functions ? functions.map(({ name, weight }) => ({ name, weight })) : null,
    },
    shard: o.shard ?? { index: 1, count: 1 },
    time,
  };
}

/** A whole run's result as the range result of rows [0, n). */
function asRange(r: RunResult): RangeResult {
  return {
    start: 0,
    scores: r.scores,
    status: r.status,
    errors: [...r.errors.values()],
    components: r.components,
    notes: [...r.notes].map(([row, note]) => ({ row, note })),
  };
}

export type Ran =
  | {
      ok: true;
      outcome: Extract<RunOutcome, { kind: 'done' | 'cancelled' }>;
      meta: DatasetMeta;
      /** The function's name among several: Python's function name (TRL's `__name__`), else the file's base name. */
      name: string;
      /** A Python file's own `reward_funcs` list, combined inside the run. */
      functions?: WeightedFunction[];
      /** --shard: the dataset rows the run covered, by position (absent: every row). */
      rows?: Int32Array;
    }
  | { ok: false; message: string };

/** An engine with the dataset set and the reward checked and chosen, ready to run (runOn); the caller disposes it. */
export interface OpenedReward {
  engine: RewardEngine;
  /** The function's name among several: Python's function name (TRL's `__name__`), else the file's base name. */
  name: string;
  call?: PythonCall;
  functions?: WeightedFunction[];
  tokenizer?: ScoreOptions['tokenizer'];
  python: boolean;
  /** The parse found no reward: the first run finds one the module bound (the message if it finds none either). */
  whenRun: { message: string } | null;
  io: Io;
  /** The dataset's facts when this process joined them from the pieces the workers read (else the first worker's read). */
  meta?: DatasetMeta;
}

/**
 * Start the engine on worker threads (a large plain JSONL file read in pieces by all of them at once; otherwise
 * staged: each worker reads the whole file), check the code, pick the function.
 */
export async function openReward(
  o: ScoreOptions,
  rewardPath: string,
  code: string,
  size: number,
  workerUrl: URL,
  io: Io,
  early?: EarlyWorker,
): Promise<{ ok: true; opened: OpenedReward } | { ok: false; message: string }> {
  const python = isPythonReward(rewardPath);
  let name = basename(rewardPath).replace(/\.[^.]*$/, '');
  let functions: WeightedFunction[] | undefined;
  // Python workers start from a Pyodide snapshot: made by the unsandboxed process (see main), only looked up here
  // (by the key it handed over, else hashed again).
  const snapshot = python ? (sandboxed() ? (handedSnapshotRef() ?? snapshotRef()) : await ensureSnapshot()) : null;
  const language = python ? 'py' : 'ts';
  // A large plain JSONL file is read in pieces, one worker per piece, all at once (pieces.ts): worker k scores the block
  // of rows of its own piece (engine/taskQueue.ts), where more workers than pieces read most of their blocks a second
  // time by lines (bench/README.md, session 21). A TypeScript pool stops there; a Python pool (rows of 10–30 µs and
  // more) may grow to every core once the run shows it is long, as it does from one worker for a file read whole:
  // 16 Pyodide starts for a file of one row took 0.7 s more and 7.6× the CPU of one (bench/README.md, session 30).
  const single = readPathOf(o);
  const pieceWorkers = pieceCount(single, python, size, o.workerMemoryMb);
  const piecesOf = pieceWorkers > 0 ? single : null;
  // A file too large to keep in the workers' memory is read twice instead: once for its facts, once per task.
  const lean = piecesOf !== null && leanPieces(piecesOf, pieceWorkers, o.workerMemoryMb);
  // Several files too large to keep are read lean too, a file a worker, a round of workers at a time.
  const files = readParts(o);
  const parts =
    files !== null &&
    leanParts(
      files.map((p) => p.path),
      size,
      o.workerMemoryMb,
    )
      ? files
      : null;
  const first = parts !== null ? Math.min(size, parts.length) : Math.max(1, pieceWorkers);
  const poolSize = piecesOf !== null && !python ? first : size;
  const engine = new RewardEngine({
    size: poolSize,
    ...(piecesOf !== null || parts !== null ? { startWith: first } : {}),
    spawn: () => (early?.language === language ? early.take() : null) ?? nodeWorkerPort(workerUrl, language, o.workerMemoryMb, undefined, snapshot),
    interruptible: python,
    oneCodePerWorker: python,
    staged: true,
    prepareBetweenRuns: false,
    outputLimit: Infinity,
    onProtocolError: (m) => io.stderr(`reward-studio: ${m}\n`),
  });
  const notLoading = (message: string, line?: number) => {
    engine.dispose();
    return { ok: false as const, message: loadMessage(python, rewardPath, message, line) };
  };
  try {
    // A large plain JSONL file is read in pieces by every worker at once (pieces.ts); otherwise, or when that fails,
    // the first worker reads the whole file (and the others too, if the staged start adds them).
    const whole = () => engine.setDataset({ file: datasetFile(o), meta: { label: o.label, groupBy: o.groupBy } });
    let pieces: Promise<{ meta: DatasetMeta; file: DatasetFile } | null> | null = null;
    if (piecesOf !== null) {
      const path = piecesOf;
      engine.fill(first); // the workers start while this process plans the pieces
      pieces = planFilePieces(path, datasetFile(o).name, first, o, lean)
        .then(async (plan) => {
          const joined = plan && joinPieces(plan, await engine.readPieces(plan.requests));
          if (!joined) return null;
          return {
            meta: joined.meta,
            file: { ...datasetFile(o), format: joined.meta.detection.format, index: joined.index, ...(plan.lean ? { lean: true } : {}) },
          };
        })
        .catch(() => null);
    } else if (parts !== null) {
      engine.fill(first);
      pieces = planPartPieces(parts, o)
        .then(async (plan) => {
          if (!plan) return null;
          const reads: PieceRead[] = [];
          for (let k = 0; k < plan.requests.length; k += first) reads.push(...(await engine.readPieces(plan.requests.slice(k, k + first))));
          const joined = joinPartPieces(plan, reads, parts);
          if (!joined) return null;
          const indexed = parts.map((p, k) => ({ ...p, index: joined.indexes[k] }));
          return { meta: joined.meta, file: { ...datasetFile(o), format: joined.meta.detection.format, parts: indexed, lean: true } };
        })
        .catch(() => null);
    } else whole();
    // Errors in the code are reported without waiting for the file.
    const checked = await engine.check(code);
    if (!checked.ok) return notLoading(checked.message, checked.line);
    let meta: DatasetMeta | undefined;
    if (pieces) {
      const joined = await pieces;
      if (joined) {
        meta = joined.meta;
        engine.setDataset({ file: joined.file, size: meta.rows });
      } else whole();
    }
    let call: PythonCall | undefined;
    // A TypeScript module's `rewardFuncs` list is combined inside the run; its names and weights come from the check.
    if (!python && checked.functions) functions = checked.functions;
    // Set when the parse found no function of that name (or none): the message if the module's run finds none either.
    let whenRun: { message: string } | null = null;
    const pick = python ? chooseRewardFunction(checked.candidates, o.pythonFunction) : null;
    if (pick && !pick.ok) {
      const asked = o.pythonFunction;
      // A reward object built by imported code (`soft = make_reward(...)`) is only seen once the module has run.
      if (checked.candidates.length > 0 && (asked === null || checked.candidates.some((c) => c.name === asked))) return notLoading(pick.message);
      whenRun = { message: pick.message };
      call = { name: asked ?? '', kind: 'trl', batchSize: o.batchSize, whenRun: true };
    }
    if (pick?.ok) {
      const { chosen } = pick;
      const others = checked.candidates.filter((c) => c !== chosen);
      if (o.pythonFunction === null && others.length > 0) {
        const list = others.map((c) => `${c.name} (${c.kind}, line ${c.line})`).join(', ');
        io.stderr(
          `reward-studio: ${rewardPath} has ${others.length + 1} reward functions; using ${describeChoice(chosen)} (line ${chosen.line}; ${defaultReason(chosen, checked.candidates)}). Others: ${list}. Choose one with --function <name>.\n`,
        );
      }
      call = { name: chosen.name, kind: chosen.kind, batchSize: o.batchSize };
      if (chosen.functions) call.functions = functions = chosen.functions.map(({ name, weight }) => ({ name, weight }));
      name = chosen.name;
    }
    // Loaded only when the reward uses it (2–11 MB of JSON per worker).
    // Python: the worker loads it only for a TRL function that reads completion_ids.
    const tokenizer = python || /\btokenCount\b/.test(code) ? o.tokenizer : undefined;
    return { ok: true, opened: { engine, name, call, functions, tokenizer, python, whenRun, io, ...(meta ? { meta } : {}) } };
  } catch (e) {
    engine.dispose();
    throw e;
  }
}

function loadMessage(python: boolean, where: string, message: string, line?: number): string {
  return `${python ? 'the Python reward does not load' : 'the reward does not compile'} (${line !== undefined ? `${where}, line ${line}` : where}): ${message}`;
}

/** One run of an opened reward over the dataset (or, with `probe`, over probed rows; `models` then by position). */
export async function runOn(
  r: OpenedReward,
  o: ScoreOptions,
  rewardPath: string,
  code: string,
  probe?: RunOptions['probe'],
  models?: RunOptions['models'],
): Promise<Ran> {
  const { engine } = r;
  // --shard: the groups come from the first worker's read; only the shard's rows are run (models' columns by position).
  let rows: Int32Array | undefined;
  if (o.shard && !probe) {
    const info = await factsOf(r);
    if (!info.ok || !info.meta)
      return { ok: false, message: `cannot read the data file ${o.dataPath}: ${info.ok ? 'no per-row facts came back' : mappingHint(info.message)}` };
    const subset = shardRows(info.meta.groupOf, info.meta.groupKeys, o.shard);
    if (models) models = Object.fromEntries(Object.entries(models).map(([k, col]) => [k, Float64Array.from(subset, (row) => col[row])]));
    rows = subset;
  }
  const outcome = await engine.run(code, {
    timeLimitMs: o.timeLimitMs,
    python: r.call,
    tokenizer: r.tokenizer,
    probe,
    ...(models ? { models } : {}),
    ...(rows ? { rows } : {}),
  }).done;
  if (outcome.kind === 'compile-error') {
    // The module ran but bound no reward object either: the parse's message lists what would have been one.
    if (r.whenRun && /^no reward function (found|named)/.test(outcome.message)) {
      const found = outcome.message.match(/; the module's run found (.*)$/);
      return { ok: false, message: loadMessage(r.python, rewardPath, r.whenRun.message + (found ? `; once the module ran: ${found[1]}` : '')) };
    }
    return { ok: false, message: loadMessage(r.python, rewardPath, outcome.message, outcome.line) };
  }
  if (r.whenRun && (outcome.kind === 'done' || outcome.kind === 'cancelled')) {
    const found = outcome.result.found ?? [];
    const chosen = o.pythonFunction === null ? found[0] : found.find((c) => c.name === o.pythonFunction);
    if (chosen) {
      r.name = chosen.name;
      if (o.pythonFunction === null)
        r.io.stderr(`reward-studio: ${rewardPath}: using ${describeChoice(chosen)} (line ${chosen.line}; the file defines no reward function).\n`);
      r.whenRun = null;
    }
  }
  if (outcome.kind === 'load-failed') return { ok: false, message: `cannot read the data file ${o.dataPath}: ${mappingHint(outcome.message)}` };
  if (outcome.kind !== 'done') return { ok: false, message: outcome.kind === 'failed' ? outcome.message : 'the run was cancelled' };
  const info = await factsOf(r);
  if (!info.ok || !info.meta)
    return { ok: false, message: `cannot read the data file ${o.dataPath}: ${info.ok ? 'no per-row facts came back' : info.message}` };
  return { ok: true, outcome, meta: info.meta, name: r.name, ...(r.functions ? { functions: r.functions } : {}), ...(rows ? { rows } : {}) };
}

/** The dataset's facts: joined from the pieces, or from the first worker's whole-file read. */
const factsOf = async (r: OpenedReward): Promise<LoadInfo> => (r.meta ? { ok: true, rows: r.meta.rows, meta: r.meta } : r.engine.loadInfo());

/** The browser's mapping dialog is, here, a pair of options. */
const mappingHint = (message: string) =>
  message.replace(
    / Choose which columns hold the prompt and the completion\.$/,
    ' Name them with --prompt <column> --completion <column> (and optionally --group, --ground-truth).',
  );

/** Score the file with the engine on worker threads. */
async function runEngine(
  o: ScoreOptions,
  rewardPath: string,
  code: string,
  size: number,
  workerUrl: URL,
  io: Io,
  models: RunOptions['models'],
  early?: EarlyWorker,
): Promise<Ran> {
  const opened = await openReward(o, rewardPath, code, size, workerUrl, io, early);
  if (!opened.ok) return opened;
  try {
    return await runOn(opened.opened, o, rewardPath, code, undefined, models);
  } finally {
    opened.opened.engine.dispose();
  }
}

/**
 * --model: the dataset read here too (the same import as the workers'), and each model's score of every rollout;
 * `keep` leaves the models open and returns the rows, for probe to score its probed texts with them.
 */
export async function modelScores(
  o: ScoreOptions,
  io: Io,
): Promise<{ ok: true; columns: Record<string, Float64Array>; rows: Trajectory[]; models: CliModel[] } | { ok: false; message: string }> {
  // Sandboxed, the sessions are the parent's (src/cli/modelHost.ts says why).
  const opened = await openModels(o.models, sandboxed() ? remoteSessions() : localSessions());
  if (!opened.ok) return opened;
  const { models } = opened;
  let rows: Trajectory[];
  try {
    rows = (await loadData(o)).rows;
  } catch (e) {
    await closeModels(models);
    return { ok: false, message: `cannot read the data file ${o.dataPath}: ${reason(e)}` };
  }
  const t0 = performance.now();
  const scored = await scoreColumns(models, rows);
  if (!o.json)
    io.stderr(
      `reward-studio: scored ${rows.length.toLocaleString('en-US')} rollouts with ${models.map((m) => `${m.name} (${m.mode} input)`).join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
    );
  warnModelScores(scored, io, 'rollouts');
  return { ok: true, columns: scored.columns, rows, models };
}

/** Rollouts a model left unscored (the reward then fails on them) or whose input it cut to its max length. */
export function warnModelScores(s: ScoredColumns, io: Io, what: string): void {
  for (const f of s.failures) io.stderr(`reward-studio: warning: model ${f.name} has no score for ${f.count} ${what} (${f.first})\n`);
  for (const t of s.truncated) io.stderr(`reward-studio: note: model ${t.name} read ${t.count} ${what} cut to its max length\n`);
}

/** Write lines to a file in ~1 MB writes. */
function writeLines(path: string, lines: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    let buf: string[] = [];
    let len = 0;
    for (const l of lines) {
      buf.push(l);
      len += l.length + 1;
      if (len > 1 << 20) {
        writeSync(fd, buf.join('\n') + '\n');
        buf = [];
        len = 0;
      }
    }
    if (buf.length > 0) writeSync(fd, buf.join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
}
