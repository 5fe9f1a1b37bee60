import { Tokenizer } from '@huggingface/tokenizers';

/**
 * Token ids of a text, as TRL's `completion_ids` for a reward (issue 22): the library's encode without special
 * tokens, the same tokenizer and the same count as `ctx.tokenCount` (docs/completion-ids.md says why).
 */
export type TokenEncoder = (text: string) => number[];

/** An encoder from the parsed `tokenizer.json` and `tokenizer_config.json` (tokenizers.js, Hugging Face's own port). */
export function makeTokenEncoder(tokenizerJson: object, tokenizerConfig: object): TokenEncoder {
  const tok = new Tokenizer(tokenizerJson, tokenizerConfig);
  return (text: string) => (text.length === 0 ? [] : tok.encode(text, { add_special_tokens: false }).ids);
}
