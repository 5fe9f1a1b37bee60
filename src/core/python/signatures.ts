/**
 * Find the reward functions in pasted Python code and say how each framework would call them.
 *
 * The code is parsed with Python's `ast` inside Pyodide, never run: a file that imports numpy (unavailable offline)
 * or starts a training run under `if __name__ == "__main__":` still lists its candidates. Top-level `def` and
 * `async def` are considered, and names bound at the top level to a reward object the parse can follow (`object`):
 * a lambda, an instance of a class of the file with `__call__`, the result of a factory of the file that returns a
 * nested def, lambda or such instance (TRL's `get_soft_overlong_punishment(...)` shape), `functools.partial` of a
 * def. A later binding of a name replaces an earlier one, as when the module runs.
 *
 * How the kind is told apart (first rule that matches):
 * | kind          | rule                                                                   | framework's call                                       |
 * | ------------- | ---------------------------------------------------------------------- | ------------------------------------------------------ |
 * | `verl-batch`  | a parameter `solution_strs`                                            | verl BatchRewardManager                                |
 * | `verl`        | a parameter `solution_str`, and `data_source` or `**kwargs`            | verl NaiveRewardManager (custom reward function)       |
 * | `verl-source` | a parameter `solution_str` otherwise                                   | verl default_compute_score → gsm8k.compute_score(s, gt) |
 * | `trl`         | a parameter `completions` or `completion_ids`                          | TRL GRPOTrainer reward_funcs                           |
 * | `openrlhf`    | a parameter `queries`, or `reward_func` with ≥ 3 positionals           | OpenRLHF `--remote_rm_url file.py`                     |
 * | `verl-source` | `compute_score` with ≥ 2 positionals (geo3k's `(predict_str, ground_truth)`) | as above                                        |
 * Which one is called when the user has not picked: choose.ts (`defaultRewardFunction`).
 */
import type { PyodideAPI } from 'pyodide';
import { harnessFor } from './harness';

export type RewardKind = 'trl' | 'verl' | 'verl-source' | 'verl-batch' | 'openrlhf';

export const REWARD_KINDS: readonly RewardKind[] = ['trl', 'verl', 'verl-source', 'verl-batch', 'openrlhf'];

/** Kinds called once per row (the others once per batch of "Rows per call"). */
export const isPerRow = (kind: RewardKind): boolean => kind === 'verl' || kind === 'verl-source';

/** The convention of a kind, in a few words ("compute_score: verl per-source signature"). */
export const KIND_NAMES: Readonly<Record<RewardKind, string>> = {
  trl: 'TRL reward signature',
  verl: 'verl custom-function signature',
  'verl-source': 'verl per-source signature',
  'verl-batch': 'verl batch signature',
  openrlhf: 'OpenRLHF reward_func signature',
};

/** How each kind is called, in words for the UI. */
export const KIND_DESCRIPTIONS: Readonly<Record<RewardKind, string>> = {
  trl: 'TRL: f(prompts=, completions=, completion_ids=, trainer_state=, log_extra=, log_metric=, **columns) per batch → list of float | None',
  verl: 'verl: compute_score(data_source=, solution_str=, ground_truth=, extra_info=) per row → number or {"score": ...}',
  'verl-source':
    'verl per-source: compute_score(solution_str, ground_truth) per row, positionally, defaults for the rest (as default_compute_score calls gsm8k.py) → number or {"score": ...}',
  'verl-batch': 'verl batch: compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=) per batch → list',
  openrlhf: 'OpenRLHF: reward_func(queries, prompts, labels) per batch → {"rewards": [...]} or a list',
};

export interface RewardCandidate {
  name: string;
  kind: RewardKind;
  /** Line of the `def` (1-based; decorators sit above it). */
  line: number;
  /** Named parameters, positional then keyword-only. */
  params: string[];
  /** Parameters without a default value. */
  required: string[];
  varPositional: boolean;
  varKeyword: boolean;
  async: boolean;
  /** A reward object: the expression bound to the name (e.g. `get_soft_overlong_punishment(max_completion_len=20)`). */
  object?: string;
  /**
   * Found when the module ran, not by the parse: a top-level name bound to a reward object built by imported code
   * (`soft = make_reward(...)`), its signature read with `inspect.signature`.
   */
  whenRun?: boolean;
  /** A `reward_funcs = [f, g]` list (name `reward_funcs`): its functions with `reward_weights` (else 1 each). */
  functions?: { name: string; weight: number }[];
  /** Why the list cannot run as TRL would run it (a weight count that differs, a name the file does not define). */
  problem?: string;
}

export type SignatureScan =
  | { ok: true; candidates: RewardCandidate[] }
  /** The code does not parse: Python's message and line. */
  | { ok: false; message: string; line?: number };

/** Every candidate reward function in `code`, in source order. */
export function findRewardFunctions(py: PyodideAPI, code: string): SignatureScan {
  const r = JSON.parse(harnessFor(py).findCandidates(code)) as
    { ok: true; candidates: RewardCandidate[] } | { ok: false; message: string; line: number | null };
  if (r.ok) return r;
  return r.line == null ? { ok: false, message: r.message } : { ok: false, message: r.message, line: r.line };
}

/** What each kind's framework passes by name (TRL, verl) or by position (OpenRLHF: the first three). */
const PASSED: Readonly<Record<RewardKind, readonly string[]>> = {
  trl: ['prompts', 'completions', 'completion_ids', 'trainer_state', 'log_extra', 'log_metric'],
  verl: ['data_source', 'solution_str', 'ground_truth', 'extra_info'],
  'verl-source': [],
  'verl-batch': ['data_sources', 'solution_strs', 'ground_truths', 'extra_infos'],
  openrlhf: [],
};

/**
 * Required parameters the framework would not fill, so every call would fail with a TypeError: for TRL, given the
 * dataset's columns (each is passed as a keyword; `ground_truth` is offered when the rows have a ground truth);
 * for OpenRLHF, required parameters past the three positionals. Empty when the function can be called.
 */
export function unfilledParameters(c: RewardCandidate, columns: readonly string[] = []): string[] {
  if (c.kind === 'openrlhf') return c.required.slice(3);
  if (c.kind === 'verl-source') return c.required.slice(2);
  const passed = new Set<string>(PASSED[c.kind]);
  if (c.kind === 'trl') for (const col of columns) passed.add(col);
  return c.required.filter((p) => !passed.has(p));
}

/**
 * Keyword arguments the framework passes that the function does not accept (no `**kwargs` and no parameter of
 * that name), so every call would fail with "got an unexpected keyword argument": TRL passes its own keywords and
 * every column; verl its four keywords. OpenRLHF passes three positionals: a function taking fewer fails too.
 */
export function unacceptedArguments(c: RewardCandidate, columns: readonly string[] = []): string[] {
  if (c.kind === 'openrlhf') {
    const positional = c.params.length; // upper bound: keyword-only parameters cannot take positionals
    return c.varPositional || positional >= 3 ? [] : ['queries', 'prompts', 'labels'].slice(positional);
  }
  if (c.kind === 'verl-source') return c.varPositional || c.params.length >= 2 ? [] : ['solution_str', 'ground_truth'].slice(c.params.length);
  if (c.varKeyword) return [];
  const accepted = new Set(c.params);
  const passed = c.kind === 'trl' ? [...PASSED.trl, ...columns] : PASSED[c.kind];
  return passed.filter((p) => !accepted.has(p));
}
