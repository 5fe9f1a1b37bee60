/**
 * `score --shape`: the shaped reward and what the JSON and the report add with it. The rows are read here once more
 * (the workers hold theirs) only when the transforms need what the run's meta lacks: token counts, reference columns.
 */
import { labelValue } from '../core/dataset/meta';
import { loadData } from './dataFiles';
import { RowStatus } from '../core/reward/contract';
import { shapingSide, shapingTruncation, type ShapingSide } from '../core/shaping/compare';
import { applyShaping, type StepColumn } from '../core/shaping/shape';
import { shapeLabel, shapeNeeds, type LengthUnit, type ShapeSpec } from '../core/shaping/spec';
import { diagnose, type Diagnostics } from '../core/stats/diagnose';
import type { DatasetMeta } from '../core/dataset/meta';
import { fieldOf, type Trajectory } from '../core/trajectory';
import { loadTokenCounterNode } from '../engine/nodeTokenizer';
import type { ScoreOptions } from './args';

export interface Shaped {
  scores: Float64Array;
  /** Added to --json: `raw` (the unshaped reward, length, collapse) and `shaping`. */
  json: Record<string, unknown>;
  /** Lines for the human report. */
  text: string;
}

export type ShapeOutcome = { ok: true; shaped: Shaped } | { ok: false; message: string; status: 1 | 2 };

const num = (x: number) => (Number.isFinite(x) ? x : null);

/** Whether shaping with `shapes` reads the rows themselves (token counts, a `par` reference column), not only the run's meta. */
export function shapeReadsRows(shapes: readonly ShapeSpec[]): boolean {
  const needs = shapeNeeds(shapes);
  return needs.tokens || needs.columns.length > 0;
}

/**
 * `read`: the rows --model already read in this process, when it did (the same import of the same file): not read a
 * second time.
 */
