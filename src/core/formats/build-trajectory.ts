/** Assemble one Trajectory from a conversation and its source record (shared by every format normalizer). */
import type { PreferenceSide, Trajectory } from '../trajectory';
import type { ColumnMapping } from './types';
import type { Conversation } from './conversation';
import { groupKeyOf } from './group-key';
import { groundTruthOf, stepOf } from './record-fields';

/** What a format normalizer gets besides the record. */
export interface NormalizeContext {
  /** 1-based source line (JSONL/CSV) or row (JSON array/Parquet). */
  line: number;
  /** The user's column mapping (format `mapped`). */
  mapping?: ColumnMapping;
}

/**
 * Turns one source record into trajectories (one, or several for preference data). Throws `RecordError` when the
 * record does not fit; `index` is left at -1 for the caller to number densely.
 */
export type Normalizer = (record: Record<string, unknown>, ctx: NormalizeContext) => Trajectory[];

export interface BuildOptions {
  /** Defaults to the line number as a string. */
  id?: string;
  pairId?: string;
  preference?: PreferenceSide;
  /** Column overrides from a user's mapping. */
  groupColumn?: string;
  groundTruthColumn?: string;
  stepColumn?: string;
}

export function buildTrajectory(conv: Conversation, record: Record<string, unknown>, line: number, opts: BuildOptions = {}): Trajectory {
  const t: Trajectory = {
    id: opts.id ?? String(line),
    index: -1,
    line,
    group: groupKeyOf(record, conv.promptKey, opts.groupColumn),
    prompt: conv.prompt,
    completion: conv.completion,
    messages: conv.messages,
    fields: record,
  };
  const groundTruth = groundTruthOf(record, opts.groundTruthColumn);
  if (groundTruth !== undefined) t.groundTruth = groundTruth;
  const step = stepOf(record, opts.stepColumn);
  if (step !== undefined) t.step = step;
  if (opts.pairId !== undefined) t.pairId = opts.pairId;
  if (opts.preference !== undefined) t.preference = opts.preference;
  return t;
}
