/**
 * How a rollout becomes a reward model's input ids, as the model was trained to read it:
 *
 * - `chat`: the tokenizer's chat template (Jinja, tokenizer_config.json `chat_template`) applied to the whole
 *   conversation, `add_generation_prompt: false`, then tokenized without adding special tokens — what
 *   `tokenizer.apply_chat_template(messages, tokenize=True)` does in transformers. The default when the tokenizer
 *   has a template (Skywork, InternLM, Llama-based reward models).
 * - `pair`: prompt and completion as a text pair through the tokenizer's post-processor (`tokenizer(prompt,
 *   completion)`: `[CLS] prompt [SEP] completion [SEP]` for BERT/DeBERTa-style reward models such as OpenAssistant's).
 *   The default without a template.
 * - `completion`: the completion alone, with the tokenizer's special tokens.
 *
 * Truncation to the model's max length follows transformers: a single sequence loses tokens on the side named by
 * tokenizer_config `truncation_side` (default right); a pair is cut "longest first" (tokenizers' rule, see
 * `longestFirst`). Special tokens always stay. Every truncated rollout is flagged so the studio can count them.
 */
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import type { Message, Trajectory } from '../trajectory';

export type InputMode = 'chat' | 'pair' | 'completion';

export const INPUT_MODES: readonly { id: InputMode; label: string }[] = [
  { id: 'chat', label: 'Chat template (whole conversation)' },
  { id: 'pair', label: 'Text pair (prompt, completion)' },
  { id: 'completion', label: 'Completion only' },
];

export interface EncoderSpec {
  tokenizerJson: string | Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  chatTemplate: string | null;
  /** Longest input in tokens, special tokens included; null: no limit. */
  maxLength: number | null;
  /** config.json, for pad / eos ids. */
  config?: Record<string, unknown>;
}

export interface EncodedRollout {
  ids: number[];
  /** Segment ids from the post-processor (pair mode on BERT-style tokenizers), else all 0. */
  typeIds: number[];
  truncated: boolean;
}

/** A special token in tokenizer_config: a string or an AddedToken object `{content: …}`. */
function tokenText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string') return (v as { content: string }).content;
  return '';
}

/** Messages as chat templates expect them (the OpenAI shape: tool calls as `{type: 'function', function: …}`). */
export function templateMessages(messages: readonly Message[]): Record<string, unknown>[] {
  return messages.map((m) => {
    const out: Record<string, unknown> = { role: m.role, content: m.content };
    if (m.toolCalls?.length) {
      out.tool_calls = m.toolCalls.map((c) => ({ ...(c.id ? { id: c.id } : {}), type: 'function', function: { name: c.name, arguments: c.arguments } }));
    }
    if (m.toolCallId) out.tool_call_id = m.toolCallId;
    if (m.name) out.name = m.name;
    return out;
  });
}

/**
 * The target lengths of a pair under tokenizers' `LongestFirst` strategy (tokenizers/src/utils/truncation.rs,
 * `truncate_encodings`), for a budget `max` of non-special tokens: the shorter sequence keeps what it can, the longer
 * gets the rest; when both are over half the budget they split it, the first getting the floor.
 */
export function longestFirst(n1: number, n2: number, max: number): [number, number] {
  if (n1 + n2 <= max) return [n1, n2];
  const swap = n1 > n2;
  let a = swap ? n2 : n1; // the shorter
  let b: number;
  if (a > max) b = a;
  else b = Math.max(a, max - a);
  if (a + b > max) {
    a = Math.floor(max / 2);
    b = a + (max % 2);
  }
  return swap ? [b, a] : [a, b];
}

type PostProcessed = { tokens: string[]; tokens_pair?: string[] | null; token_type_ids?: number[] };

export class RolloutEncoder {
  readonly tokenizer: Tokenizer;
  readonly mode: InputMode;
  readonly maxLength: number | null;
  readonly truncationSide: 'left' | 'right';
  readonly padId: number;
  private readonly template: Template | null;
  private readonly specials: Record<string, string>;
  private readonly specialCount: { single: number; pair: number };

