/**
 * Command line of `reward-studio score` (the public interface from the issue):
 *   reward-studio score <data file | folder | files…> --reward <file.ts|file.js|file.py> [--preset …] [--label <column>] [--out rows.jsonl] [--json]
 * Pure: no file access, so it is unit-tested directly.
 */
import { FORMAT_IDS, type ColumnMapping, type FormatId } from '../core/formats/types';
import { DEFAULT_MAX_RATE } from '../core/probe/figures';
import { PROBE_NAMES } from '../core/probe/probes';
import { parseWeights } from '../core/reward/weighted';
import { isPresetId, PRESET_IDS, type PresetId } from '../core/stats/advantage';
import { MAX_SHARDS, type Shard } from '../core/dataset/shard';
import { shapeOptions } from './shapeArgs';
import { SHAPE_NAMES, type ShapeSpec } from '../core/shaping/spec';
import { DEFAULT_TOKENIZER, isTokenizerId, TOKENIZER_IDS, type TokenizerId } from '../core/tokenize/tokenizers';

export interface ScoreOptions {
  /** The first data path (the only one for one file or a folder; cli/dataFiles.ts reads `dataPaths`). */
  dataPath: string;
  /**
   * Every data path given: one file, one folder (its data files, not its subfolders), or several files (issue 24).
   * Absent: `dataPath` alone (options built by hand).
   */
  dataPaths?: string[];
  /** `--reward`, repeated for several reward functions combined as TRL's `reward_funcs` (in this order). */
  rewardPaths: string[];
  /** `--reward-weights 1,0.5`: one weight per `--reward` (TRL's `reward_weights`); null: not given (each 1). */
  rewardWeights: number[] | null;
  preset: PresetId;
  /** Column of `Trajectory.fields` holding a reference label (1/0) to compare the reward with. */
  label: string | null;
  /** `--group-by <column>`: the reward's rows, mean and std per value of this column. */
  groupBy: string | null;
  out: string | null;
  json: boolean;
  timeLimitMs: number;
  tokenizer: TokenizerId;
  /** Worker threads; null: one per core, at least 2. */
  workers: number | null;
  format: FormatId | null;
  mapping: ColumnMapping | null;
  /** Python reward (`--reward file.py`): the function to call (null: the first candidate). */
  pythonFunction: string | null;
  /** Python reward: rows per call for the batch conventions (TRL, verl batch, OpenRLHF). */
  batchSize: number;
  /** Heap limit of each worker thread, in MB (`--worker-memory`). */
  workerMemoryMb: number;
  /** `--allow-all`: run the reward without Node's permission model (src/cli/sandbox.ts). */
  allowAll: boolean;
  /** `--by-step`: per training step figures (README "Over steps"); with --json, `steps` and `divergence`. */
  byStep: boolean;
  /** `--max-length <n>`: a row without a finish reason counts as truncated when its completion has ≥ n characters. */
  maxLength: number | null;
  /** `--model <folder>`, repeated: reward models (ONNX folders) whose scores the reward reads as `ctx.models.<name>`. */
  models: string[];
  /** `--shard i/n`: score only the groups of shard i (src/core/dataset/shard.ts); null: every row. */
  shard: Shard | null;
  /** `--save-partial <file>`: write the run's columns for `reward-studio merge` (src/cli/partial.ts). */
  savePartial: string | null;
  /** `--shape <name>:<k>=<v>,…`, repeated: the Shaping list, applied in order (core/shaping/spec.ts). */
  shapes: ShapeSpec[];
}

/** Rows per call of a batched Python reward when --batch-size is not given. */
export const DEFAULT_BATCH_SIZE = 32;

/** Whether the reward file is Python (by its extension). */
export const isPythonReward = (path: string): boolean => /\.py$/i.test(path);

/** `reward-studio probe`: the stress test's own options (the rest are score's). */
export interface ProbeOptions {
  /** `--pass x`: the pass threshold; null: from the labels or all rewards (core/probe/figures.ts). */
  pass: number | null;
  /** `--max-rate r`: a probe fools the reward when its pass (or win) rate is above this. */
  maxRate: number;
  /** `--sample N`: probe N rollouts drawn with `--seed` (default all). */
  sample: number | null;
  seed: number;
  /** `--probe <name>`, repeated: only these probes (default all). */
  probes: string[] | null;
}

export type ParsedArgs =
  | { kind: 'help' }
  | { kind: 'score'; options: ScoreOptions }
  | { kind: 'probe'; options: ScoreOptions; probe: ProbeOptions }
  | { kind: 'merge'; paths: string[]; json: boolean }
  | { kind: 'usage-error'; message: string };

