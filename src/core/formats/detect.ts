/**
 * Pick the record format from a sample of parsed records (the first ~50). Each record is classified by the rules
 * below (first match wins); the format most records agree on is chosen (ties: the one seen first).
 *
 * 1. `messages` is a list                                  → openai-messages
 * 2. `chosen` and `rejected` (with or without `prompt`):
 *    both lists of strings and a `prompt`                  → rewardbench2, else → preference
 * 3. `input` and `output`                                  → verl-dump
 * 4. `prompt`, `completion` and `advantage`                → trl-completions
 * 5. `prompt` and `completion`: either a message list      → trl-conversational, else → trl-standard
 * 6. `prompt` is a message list, no completion, and `reward_model` or `data_source` → verl-dataset
 * 7. otherwise                                             → mapped (the user maps the columns)
 */
import type { FormatId } from './types';
import { isMessageList } from './messages';

export interface FormatGuess {
  format: FormatId;
  reason: string;
}

export function detectFormat(sample: Record<string, unknown>[]): FormatGuess {
  if (sample.length === 0) return { format: 'mapped', reason: 'no records to inspect' };
  const counts = new Map<FormatId, { n: number; reason: string }>();
  for (const record of sample) {
    const guess = classify(record);
    const seen = counts.get(guess.format);
    if (seen) seen.n++;
    else counts.set(guess.format, { n: 1, reason: guess.reason });
  }
  let best: FormatId = 'mapped';
  let bestN = 0;
  for (const [format, { n }] of counts) {
    if (n > bestN) {
      best = format;
      bestN = n;
    }
  }
  const reason = counts.get(best)!.reason;
  return {
    format: best,
    reason: bestN === sample.length ? reason : `${reason} (${bestN} of ${sample.length} sampled records)`,
  };
}

function classify(r: Record<string, unknown>): FormatGuess {
  if (Array.isArray(r.messages)) return { format: 'openai-messages', reason: 'has a "messages" list' };
  if (r.chosen !== undefined && r.rejected !== undefined) {
    if (r.prompt !== undefined && isStringList(r.chosen) && isStringList(r.rejected)) {
      return { format: 'rewardbench2', reason: 'has prompt with lists of chosen/rejected completions' };
    }
    return { format: 'preference', reason: 'has chosen/rejected' };
  }
  if (r.input !== undefined && r.output !== undefined) return { format: 'verl-dump', reason: 'has input/output' };
  if (r.prompt !== undefined && r.completion !== undefined) {
    if (r.advantage !== undefined) return { format: 'trl-completions', reason: 'has prompt/completion/advantage' };
    if (isMessageList(r.prompt) || isMessageList(r.completion)) {
      return { format: 'trl-conversational', reason: 'has prompt/completion as message lists' };
    }
    return { format: 'trl-standard', reason: 'has prompt/completion' };
  }
  if (isMessageList(r.prompt) && (r.reward_model !== undefined || r.data_source !== undefined)) {
    return { format: 'verl-dataset', reason: 'has a prompt message list and reward_model/data_source, no completion' };
  }
  return { format: 'mapped', reason: 'no known column set' };
}

function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const v of value) if (typeof v !== 'string') return false;
  return true;
}
