/** Human labels for the "detected as …" dropdown. */
import type { FormatId } from './types';

export const FORMAT_LABELS: Record<FormatId, string> = {
  'trl-standard': 'TRL prompt/completion',
  'trl-conversational': 'TRL conversational (message lists)',
  'openai-messages': 'OpenAI chat messages',
  'verl-dump': 'verl rollout dump (input/output)',
  'verl-dataset': 'verl training data (prompts only)',
  'trl-completions': 'TRL completions log (with advantages)',
  preference: 'Preference pairs (prompt/chosen/rejected)',
  rewardbench2: 'RewardBench 2 (lists of chosen/rejected)',
  mapped: 'Custom column mapping',
};