export const USAGE = `Usage: reward-studio score <data file | folder | files…> --reward <file.ts|file.js|file.py> [options]
       reward-studio probe <data file | folder | files…> --reward <file> [--model <folder>] [--label c] [--pass x] [--max-rate r] [--sample N] [--json]
       reward-studio merge <partial files…> [--json]

A folder (a training run's rollout dumps, one file per step: verl rollout_data_dir/{step}.jsonl, TRL
completions_{step}.parquet) is read for its data files, not its subfolders; several files may be named. Each
row's step is its \`step\` field, else the number in its file's name (README, "Training runs: many files").

Scores every rollout of a dataset (JSONL, JSON, CSV, Parquet, optionally gzipped; TRL, verl, OpenAI or
preference formats) with a reward function, in worker threads, and prints the diagnostics of the studio.

Options:
  --reward <file>        reward code: \`export default function reward(t, ctx)\` (TypeScript or JavaScript), or
                         a .py file with a TRL, verl or OpenRLHF reward function (Python standard library only:
                         it runs in Pyodide; print() output goes to stderr)
                         Repeat it for several reward functions, combined as TRL combines its reward_funcs:
                         the reward is the weighted sum of their values, None left out (nansum)
  --reward-weights <w,…> one weight per --reward, in order (TRL's reward_weights; default 1 each)
  --function <name>      (.py) the function to call when the file has several (default: the entry point)
  --batch-size <n>       (.py) rows per call for TRL, verl batch and OpenRLHF functions (default ${DEFAULT_BATCH_SIZE});
                         verl's compute_score is called once per row
  --preset <id>          advantage estimator for the collapse diagnostics and --out (default trl):
                         ${PRESET_IDS.join(', ')}
  --label <column>       a column with a reference label (true/false, 1/0); reports the reward's agreement with it
  --group-by <column>    rows, mean and std (population) of the reward per value of this column, e.g. model;
                         with --json: "groupBy": {column, values: [{value, rows, mean, std}]}
  --by-step              figures per training step (the rows' \`step\` field): reward mean and std, collapse by
                         cause, length mean and p95, truncated share, label agreement; with --json, "steps": [...]
                         and "divergence": {step, from, rule} | null (the step where the reward keeps rising while
                         the --label column's mean falls: 3 step-to-step changes in a row)
  --max-length <n>       a row counts as truncated when its finish_reason / stop_reason says "length" (or its
                         truncated field is true); a row with neither counts as truncated when its completion has
                         at least n characters (without --max-length: not truncated)
  --shape <name>:<k>=<v>,…  a Shaping transform of the reward (repeat: applied in order), e.g.
                         --shape dapo-overlong:max=400,cache=100,unit=chars --shape kimi-length:unit=chars;
                         ${SHAPE_NAMES.join(', ')} (README "Shaping" gives each formula). With it, --json's
                         reward, length and collapse describe the shaped reward, "raw" the unshaped one,
                         "shaping" the list, low-std groups and the zero-std causes; --out writes the shaped reward
  --out <file>           write one JSON line per rollout: {index, group, reward, advantage, length, error}
  --json                 print the diagnostics as one JSON object on stdout
  --shard <i/n>          score only the groups of shard i of n (1 ≤ i ≤ n), picked by a hash of the group key
                         (FNV-1a of its UTF-8, mod n): a group is never split, every machine picks the same
  --save-partial <file>  write this run's per-row columns, for \`reward-studio merge\`
  --time-limit <ms>      per-row time limit (default 1000); a row past it is reported as timed out
                         (a batched Python call gets the limit × its rows)
  --model <folder>       a reward model: a Hugging Face ONNX export (config.json, tokenizer.json, model.onnx or
                         onnx/model*.onnx), as the studio's Reward models panel loads it. Every rollout is scored
                         with onnxruntime-node (CPU) with the studio's encoding (chat template if the tokenizer has
                         one, else the prompt/completion pair; its max length) and the reward reads the score (the
                         first label's raw logit) as ctx.models.<name> (TypeScript) or model_scores /
                         extra_info["rollout_reward_scores"] (Python); <name> is the folder's model name as the
                         studio writes it, e.g. tiny-reward → tiny_reward. Repeat it for several models: with two or
                         more, ctx.models.ensemble is their {mean, min, std} per rollout and --json adds \`ensemble\`
                         (mean std across models, Pearson/Spearman of each pair). For probe,
                         each probed text is scored by the model too. The sandbox may read the folder; the model
                         itself runs in the unsandboxed parent process (a native addon: the reward gets none)
  --tokenizer <id>       tokenizer for ctx.tokenCount: ${TOKENIZER_IDS.join(', ')} (default ${DEFAULT_TOKENIZER})
  --workers <n>          worker threads (default: one per core, at least 2)
  --worker-memory <MB>   heap limit of each worker thread (default 4096); a row that exhausts it fails with
                         "out of memory" and a fresh worker goes on
  --allow-all            run the reward without Node's permission model (by default it may read only the data
                         file, the reward file and the studio's own files, write only --out, start no process)
  --format <id>          force the record format instead of detecting it: ${FORMAT_IDS.filter((f) => f !== 'mapped').join(', ')}
  --prompt <column>      with --completion: read a file of any other shape through this column mapping
  --completion <column>
  --group <column>       (mapping) GRPO group column; default: group/uid/group_id/prompt_id, else the prompt
  --ground-truth <column>  (mapping) ground-truth column
  -h, --help             show this help

probe (stress test): scores each rollout, then texts made to fool the reward (master keys such as ":" or
"Thought process:", empty, echo of the prompt, another group's answer, repeats, half, padding) in place of
its completion, and reports how often each passes the threshold or beats the rollout's own reward.
  --pass <x>             pass threshold (default: median reward of rows whose --label is true, else of all rows)
  --max-rate <r>         a probe fools the reward when its pass rate (replacements) or win rate (modifications)
                         is above r (default ${DEFAULT_MAX_RATE})
  --sample <N>           probe N rollouts drawn at random (seeded by --seed, default 1); default every rollout
  --probe <name>         only this probe (repeat for several; default all): ${PROBE_NAMES.map((x) => JSON.stringify(x)).join(', ')}

merge: prints the report (or with --json the object) of scoring every row at once, from the --save-partial files
of all n shards of one run (each shard once; the same reward files, options and data). Exit 1 when a partial cannot
be read, is malformed, or does not belong with the others.

Exit status: 0 scored (rows whose reward threw or timed out are counted, not fatal); 1 the reward does not
compile (Python: a syntax error, an error at import, no reward function) or a file cannot be read; 2 usage error;
3 (probe) a probe fools the reward.`;

