/** The reward the demo session opens with: the number after the last `A:` equals `ground_truth` → 1, else 0. */
export const DEFAULT_REWARD_TS = `import type { Trajectory, RewardContext } from 'reward-studio';

/**
 * GSM8K correctness: the number after the last "A:" in the completion
 * equals the ground truth (numerically: "1,000" = "1000.0") → 1, else 0.
 */
export default function reward(t: Trajectory, ctx: RewardContext): number {
  const answer = ctx.numberAfter(t.completion, 'A:');
  return answer !== null && ctx.numbersEqual(answer, t.groundTruth) ? 1 : 0;
}
`;
