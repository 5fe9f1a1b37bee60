/**
 * TRL records: standard `{prompt: string, completion: string}`, conversational (`prompt` / `completion` as
 * message lists, tool calls with object arguments) and the GRPO completions log
 * (`completions_{step}.parquet`: step, prompt, completion, one column per reward, advantage).
 * Reward and advantage columns need no special handling: they stay in `fields`.
 */
import type { Normalizer } from './build-trajectory';
import { buildTrajectory } from './build-trajectory';
import { fromPromptCompletion } from './conversation';
import { missing } from './record-error';

export const normalizeTrl: Normalizer = (record, { line }) => {
  if (record.prompt === undefined) throw missing('prompt');
  if (record.completion === undefined) throw missing('completion');
  const conv = fromPromptCompletion(record.prompt, record.completion, 'prompt', 'completion');
  return [buildTrajectory(conv, record, line)];
};
