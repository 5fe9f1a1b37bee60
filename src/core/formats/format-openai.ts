/**
 * OpenAI chat records `{messages: [...]}`: tool calls with `function.arguments` as a JSON string, `role: "tool"`
 * replies, multi-part content. The final assistant turn is the completion; everything before it is the prompt.
 */
import type { Normalizer } from './build-trajectory';
import { buildTrajectory } from './build-trajectory';
import { fromMessages } from './conversation';
import { parseMessages } from './messages';
import { missing } from './record-error';

export const normalizeOpenAi: Normalizer = (record, { line }) => {
  if (record.messages === undefined) throw missing('messages');
  const conv = fromMessages(parseMessages(record.messages, 'messages'), 'messages');
  return [buildTrajectory(conv, record, line)];
};
