import { KIND_DESCRIPTIONS, KIND_NAMES, type RewardCandidate } from './signatures';

const described = (c: RewardCandidate) => `${c.name} (${c.kind}, line ${c.line})`;

/**
 * How likely a candidate is the file's entry point, lower first, as the frameworks pick one: verl loads the function
 * named in `custom_reward_function.name` (default `compute_score`) and its per-source modules are called through
 * their `compute_score`; TRL rewards are the functions handed to `reward_funcs`; OpenRLHF loads `reward_func`. Helpers
 * above the entry point that happen to take a `solution_str` (gsm8k.py's `extract_solution`, math_dapo.py's
 * `is_correct_minerva`) come last.
 */
function rank(c: RewardCandidate): number {
  // Found when the module ran: the pick only when the file's parse found nothing (then the first of them).
  if (c.whenRun) return 10;
  if (c.name === 'compute_score' && c.kind.startsWith('verl')) return 0;
  if (c.functions) return 0.5;
  if (c.kind === 'trl') return 1;
  if (c.kind === 'openrlhf' && c.name === 'reward_func') return 2;
  if (c.kind === 'verl' || c.kind === 'verl-batch') return 3;
  if (c.kind === 'openrlhf') return 4;
  return 5;
}

/** The candidate called when the user has not picked one: the best ranked, the first in the file among equals. */
export function defaultRewardFunction(candidates: readonly RewardCandidate[]): RewardCandidate | undefined {
  let best: RewardCandidate | undefined;
  for (const c of candidates) if (best === undefined || rank(c) < rank(best)) best = c;
  return best;
}

/** Why `c` is called the way it is, in a few words: "compute_score: verl per-source signature". */
export function describeChoice(c: RewardCandidate): string {
  if (c.functions) return `${c.name}: TRL reward_funcs, ${c.functions.map((f) => `${f.name} × ${f.weight}`).join(' + ')}`;
  const how = c.object !== undefined ? `${KIND_NAMES[c.kind].replace(/ signature$/, '')} object, ${c.object}` : KIND_NAMES[c.kind];
  return `${c.name}: ${how}${c.whenRun ? ', found when the module ran' : ''}`;
}

/** Why the default is the default, when there was a choice (for the UI and the CLI). */
export function defaultReason(chosen: RewardCandidate, candidates: readonly RewardCandidate[]): string | null {
  if (candidates.length < 2) return null;
  const r = rank(chosen);
  if (r === 0) return 'compute_score is the entry point verl calls';
  if (r === 0.5) return 'reward_funcs is the list GRPOTrainer is given';
  if (r === 1) return 'TRL rewards come before OpenRLHF and other verl-shaped functions';
  if (r === 2) return 'reward_func is the entry point OpenRLHF loads';
  if (r === 3) return 'verl custom-function signatures come before helpers that take a solution_str';
  if (r === 4) return 'OpenRLHF signatures come before helpers that take a solution_str';
  if (r === 10) return 'the file defines no reward function: the first reward object found when the module ran';
  return 'the first candidate in the file';
}

/** The studio's pick: the function the user chose while it still exists, else the default. */
export function pickRewardFunction(candidates: readonly RewardCandidate[], wanted: string | null): RewardCandidate | undefined {
  return candidates.find((c) => c.name === wanted) ?? defaultRewardFunction(candidates);
}

/** Which function to call, or why none can be: the one named `wanted`, else the default (`defaultRewardFunction`). */
export function chooseRewardFunction(
  candidates: RewardCandidate[],
  wanted: string | null,
): { ok: true; chosen: RewardCandidate } | { ok: false; message: string } {
  const best = defaultRewardFunction(candidates);
  if (best === undefined) {
    const conventions = Object.values(KIND_DESCRIPTIONS).map((d) => '  ' + d);
    return {
      ok: false,
      message:
        'no reward function found: a top-level def with a parameter solution_str (verl), solution_strs (verl batch), ' +
        'completions (TRL) or queries (OpenRLHF; or reward_func(queries, prompts, labels)), or a compute_score(solution_str, ground_truth) (verl per-source); ' +
        `or a top-level name bound to such a reward (a factory's result, a callable instance). The conventions:\n${conventions.join('\n')}`,
    };
  }
  const chosen = wanted === null ? best : candidates.find((c) => c.name === wanted);
  if (chosen?.problem !== undefined) return { ok: false, message: chosen.problem };
  if (chosen) return { ok: true, chosen };
  return { ok: false, message: `--function ${wanted}: no reward function of that name; the file has ${candidates.map(described).join(', ')}` };
}
