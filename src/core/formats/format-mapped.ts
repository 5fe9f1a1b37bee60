/**
 * Anything else, through the user's column mapping (prompt / completion / group / ground truth / step).
 * Prompt and completion values may be strings or message lists (handled like TRL conversational). When both are
 * mapped to the same column holding a message list, that list is the whole conversation (split at the final
 * assistant turn, as for OpenAI `messages`). Without a ground-truth or step mapping the usual columns are used.
 */
import type { Normalizer } from './build-trajectory';
import { buildTrajectory } from './build-trajectory';
import { fromMessages, fromPromptCompletion } from './conversation';
import { parseMessages } from './messages';
import { missing, RecordError } from './record-error';

export const normalizeMapped: Normalizer = (record, { line, mapping }) => {
  if (!mapping) throw new RecordError('no column mapping given');
  const promptValue = record[mapping.prompt];
  const completionValue = record[mapping.completion];
  if (promptValue === undefined) throw missing(mapping.prompt);
  if (completionValue === undefined) throw missing(mapping.completion);
  const conv =
    mapping.prompt === mapping.completion && Array.isArray(promptValue)
      ? fromMessages(parseMessages(promptValue, mapping.prompt), mapping.prompt)
      : fromPromptCompletion(promptValue, completionValue, mapping.prompt, mapping.completion);
  return [
    buildTrajectory(conv, record, line, {
      groupColumn: mapping.group,
      groundTruthColumn: mapping.groundTruth,
      stepColumn: mapping.step,
    }),
  ];
};
