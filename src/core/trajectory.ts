/**
 * The normalized form of one rollout, whatever the file looked like (DESIGN.md, "Data model").
 * Pure types and small pure helpers: no DOM, no React.
 */

/** One tool call made by an assistant turn. */
export interface ToolCall {
  /** The call id, when the source has one (OpenAI `tool_calls[].id`). */
  id?: string;
  /** The function name. */
  name: string;
  /**
   * Parsed arguments: an object when the source held an object (TRL) or a JSON string that parses (OpenAI);
   * the raw string when the source string is not valid JSON.
   */
  arguments: unknown;
}

/** One turn of a conversation. */
export interface Message {
  role: string;
  /** Text content; multi-part content (`[{type:'text', text}]`) is joined. Empty string when absent. */
  content: string;
  toolCalls?: ToolCall[];
  /** For `role: "tool"` replies: the id of the call being answered. */
  toolCallId?: string;
  /** Tool name on tool replies, or a participant name. */
  name?: string;
}

/** Which side of a preference pair a rollout is. */
export type PreferenceSide = 'chosen' | 'rejected';

export interface Trajectory {
  /** Stable id within the dataset (e.g. "12" or "12:chosen"). */
  id: string;
  /** Position of this trajectory in the dataset (0-based, dense). */
  index: number;
  /** 1-based line (JSONL/CSV) or row number (JSON array / Parquet) in the source file. */
  line: number;
  /** GRPO group key (an explicit column, else identical prompt text). */
  group: string;
  /** Prompt as text (the conversation before the final assistant turn, flattened). */
  prompt: string;
  /** Final response text. */
  completion: string;
  /** Full conversation: system/user/assistant/tool turns. */
  messages: Message[];
  groundTruth?: string;
  step?: number;
  /** Preference data: both rollouts of a pair share this id. */
  pairId?: string;
  preference?: PreferenceSide;
  /** Every original field, untouched, so reward code can read anything. */
  fields: Record<string, unknown>;
}

/** A problem with one line/row of input: reported, never fatal to the rest of the file. */
export interface ParseIssue {
  /** 1-based line or row number in the source. */
  line: number;
  /** "messages.3.content: expected string", "Unexpected token } in JSON at position 12", … */
  reason: string;
  /** The file of a dataset made of several files (core/dataset/parts.ts); absent for one file. */
  file?: string;
}

/** A record field's value, undefined where the record has none (its own fields only: `__proto__` is a field). */
export function fieldOf(fields: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}