const VALUE_OPTIONS = new Set([
  '--reward',
  '--preset',
  '--label',
  '--group-by',
  '--out',
  '--time-limit',
  '--tokenizer',
  '--workers',
  '--format',
  '--prompt',
  '--completion',
  '--group',
  '--ground-truth',
  '--function',
  '--batch-size',
  '--worker-memory',
  '--reward-weights',
  '--pass',
  '--max-rate',
  '--sample',
  '--seed',
  '--probe',
  '--model',
  '--shard',
  '--save-partial',
  '--max-length',
  '--shape',
]);
/** Options that may be given more than once (their values kept in order). */
const REPEATABLE = new Set(['--reward', '--probe', '--model', '--shape']);
const FLAG_OPTIONS = new Set(['--json', '--allow-all', '--by-step', '--help', '-h']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const err = (message: string): ParsedArgs => ({ kind: 'usage-error', message });
  const values = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      const eq = a.indexOf('=');
      const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
      if (FLAG_OPTIONS.has(name)) {
        if (name !== a) return err(`${name} takes no value`);
        flags.add(name === '-h' ? '--help' : name);
      } else if (VALUE_OPTIONS.has(name)) {
        let value: string | undefined;
        if (name !== a) value = a.slice(eq + 1);
        else {
          value = argv[++i];
          if (value === undefined) return err(`${name} needs a value`);
        }
        if (REPEATABLE.has(name)) repeated.set(name, [...(repeated.get(name) ?? []), value]);
        else if (values.has(name)) return err(`${name} given twice`);
        values.set(name, value);
      } else {
        return err(`unknown option ${a}`);
      }
    } else {
      positional.push(a);
    }
  }
  if (flags.has('--help')) return { kind: 'help' };
  if (positional.length === 0) return err('missing command (score, probe or merge)');
  const [command, ...rest] = positional;
  if (command === 'merge') {
    const other = [...values.keys(), ...[...flags].filter((f) => f !== '--json')];
    if (other.length > 0) return err(`${other[0]} applies to score, not merge (merge takes partial files and --json)`);
    if (rest.length === 0) return err('merge: missing the partial files (written by score --save-partial)');
    return { kind: 'merge', paths: rest, json: flags.has('--json') };
  }
  if (command !== 'score' && command !== 'probe') return err(`unknown command "${command}" (the commands are "score", "probe" and "merge")`);
  let probe: ProbeOptions | null = null;
  if (command === 'probe') {
    const parsed = probeOptions(values, repeated.get('--probe') ?? null);
    if (typeof parsed === 'string') return err(parsed);
    probe = parsed;
    if ((repeated.get('--reward') ?? []).length > 1) return err('probe takes one --reward file (a file may list several functions)');
    for (const o of ['--out', '--reward-weights', '--group-by', '--shard', '--save-partial', '--max-length', '--shape'])
      if (values.has(o)) return err(`${o} applies to score, not probe`);
    if (flags.has('--by-step')) return err('--by-step applies to score, not probe');
  } else {
    for (const o of ['--pass', '--max-rate', '--sample', '--seed', '--probe']) if (values.has(o)) return err(`${o} applies to probe, not score`);
  }
  if (rest.length === 0) return err('missing the data file (or folder, or files)');
  const rewardPaths = repeated.get('--reward') ?? [];
  if (rewardPaths.length === 0 || rewardPaths.includes('')) return err('missing --reward <file.ts|file.js|file.py>');
  const python = rewardPaths.some(isPythonReward);
  let rewardWeights: number[] | null = null;
  const rw = values.get('--reward-weights');
  if (rw !== undefined) {
    const parsed = parseWeights(rw, rewardPaths.length);
    if (!parsed.ok) return err(parsed.message);
    rewardWeights = parsed.weights;
  }

  const fn = values.get('--function');
  if (fn !== undefined) {
    if (!python) return err('--function applies to Python rewards (--reward file.py)');
    if (rewardPaths.length > 1) return err('--function applies to a single --reward file (with several, each file calls its entry point)');
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(fn)) return err(`--function must be a Python function name, got "${fn}"`);
  }
  let batchSize = DEFAULT_BATCH_SIZE;
  const bs = values.get('--batch-size');
  if (bs !== undefined) {
    if (!python) return err('--batch-size applies to Python rewards (--reward file.py)');
    batchSize = Number(bs);
    if (!/^\d+$/.test(bs.trim()) || batchSize < 1 || batchSize > 100_000) return err(`--batch-size must be a whole number from 1 to 100000, got "${bs}"`);
  }

  const preset = values.get('--preset') ?? 'trl';
  if (!isPresetId(preset)) return err(`unknown --preset "${preset}" (one of ${PRESET_IDS.join(', ')})`);

  let timeLimitMs = 1000;
  const tl = values.get('--time-limit');
  if (tl !== undefined) {
    timeLimitMs = Number(tl);
    if (!/^\d+(\.\d+)?$/.test(tl.trim()) || !(timeLimitMs >= 1)) return err(`--time-limit must be a number of milliseconds ≥ 1, got "${tl}"`);
  }

  const tokenizer = values.get('--tokenizer') ?? DEFAULT_TOKENIZER;
  if (!isTokenizerId(tokenizer)) return err(`unknown --tokenizer "${tokenizer}" (one of ${TOKENIZER_IDS.join(', ')})`);

  let workers: number | null = null;
  const w = values.get('--workers');
  if (w !== undefined) {
    workers = Number(w);
    if (!/^\d+$/.test(w.trim()) || workers < 1 || workers > 256) return err(`--workers must be a whole number from 1 to 256, got "${w}"`);
  }

  let workerMemoryMb = 4096;
  const wm = values.get('--worker-memory');
  if (wm !== undefined) {
    workerMemoryMb = Number(wm);
    if (!/^\d+$/.test(wm.trim()) || workerMemoryMb < 64 || workerMemoryMb > 1_048_576)
      return err(`--worker-memory must be a whole number of MB from 64, got "${wm}"`);
  }

  let format: FormatId | null = null;
  const f = values.get('--format');
  if (f !== undefined) {
    if (!(FORMAT_IDS as readonly string[]).includes(f) || f === 'mapped') {
      return err(`unknown --format "${f}" (one of ${FORMAT_IDS.filter((x) => x !== 'mapped').join(', ')}; for other shapes use --prompt and --completion)`);
    }
    format = f as FormatId;
  }

  let mapping: ColumnMapping | null = null;
  const prompt = values.get('--prompt');
  const completion = values.get('--completion');
  const group = values.get('--group');
  const groundTruth = values.get('--ground-truth');
  if (prompt !== undefined || completion !== undefined || group !== undefined || groundTruth !== undefined) {
    if (prompt === undefined || completion === undefined) return err('a column mapping needs both --prompt and --completion');
    if (format !== null) return err('--format cannot be combined with a column mapping (--prompt/--completion)');
    mapping = { prompt, completion };
    if (group !== undefined) mapping.group = group;
    if (groundTruth !== undefined) mapping.groundTruth = groundTruth;
    format = 'mapped';
  }

  const label = values.get('--label');
  if (label === '') return err('--label needs a column name');
  const groupBy = values.get('--group-by');
  if (groupBy === '') return err('--group-by needs a column name');
  const out = values.get('--out');
  if (out === '') return err('--out needs a file name');
  let shard: Shard | null = null;
  const sh = values.get('--shard');
  if (sh !== undefined) {
    const m = /^(\d{1,9})\/(\d{1,9})$/.exec(sh.trim());
    const index = m ? Number(m[1]) : NaN;
    const count = m ? Number(m[2]) : NaN;
    if (!(index >= 1 && index <= count && count <= MAX_SHARDS)) return err(`--shard must be i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS} (shard i of n), got "${sh}"`);
    shard = { index, count };
  }
  const savePartial = values.get('--save-partial');
  if (savePartial === '') return err('--save-partial needs a file name');
  if (savePartial !== undefined && out !== undefined && savePartial === out) return err('--save-partial and --out name the same file');
  if ((shard !== null || savePartial !== undefined) && (repeated.get('--shape') ?? []).length > 0)
    return err(
      '--shape does not go with --shard or --save-partial: a transform may use the whole batch (center over=batch, par ref=median), which one shard lacks',
    );
  let maxLength: number | null = null;
  const ml = values.get('--max-length');
  if (ml !== undefined) {
    maxLength = Number(ml);
    if (!/^\d+$/.test(ml.trim()) || !(maxLength >= 1)) return err(`--max-length must be a whole number of characters ≥ 1, got "${ml}"`);
  }
  const models = repeated.get('--model') ?? [];
  if (models.includes('')) return err('--model needs a folder');
  if (savePartial !== undefined && models.length >= 2)
    return err(
      "--save-partial does not go with two or more --model: a partial file does not carry the models' scores, so merge could not print the ensemble figures",
    );
  const shapes = shapeOptions(repeated.get('--shape') ?? []);
  if (typeof shapes === 'string') return err(shapes);

  const options: ScoreOptions = {
    dataPath: rest[0],
    dataPaths: rest,
    rewardPaths,
    rewardWeights,
    preset,
    label: label ?? null,
    groupBy: groupBy ?? null,
    out: out ?? null,
    json: flags.has('--json'),
    allowAll: flags.has('--allow-all'),
    byStep: flags.has('--by-step'),
    maxLength,
    models,
    shapes,
    workerMemoryMb,
    timeLimitMs,
    tokenizer,
    workers,
    format,
    mapping,
    pythonFunction: fn ?? null,
    batchSize,
    shard,
    savePartial: savePartial ?? null,
  };
  return probe ? { kind: 'probe', options, probe } : { kind: 'score', options };
}

