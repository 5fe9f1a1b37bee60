/**
 * verl records.
 * - Rollout dumps (`trainer.rollout_data_dir/{step}.jsonl`): `input` (the decoded prompt) → prompt, `output` →
 *   completion, `gts` → ground truth, `score`/`step`/extra keys stay in `fields`. No group id: the group is the
 *   identical `input` text (unless a `uid`-like column is present).
 * - Training data parquet (`data_source, prompt: [{role, content}], ability, reward_model: {ground_truth, style},
 *   extra_info`): prompts only. The completion is "" (that is what the dataset holds), `messages` is the prompt,
 *   the ground truth comes from `reward_model.ground_truth`.
 */
import type { Normalizer } from './build-trajectory';
import { buildTrajectory } from './build-trajectory';
import { fromPromptCompletion, flattenMessages } from './conversation';
import { asMessages } from './messages';
import { missing } from './record-error';

export const normalizeVerlDump: Normalizer = (record, { line }) => {
  if (record.input === undefined) throw missing('input');
  if (record.output === undefined) throw missing('output');
  const conv = fromPromptCompletion(record.input, record.output, 'input', 'output');
  return [buildTrajectory(conv, record, line)];
};

export const normalizeVerlDataset: Normalizer = (record, { line }) => {
  if (record.prompt === undefined) throw missing('prompt');
  const messages = asMessages(record.prompt, 'prompt', 'user');
  const prompt = flattenMessages(messages);
  const conv = { prompt, completion: '', messages, promptKey: prompt };
  return [buildTrajectory(conv, record, line)];
};
