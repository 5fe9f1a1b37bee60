/**
 * Preference records: each becomes several trajectories sharing a `pairId` (the record's `id` when it has one,
 * else its line number).
 * - `preference` (TRL preference, RewardBench v1 `{prompt, chosen, rejected, subset, id}`, TRL conversational
 *   preference with message lists, TRL implicit-prompt preference without `prompt`): two trajectories, chosen then
 *   rejected, ids `${line}:chosen` and `${line}:rejected`.
 * - `rewardbench2` (`chosen` / `rejected` are lists of strings): one trajectory per element, chosen first, ids
 *   `${line}:chosen:0`, …, `${line}:rejected:2`.
 */
import type { PreferenceSide, Trajectory } from '../trajectory';
import type { Normalizer } from './build-trajectory';
import { buildTrajectory } from './build-trajectory';
import { fromMessages, fromPromptCompletion, type Conversation } from './conversation';
import { parseMessages } from './messages';
import { expected, missing } from './record-error';

const SIDES: readonly PreferenceSide[] = ['chosen', 'rejected'];

export const normalizePreference: Normalizer = (record, { line }) => {
  const pairId = pairIdOf(record, line);
  const out: Trajectory[] = [];
  for (const side of SIDES) {
    const value = record[side];
    if (value === undefined) throw missing(side);
    const conv: Conversation =
      record.prompt === undefined ? fromMessages(parseMessages(value, side), side) : fromPromptCompletion(record.prompt, value, 'prompt', side);
    out.push(buildTrajectory(conv, record, line, { id: `${line}:${side}`, pairId, preference: side }));
  }
  return out;
};

export const normalizeRewardBench2: Normalizer = (record, { line }) => {
  if (record.prompt === undefined) throw missing('prompt');
  const pairId = pairIdOf(record, line);
  const out: Trajectory[] = [];
  for (const side of SIDES) {
    const list = record[side];
    if (list === undefined) throw missing(side);
    if (!Array.isArray(list)) throw expected(side, 'a list of completions', list);
    for (let i = 0; i < list.length; i++) {
      const conv = fromPromptCompletion(record.prompt, list[i], 'prompt', `${side}.${i}`);
      out.push(buildTrajectory(conv, record, line, { id: `${line}:${side}:${i}`, pairId, preference: side }));
    }
  }
  return out;
};

function pairIdOf(record: Record<string, unknown>, line: number): string {
  const id = record.id;
  if (typeof id === 'string' && id !== '') return id;
  if ((typeof id === 'number' && Number.isFinite(id)) || typeof id === 'bigint') return String(id);
  return String(line);
}