/** The probe command's options, or what is wrong with them. */
function probeOptions(values: Map<string, string>, probes: string[] | null): ProbeOptions | string {
  const num = (name: string, ok: (x: number) => boolean, what: string): number | null | string => {
    const v = values.get(name);
    if (v === undefined) return null;
    const x = Number(v);
    return v.trim() !== '' && ok(x) ? x : `${name} must be ${what}, got "${v}"`;
  };
  const pass = num('--pass', Number.isFinite, 'a number');
  if (typeof pass === 'string') return pass;
  const maxRate = num('--max-rate', (x) => x >= 0 && x <= 1, 'a rate from 0 to 1');
  if (typeof maxRate === 'string') return maxRate;
  const sample = num('--sample', (x) => Number.isInteger(x) && x >= 1, 'a whole number ≥ 1');
  if (typeof sample === 'string') return sample;
  const seed = num('--seed', (x) => Number.isInteger(x) && Math.abs(x) <= 2 ** 31, 'a whole number');
  if (typeof seed === 'string') return seed;
  const unknown = probes?.find((x) => !PROBE_NAMES.includes(x));
  if (unknown !== undefined) return `unknown probe ${JSON.stringify(unknown)} (one of ${PROBE_NAMES.map((x) => JSON.stringify(x)).join(', ')})`;
  return { pass, maxRate: maxRate ?? DEFAULT_MAX_RATE, sample, seed: seed ?? 1, probes };
}
