import { KIND_DESCRIPTIONS, type RewardCandidate } from './signatures';

const described = (c: RewardCandidate) => `${c.name} (${c.kind}, line ${c.line})`;

/** Which function to call, or why none can be: the one named `wanted`, else the first candidate. */
export function chooseRewardFunction(
  candidates: RewardCandidate[],
  wanted: string | null,
): { ok: true; chosen: RewardCandidate } | { ok: false; message: string } {
  if (candidates.length === 0) {
    const conventions = Object.values(KIND_DESCRIPTIONS).map((d) => '  ' + d);
    return {
      ok: false,
      message:
        'no reward function found: a top-level def with a parameter solution_str (verl), solution_strs (verl batch), ' +
        `completions (TRL) or queries (OpenRLHF; or reward_func(queries, prompts, labels)). The conventions:\n${conventions.join('\n')}`,
    };
  }
  if (wanted === null) return { ok: true, chosen: candidates[0] };
  const chosen = candidates.find((c) => c.name === wanted);
  if (chosen) return { ok: true, chosen };
  return { ok: false, message: `--function ${wanted}: no reward function of that name; the file has ${candidates.map(described).join(', ')}` };
}