  constructor(spec: EncoderSpec, mode: InputMode) {
    const json = typeof spec.tokenizerJson === 'string' ? (JSON.parse(spec.tokenizerJson) as Record<string, unknown>) : spec.tokenizerJson;
    this.tokenizer = new Tokenizer(json, spec.tokenizerConfig);
    if (mode === 'chat' && !spec.chatTemplate)
      throw new Error('this tokenizer has no chat template (tokenizer_config.json "chat_template"): use the text pair or the completion');
    this.mode = mode;
    this.template = mode === 'chat' ? new Template(spec.chatTemplate!) : null;
    this.maxLength = spec.maxLength;
    this.truncationSide = spec.tokenizerConfig.truncation_side === 'left' ? 'left' : 'right';
    const tc = spec.tokenizerConfig;
    this.specials = {
      bos_token: tokenText(tc.bos_token),
      eos_token: tokenText(tc.eos_token),
      unk_token: tokenText(tc.unk_token),
      pad_token: tokenText(tc.pad_token),
      sep_token: tokenText(tc.sep_token),
      cls_token: tokenText(tc.cls_token),
    };
    this.specialCount = { single: this.post([], null).tokens.length, pair: this.merged(this.post([], [])).length };
    this.padId = padTokenId(this.tokenizer, this.specials, spec.config ?? {});
  }

  /** The text the model reads, before tokenization: the cache key of the rollout's score. */
  text(t: Pick<Trajectory, 'prompt' | 'completion' | 'messages'>): string {
    if (this.mode === 'chat') {
      return this.template!.render({ messages: templateMessages(t.messages), add_generation_prompt: false, ...this.specials });
    }
    if (this.mode === 'pair') return JSON.stringify([t.prompt, t.completion]);
    return t.completion;
  }

  encode(t: Pick<Trajectory, 'prompt' | 'completion' | 'messages'>): EncodedRollout {
    const max = this.maxLength;
    if (this.mode === 'pair') {
      let a = this.tokenizer.tokenize(t.prompt);
      let b = this.tokenizer.tokenize(t.completion);
      let truncated = false;
      if (max !== null && a.length + b.length + this.specialCount.pair > max) {
        const [n1, n2] = longestFirst(a.length, b.length, Math.max(0, max - this.specialCount.pair));
        a = this.cut(a, n1);
        b = this.cut(b, n2);
        truncated = true;
      }
      return this.finish(this.post(a, b), truncated);
    }
    if (this.mode === 'chat') {
      // The template writes the special tokens itself: nothing is added (apply_chat_template's default).
      let tokens = this.tokenizer.tokenize(this.text(t));
      let truncated = false;
      if (max !== null && tokens.length > max) {
        tokens = this.cut(tokens, max);
        truncated = true;
      }
      return this.finish({ tokens }, truncated);
    }
    let tokens = this.tokenizer.tokenize(t.completion);
    let truncated = false;
    if (max !== null && tokens.length + this.specialCount.single > max) {
      tokens = this.cut(tokens, Math.max(0, max - this.specialCount.single));
      truncated = true;
    }
    return this.finish(this.post(tokens, null), truncated);
  }

  private cut(tokens: string[], n: number): string[] {
    if (tokens.length <= n) return tokens;
    return this.truncationSide === 'left' ? tokens.slice(tokens.length - n) : tokens.slice(0, n);
  }

  private post(a: string[], b: string[] | null): PostProcessed {
    const pp = this.tokenizer.post_processor as unknown as ((a: string[], b: string[] | null, add: boolean) => PostProcessed) | null;
    if (!pp) return { tokens: b ? [...a, ...b] : a };
    return pp(a, b, true);
  }

  /** tokenizers.js's ByteLevel post-processor hands the pair back unmerged (`tokens_pair`): join it as transformers does. */
  private merged(p: PostProcessed): string[] {
    return p.tokens_pair ? [...p.tokens, ...p.tokens_pair] : p.tokens;
  }

  private finish(p: PostProcessed, truncated: boolean): EncodedRollout {
    const tokens = this.merged(p);
    const ids = tokens.map((tok) => tokenId(this.tokenizer, tok));
    const typeIds = p.token_type_ids && p.token_type_ids.length === ids.length ? p.token_type_ids : new Array<number>(ids.length).fill(0);
    return { ids, typeIds, truncated };
  }
}

function tokenId(tokenizer: Tokenizer, token: string): number {
  const inner = tokenizer as unknown as {
    added_tokens_map?: Map<string, { id: number }>;
    model: { tokens_to_ids: Map<string, number>; unk_token_id?: number };
  };
  return inner.added_tokens_map?.get(token)?.id ?? inner.model.tokens_to_ids.get(token) ?? inner.model.unk_token_id ?? 0;
}

/** Padding id: config `pad_token_id`, else the tokenizer's pad token, else eos (decoder reward models), else 0. */
function padTokenId(tokenizer: Tokenizer, specials: Record<string, string>, config: Record<string, unknown>): number {
  if (typeof config.pad_token_id === 'number') return config.pad_token_id;
  for (const name of [specials.pad_token, specials.eos_token]) {
    const id = name ? tokenizer.token_to_id(name) : undefined;
    if (id !== undefined) return id;
  }
  if (typeof config.eos_token_id === 'number') return config.eos_token_id;
  return 0;
}
