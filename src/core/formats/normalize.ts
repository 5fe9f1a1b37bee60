/** Which normalizer turns a record of each format into trajectories. */
import type { Normalizer } from './build-trajectory';
import type { FormatId } from './types';
import { normalizeMapped } from './format-mapped';
import { normalizeOpenAi } from './format-openai';
import { normalizePreference, normalizeRewardBench2 } from './format-preference';
import { normalizeTrl } from './format-trl';
import { normalizeVerlDataset, normalizeVerlDump } from './format-verl';

export const NORMALIZERS: Record<FormatId, Normalizer> = {
  'trl-standard': normalizeTrl,
  'trl-conversational': normalizeTrl,
  'trl-completions': normalizeTrl,
  'openai-messages': normalizeOpenAi,
  'verl-dump': normalizeVerlDump,
  'verl-dataset': normalizeVerlDataset,
  preference: normalizePreference,
  rewardbench2: normalizeRewardBench2,
  mapped: normalizeMapped,
};
