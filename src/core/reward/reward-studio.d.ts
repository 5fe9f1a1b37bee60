// Type declarations offered to reward code in the editor as the module 'reward-studio'.
// A copy of src/core/trajectory.ts, context.ts and contract.ts: reward-studio-dts.test.ts fails the type-check when they differ.
declare module 'reward-studio' {
  /** One tool call made by an assistant turn. */
  export interface ToolCall {
    id?: string;
    /** Function name. */
    name: string;
    /** Parsed arguments (object), or the raw string when it is not valid JSON. */
    arguments: unknown;
  }
  /** One turn of the conversation. */
  export interface Message {
    /** "system" | "user" | "assistant" | "tool" | … */
    role: string;
    content: string;
    toolCalls?: ToolCall[];
    /** For role "tool": the id of the call being answered. */
    toolCallId?: string;
    name?: string;
  }
  /** One rollout, normalized from whatever file it came from. */
  export interface Trajectory {
    /** Stable id within the dataset. */
    id: string;
    /** Position in the dataset (0-based). */
    index: number;
    /** 1-based line or row in the source file. */
    line: number;
    /** GRPO group key. */
    group: string;
    /** Prompt as text. */
    prompt: string;
    /** Final response text. */
    completion: string;
    /** Full conversation, tool calls and tool replies included. */
    messages: Message[];
    /** Reference answer (`ground_truth`, verl `gts`, …) when the data has one. */
    groundTruth?: string;
    step?: number;
    /** Preference data: both rollouts of a pair share this id. */
    pairId?: string;
    preference?: 'chosen' | 'rejected';
    /** Every original field of the row, untouched. */
    fields: Record<string, unknown>;
  }
  /** What a reward may return besides a plain number. */
  export interface RewardResult {
    score: number;
    /** Named parts of the score, charted separately; a string value (e.g. the parsed answer) is a text column. */
    components?: Record<string, number | string>;
    /** Step (process) rewards, in order: the Shaping tab's step-clip / step-delta / step-sum read them (at most 4096). */
    steps?: number[];
    note?: string;
  }
  /** Helpers and context passed as the second argument. */
  export interface RewardContext {
    /** Index of the rollout in the dataset. */
    readonly index: number;
    /** The first number after the LAST occurrence of `marker` (default "A:"), as written (e.g. "1,000"); null if none. */
    numberAfter(text: string, marker?: string): string | null;
    /** "1,000" → 1000, "1/2" → 0.5, "$5" → 5, "50%" → 50; null when not a number. */
    parseNumber(text: string | number | null | undefined): number | null;
    /** Numeric equality with tolerance: "1,000" equals "1000.0", "1/2" equals "0.5". */
    numbersEqual(a: string | number | null | undefined, b: string | number | null | undefined, tol?: { relTol?: number; absTol?: number }): boolean;
    /** Content of the LAST `\boxed{…}` with nested braces balanced (`\boxed{\frac{1}{2}}` → `\frac{1}{2}`); null if none. */
    lastBoxed(text: string): string | null;
    /** Content of the last complete `<tag>…</tag>` (e.g. "answer", "think"); null if none. */
    extractTag(text: string, tag: string): string | null;
    /** Every complete `<tag>…</tag>`, in order. */
    extractTag(text: string, tag: string, opts: { all: true }): string[];
    /** Levenshtein edit distance. */
    editDistance(a: string, b: string): number;
    /** Similarity in [0, 1]: 1 − editDistance / max(length). */
    similarity(a: string, b: string): number;
    /**
     * Number of tokens of `text` with the tokenizer picked in the studio's Tokenizer menu (GPT-2, Qwen3 or Llama-3),
     * no special tokens added. E.g. `ctx.tokenCount("Hello world")` → 2.
     */
    tokenCount(text: string): number;
    /**
     * Each loaded reward model's score for this rollout (the raw logit of the label picked for it), by the name shown
     * under "Reward models": `0.5 * ctx.models.tiny_reward + (correct ? 1 : 0)`. A rollout the model has no score
     * for, or an unknown name, fails that row with the reason.
     *
     * With two or more models loaded, `ctx.models.ensemble` is their mean, min and population std (disagreement) for
     * the row (a model is never named `ensemble`): Coste et al. 2023's conservative rewards are `e.mean`, `e.min`
     * and `e.mean - 0.5 * e.std`. The row fails when any model has no score for it.
     */
    readonly models: Readonly<Record<string, number>> & { readonly ensemble: EnsembleScores };
  }

  /** `ctx.models.ensemble`: the loaded reward models' scores for the row combined. */
  export interface EnsembleScores {
    /** Mean over the models. */
    readonly mean: number;
    /** The lowest model score (worst-case optimisation). */
    readonly min: number;
    /** Population standard deviation across the models (ddof 0): how much they disagree. */
    readonly std: number;
  }
}
