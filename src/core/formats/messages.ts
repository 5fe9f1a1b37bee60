/**
 * Parse chat message lists as the frameworks write them into `Message[]`, validating every field.
 *
 * Accepted shapes (one message):
 * - `{role, content}` with content a string, null/absent (→ ''), or multi-part `[{type:'text', text}, …]`
 *   (text parts joined with "\n", non-text parts such as images skipped; bare strings in the list are text too);
 * - OpenAI tool calls `tool_calls: [{id, type:'function', function: {name, arguments: '<JSON string>'}}]`;
 * - TRL tool calls, the same with `arguments` as an object (also `{name, arguments}` without the `function` wrapper);
 * - tool replies `{role:'tool', tool_call_id, name?, content}`.
 * Arguments given as a string are parsed as JSON when they parse, and kept as the raw string otherwise.
 */
import type { Message, ToolCall } from '../trajectory';
import { expected, expectString, isPlainObject } from './record-error';

/** Parse a list of messages found at `path` (e.g. "messages", "prompt", "chosen"). */
export function parseMessages(value: unknown, path: string): Message[] {
  if (!Array.isArray(value)) throw expected(path, 'a list of messages', value);
  const out: Message[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = parseMessage(value[i], path, i);
  return out;
}

/** A string becomes one message with `role`; a list is parsed as messages. */
export function asMessages(value: unknown, path: string, role: string): Message[] {
  if (typeof value === 'string') return [{ role, content: value }];
  if (!Array.isArray(value)) throw expected(path, 'string or a list of messages', value);
  return parseMessages(value, path);
}

/** True when `value` looks like a message list: an array whose first element is an object with a `role`. */
export function isMessageList(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && isPlainObject(value[0]) && 'role' in value[0];
}

function parseMessage(value: unknown, listPath: string, i: number): Message {
  if (!isPlainObject(value)) throw expected(`${listPath}.${i}`, 'object', value);
  const role = value.role;
  if (typeof role !== 'string') throw expected(`${listPath}.${i}.role`, 'string', role);
  const raw = value.content;
  const content = typeof raw === 'string' ? raw : parseContent(raw, `${listPath}.${i}.content`);
  const message: Message = { role, content };
  if (value.tool_calls !== undefined && value.tool_calls !== null) {
    const calls = parseToolCalls(value.tool_calls, `${listPath}.${i}.tool_calls`);
    if (calls.length > 0) message.toolCalls = calls;
  }
  const callId = value.tool_call_id;
  if (callId !== undefined && callId !== null) message.toolCallId = expectString(callId, `${listPath}.${i}.tool_call_id`);
  const name = value.name;
  if (name !== undefined && name !== null) message.name = expectString(name, `${listPath}.${i}.name`);
  return message;
}

function parseContent(value: unknown, path: string): string {
  if (value === null || value === undefined) return '';
  if (!Array.isArray(value)) throw expected(path, 'string', value);
  const texts: string[] = [];
  for (let j = 0; j < value.length; j++) {
    const part = value[j];
    if (typeof part === 'string') {
      texts.push(part);
    } else if (isPlainObject(part)) {
      if (part.type === 'text' || (part.type === undefined && 'text' in part)) {
        texts.push(expectString(part.text, `${path}.${j}.text`));
      }
      // images, audio, … carry no text: skipped (they stay in `fields`)
    } else {
      throw expected(`${path}.${j}`, 'object', part);
    }
  }
  return texts.join('\n');
}

function parseToolCalls(value: unknown, path: string): ToolCall[] {
  if (!Array.isArray(value)) throw expected(path, 'array', value);
  const calls: ToolCall[] = [];
  for (let j = 0; j < value.length; j++) {
    const raw = value[j];
    if (!isPlainObject(raw)) throw expected(`${path}.${j}`, 'object', raw);
    const wrapped = raw.function !== undefined;
    if (wrapped && !isPlainObject(raw.function)) throw expected(`${path}.${j}.function`, 'object', raw.function);
    const fn = (wrapped ? raw.function : raw) as Record<string, unknown>;
    const fnPath = wrapped ? `${path}.${j}.function` : `${path}.${j}`;
    const call: ToolCall = { name: expectString(fn.name, `${fnPath}.name`), arguments: parseArguments(fn.arguments) };
    if (raw.id !== undefined && raw.id !== null) call.id = expectString(raw.id, `${path}.${j}.id`);
    calls.push(call);
  }
  return calls;
}

function parseArguments(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