export async function shapeRun(
  o: ScoreOptions,
  meta: DatasetMeta,
  scores: Float64Array,
  status: Uint8Array,
  steps: StepColumn | null,
  read: Trajectory[] | null = null,
): Promise<ShapeOutcome> {
  const needs = shapeNeeds(o.shapes);
  // The run's meta has lengths in characters and what each row's fields say of truncation; the rows are read again
  // only for token counts or a `par` reference column.
  let rows: Trajectory[] = read ?? [];
  if (shapeReadsRows(o.shapes)) {
    if (read === null) {
      try {
        rows = (await loadData(o)).rows;
      } catch (e) {
        return { ok: false, status: 1, message: `cannot read the data file ${o.dataPath}: ${e instanceof Error ? e.message : String(e)}` };
      }
    }
    if (rows.length !== meta.rows)
      return { ok: false, status: 1, message: `--shape: the data file changed during the run (${rows.length} rows, ${meta.rows} scored)` };
  }
  const lengths: Partial<Record<LengthUnit, Float64Array>> = { chars: meta.lengths };
  if (needs.tokens) {
    try {
      const count = loadTokenCounterNode(o.tokenizer);
      lengths.tokens = Float64Array.from(rows, (t) => count(t.completion));
    } catch (e) {
      return { ok: false, status: 1, message: `--shape: token counts failed: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const columns: Record<string, Float64Array> = {};
  for (const c of needs.columns) {
    if (!rows.some((t) => Object.hasOwn(t.fields, c)))
      return { ok: false, status: 2, message: `--shape: par: no row has a column "${c}" (columns: ${meta.detection.columns.join(', ')})` };
    columns[c] = Float64Array.from(rows, (t) => labelValue(fieldOf(t.fields, c)));
  }
  if (needs.steps && !steps) {
    return {
      ok: false,
      status: 2,
      message: '--shape: step-sum needs step rewards: no row returned `steps` (TypeScript `{ score, steps: [...] }`; a single --reward)',
    };
  }
  const groupCount = meta.groupKeys.length;
  const raw = Float64Array.from(scores, (x, i) => (status[i] === RowStatus.Ok ? x : NaN));
  const shaped = applyShaping(raw, o.shapes, { groupOf: meta.groupOf, groupCount, lengths, columns, steps });
  const cut = shapingTruncation(meta.truncated, lengths, o.shapes);
  const side = { groupOf: meta.groupOf, groupCount, lengths: meta.lengths, preset: o.preset, truncated: cut.truncated };
  const sides = { raw: shapingSide(raw, side), shaped: shapingSide(shaped, side) };
  const rawDiag = diagnose({ scores, status, groupOf: meta.groupOf, groupCount, lengths: meta.lengths, preset: o.preset });
  const transforms = o.shapes.map(shapeLabel);
  return {
    ok: true,
    shaped: {
      scores: shaped,
      json: { raw: rawJson(rawDiag), shaping: { transforms, truncation: cut.source, raw: sideJson(sides.raw), shaped: sideJson(sides.shaped) } },
      text: shapingText(transforms, cut.source, sides.raw, sides.shaped),
    },
  };
}

function rawJson(d: Diagnostics) {
  return {
    reward: { mean: num(d.reward.mean), std: num(d.reward.std), min: num(d.reward.min), max: num(d.reward.max), distinct: d.reward.distinct },
    length: { pearson: num(d.length.pearson), spearman: num(d.length.spearman), withinGroupPearson: num(d.length.withinGroupPearson) },
    collapse: {
      zeroStdGroupFraction: num(d.collapse.zeroStdGroupFraction),
      nearZeroStdGroupFraction: num(d.collapse.nearZeroStdGroupFraction),
      zeroAdvantageRolloutFraction: num(d.collapse.zeroAdvantageRolloutFraction),
    },
  };
}

function sideJson(s: ShapingSide) {
  const c = s.collapse;
  return {
    zeroStd: {
      fraction: num(c.zeroStdGroupFraction),
      allMax: num(c.allMaxFraction),
      allMin: num(c.allMinFraction),
      truncated: num(c.truncatedZeroStdFraction),
      other: num(c.otherZeroStdFraction),
    },
    lowStd: { floor: num(s.lowStd.floor), fraction: num(s.lowStd.fraction), maxAbsAdvantage: num(s.lowStd.maxAbsAdvantage) },
  };
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');
const fix = (x: number) => (Number.isFinite(x) ? x.toPrecision(4) : '—');

function shapingText(transforms: string[], truncation: string, raw: ShapingSide, shaped: ShapingSide): string {
  const row = (label: string, f: (s: ShapingSide) => string) => `  ${label.padEnd(34)} ${f(raw).padStart(10)} ${f(shaped).padStart(10)}`;
  return [
    `Shaping: ${transforms.join(' → ')}`,
    `  ${''.padEnd(34)} ${'raw'.padStart(10)} ${'shaped'.padStart(10)}`,
    row('mean', (s) => fix(s.reward.mean)),
    row('std', (s) => fix(s.reward.std)),
    row('Pearson with length', (s) => fix(s.length.pearson)),
    row('zero-std groups', (s) => pct(s.collapse.zeroStdGroupFraction)),
    row(`  of which truncated (${truncation})`, (s) => pct(s.collapse.truncatedZeroStdFraction)),
    row('low-std groups (0 < std < floor)', (s) => pct(s.lowStd.fraction)),
    row('  largest |advantage| there', (s) => fix(s.lowStd.maxAbsAdvantage)),
  ].join('\n');
}

/** The run's status with rows the shaping left without a value (par without a reference) marked null. */
export function shapedStatus(status: Uint8Array, shaped: Float64Array): Uint8Array {
  const out = status.slice();
  for (let i = 0; i < out.length; i++) if (out[i] === RowStatus.Ok && !Number.isFinite(shaped[i])) out[i] = RowStatus.Null;
  return out;
}
