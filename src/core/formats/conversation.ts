/**
 * Turn message lists into the Trajectory's text views.
 *
 * Flattening (`flattenMessages`), used for `prompt` text:
 * - no messages → "";
 * - a single message without tool calls → its content, unchanged (so a conversational prompt holding one user
 *   turn reads exactly like a plain-text prompt);
 * - otherwise one block per turn, blocks separated by a blank line: `role: content`, `role (name): content` when
 *   the turn has a name (tool replies), and one line `→ tool_name({"arg":1})` per tool call after the content.
 *
 * `completion` is the content of the final assistant turn; `prompt` is the flattened conversation before it.
 *
 * The group key of a conversational prompt is the same flattening of the prompt messages: a canonical string
 * (equal message lists give equal keys; tool-call ids are left out, so they do not split a group) that is also
 * readable where the UI shows a group, and costs nothing extra when it equals the `prompt` text.
 */
import type { Message } from '../trajectory';
import { asMessages } from './messages';
import { RecordError } from './record-error';

/** The text views of one rollout, plus the key its GRPO group falls back to. */
export interface Conversation {
  prompt: string;
  completion: string;
  messages: Message[];
  /** What the policy was given: the plain prompt string, or the flattened prompt messages (the group fallback). */
  promptKey: string;
}

/** Flatten `messages[0..end)` (all of them by default). */
export function flattenMessages(messages: Message[], end = messages.length): string {
  if (end === 0) return '';
  if (end === 1 && !messages[0].toolCalls) return messages[0].content;
  // Joined with `+`, not `join`: V8 then keeps the text as a rope over the turns' own strings until something reads
  // it, instead of a copy per rollout (two bytes a character with a tool call's arrow: ~0.8 KB a chat row).
  let text = '';
  for (let i = 0; i < end; i++) {
    const m = messages[i];
    if (i > 0) text += '\n\n';
    text += m.name ? m.role + ' (' + m.name + '): ' + m.content : m.role + ': ' + m.content;
    if (m.toolCalls) {
      for (const call of m.toolCalls) {
        const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
        text += '\n→ ' + call.name + '(' + args + ')';
      }
    }
  }
  return text;
}

/** Index of the last assistant turn, or -1. */
export function finalAssistantIndex(messages: Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return i;
  return -1;
}

/**
 * Build a conversation from a prompt and a completion, each a string or a message list (TRL standard,
 * conversational and the mixed cases). The final assistant turn must come from the completion side.
 */
export function fromPromptCompletion(promptValue: unknown, completionValue: unknown, promptPath: string, completionPath: string): Conversation {
  if (typeof promptValue === 'string' && typeof completionValue === 'string') {
    return {
      prompt: promptValue,
      completion: completionValue,
      messages: [
        { role: 'user', content: promptValue },
        { role: 'assistant', content: completionValue },
      ],
      promptKey: promptValue,
    };
  }
  const promptMessages = asMessages(promptValue, promptPath, 'user');
  const completionMessages = asMessages(completionValue, completionPath, 'assistant');
  const messages = promptMessages.concat(completionMessages);
  const k = finalAssistantIndex(messages);
  if (k < promptMessages.length) throw new RecordError(`${completionPath}: no assistant turn`);
  const prompt = flattenMessages(messages, k);
  const promptKey = typeof promptValue === 'string' ? promptValue : k === promptMessages.length ? prompt : flattenMessages(promptMessages);
  return { prompt, completion: messages[k].content, messages, promptKey };
}

/**
 * A whole conversation in one list (OpenAI `messages`): split at the final assistant turn. The group key falls
 * back to the turns before the first assistant turn (what the policy was given), so multi-turn rollouts of the
 * same task group together.
 */
export function fromMessages(messages: Message[], path: string): Conversation {
  const k = finalAssistantIndex(messages);
  if (k < 0) throw new RecordError(`${path}: no assistant turn`);
  let first = 0;
  while (messages[first].role !== 'assistant') first++;
  const prompt = flattenMessages(messages, k);
  return { prompt, completion: messages[k].content, messages, promptKey: first === k ? prompt : flattenMessages(messages, first) };
}
