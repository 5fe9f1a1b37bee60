/** What the CLI prints and writes: the JSON diagnostics, the human report, the `--out` lines. Pure formatting. */
import type { Diagnostics } from '../core/stats/diagnose';
import { errorText, type RowError } from '../core/reward/runRows';
import type { RunSummary } from '../core/reward/summary';
import type { FunctionSummary } from '../core/reward/weighted';
import type { ParseIssue } from '../core/trajectory';
import type { DatasetMeta } from '../core/dataset/meta';
import type { GroupByValue } from '../core/stats/groupBy';
import type { StepsJson } from '../core/steps/json';

/** `--group-by`: the column and the reward per value. */
export interface GroupByReport {
  column: string;
  values: GroupByValue[];
}

/**
 * The diagnostics as one line of JSON, with the binding key order; NaN and ±Infinity become null. With several reward
 * functions, `functions: [{name, weight, mean, std, errors}]` follows `reward` (their weighted total). `groupBy` is
 * added last, only when asked for: the JSON without --group-by is what it always was.
 */
export function diagnosticsJson(
  d: Diagnostics,
  functions?: FunctionSummary[],
  groupBy: GroupByReport | null = null,
  byStep: StepsJson | null = null,
  /** Keys added last (--shape: `raw` and `shaping`, src/cli/shaping.ts). */
  extra: Record<string, unknown> = {},
): string {
  const num = (x: number | null) => (x === null || !Number.isFinite(x) ? null : x);
  const out = {
    rows: d.rows,
    groups: d.groups,
    errors: d.errors,
    nulls: d.nulls,
    reward: { mean: num(d.reward.mean), std: num(d.reward.std), min: num(d.reward.min), max: num(d.reward.max), distinct: d.reward.distinct },
    ...(functions ? { functions: functions.map((f) => ({ name: f.name, weight: f.weight, mean: num(f.mean), std: num(f.std), errors: f.errors })) } : {}),
    length: { pearson: num(d.length.pearson), spearman: num(d.length.spearman), withinGroupPearson: num(d.length.withinGroupPearson) },
    collapse: {
      zeroStdGroupFraction: num(d.collapse.zeroStdGroupFraction),
      nearZeroStdGroupFraction: num(d.collapse.nearZeroStdGroupFraction),
      zeroAdvantageRolloutFraction: num(d.collapse.zeroAdvantageRolloutFraction),
    },
    label: d.label === null ? null : { agreement: num(d.label.agreement) },
  };
  // --group-by, --by-step and --shape add their keys last, so the JSON without them is what it always was.
  const values = groupBy?.values.map((g) => ({ value: g.value, rows: g.rows, mean: num(g.mean), std: num(g.std) }));
  return JSON.stringify({
    ...out,
    ...(groupBy && values ? { groupBy: { column: groupBy.column, values } } : {}),
    ...(byStep ? { steps: byStep.steps, divergence: byStep.divergence } : {}),
    ...extra,
  });
}

/**
 * One `--out` line per rollout: {index, group, reward, advantage, length, error}, then `strings` ({name: text or
 * null}) when the run has text columns (a dict result's strings, e.g. verl's `pred`). `group` is the group's label
 * (dataset/groupLabels: the file's own group value, or "p-…" for prompt-text groups), as the studio shows it.
 */
export function* outLines(
  meta: DatasetMeta,
  scores: Float64Array,
  advantages: Float64Array,
  errors: Map<number, RowError>,
  labels: readonly string[] = meta.groupKeys,
  strings?: Readonly<Record<string, readonly (string | null)[]>>,
  /** --shard: the dataset row of each line (default: the line's own position). */
  index?: ArrayLike<number>,
): Generator<string> {
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  const texts = strings && Object.keys(strings).length > 0 ? Object.entries(strings) : null;
  for (let i = 0; i < meta.rows; i++) {
    const e = errors.get(i);
    const line: Record<string, unknown> = {
      index: index ? index[i] : i,
      group: labels[meta.groupOf[i]],
      reward: finite(scores[i]),
      advantage: finite(advantages[i]),
      length: meta.lengths[i],
      error: e ? errorText(e) : null,
    };
    if (texts) {
      // No prototype: a column named __proto__ stays a key.
      const row = Object.create(null) as Record<string, string | null>;
      for (const [k, col] of texts) row[k] = col[i];
      line.strings = row;
    }
    yield JSON.stringify(line);
  }
}

/** Malformed lines (or rows) of the input, for stderr: the count and the first `max`. */
export function issuesText(issues: ParseIssue[], container: string, max = 10): string {
  const unit = container === 'jsonl' || container === 'csv' ? 'line' : 'row';
  const n = issues.length;
  const head = `skipped ${n} malformed ${unit}${n === 1 ? '' : 's'} (the rest was scored):`;
  const lines = issues.slice(0, max).map((i) => `  ${i.file === undefined ? '' : `${i.file} `}${unit} ${i.line}: ${i.reason}`);
  if (n > max) lines.push(`  … and ${n - max} more`);
  return [head, ...lines].join('\n');
}

function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || Number.isNaN(x)) return 'n/a';
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(digits)));
}
function pct(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  return `${(x * 100).toFixed(1)}%`;
}

export interface HumanReportInput {
  file: string;
  reward: string;
  preset: string;
  label: string | null;
  groupBy?: GroupByReport | null;
  /** The rows reported, the input's skipped lines (or rows), and its container. */
  meta: { rows: number; skipped: number; detection: { container: string; gzip: boolean } };
  formatLabel: string;
  summary: RunSummary;
  diagnostics: Diagnostics;
  errors: Map<number, RowError>;
  elapsedMs: number;
  workersUsed: number;
  poolSize: number;
  out: string | null;
  /** Several reward functions: each one's weight and TRL's statistics. */
  functions?: FunctionSummary[];
  /** --by-step: the per-step figures. */
  byStep?: StepsJson | null;
}

/** The --by-step table: one line per step, and the divergence flag in words. */
export function stepsTable(b: StepsJson): string[] {
  const head = ['step', 'rows', 'groups', 'mean', 'std', 'zero std', '(cut)', 'len mean', 'len p95', 'truncated', 'label mean', 'agreement'];
  const rows = b.steps.map((s) => [
    fmt(s.step),
    String(s.rows),
    String(s.groups),
    fmt(s.reward.mean),
    fmt(s.reward.std),
    pct(s.collapse.zeroStdGroupFraction),
    pct(s.collapse.truncatedZeroStdFraction),
    fmt(s.length.mean),
    fmt(s.length.p95),
    pct(s.truncated),
    s.label ? fmt(s.label.accuracy) : 'n/a',
    s.label ? pct(s.label.agreement) : 'n/a',
  ]);
  const width = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const line = (cells: string[]) => '              ' + cells.map((c, k) => c.padStart(width[k])).join('  ');
  const out = [`by step     ${b.steps.length} steps (std: population; zero std = groups with equal rewards, (cut) = of them every rollout truncated)`];
  out.push(line(head), ...rows.map(line));
  out.push(
    b.divergence
      ? `divergence  at step ${b.divergence.step} (from step ${b.divergence.from}): ${b.divergence.rule}`
      : 'divergence  none (the reward never rose while the label fell 3 step-to-step changes in a row)',
  );
  return out;
}

/** The short report printed without --json. */
export function humanReport(r: HumanReportInput): string {
  const d = r.diagnostics;
  const { meta, summary } = r;
  const unit = meta.detection.container === 'jsonl' || meta.detection.container === 'csv' ? 'lines' : 'rows';
  const lines: string[] = [];
  lines.push(`${r.file}: ${meta.detection.container.toUpperCase()}${meta.detection.gzip ? ' (gzip)' : ''}, ${r.formatLabel}`);
  lines.push(`reward ${r.reward}, preset ${r.preset}`);
  lines.push('');
  lines.push(`rows        ${d.rows} in ${d.groups} groups (skipped ${unit}: ${meta.skipped})`);
  lines.push(`scored      ${summary.ok}   nulls ${summary.nulls}   errors ${summary.errors}   timed out ${summary.timedOut}`);
  if (r.errors.size > 0) {
    const first = [...r.errors.values()].sort((a, b) => a.row - b.row).slice(0, 5);
    for (const e of first) lines.push(`              row ${e.row}: ${errorText(e)}`);
    if (r.errors.size > first.length) lines.push(`              … and ${r.errors.size - first.length} more`);
  }
  lines.push(
    `reward      mean ${fmt(d.reward.mean)}   std ${fmt(d.reward.std)}   min ${fmt(d.reward.min)}   max ${fmt(d.reward.max)}   distinct ${d.reward.distinct}`,
  );
  for (const f of r.functions ?? []) {
    lines.push(`  ${f.name} × ${fmt(f.weight)}   mean ${fmt(f.mean)}   std ${fmt(f.std)}   errors ${f.errors}`);
  }
  lines.push(
    `length      reward vs completion length (chars): pearson ${fmt(d.length.pearson, 3)}   spearman ${fmt(d.length.spearman, 3)}   within groups ${fmt(d.length.withinGroupPearson, 3)}`,
  );
  lines.push(
    `collapse    groups with zero reward std ${pct(d.collapse.zeroStdGroupFraction)}   near-zero std ${pct(d.collapse.nearZeroStdGroupFraction)}   rollouts with zero advantage ${pct(d.collapse.zeroAdvantageRolloutFraction)}`,
  );
  if (r.label !== null) {
    const agreement = d.label?.agreement ?? null;
    lines.push(
      `label       agreement with ${r.label}: ${agreement === null ? 'n/a (agreement needs rows whose reward and label are both 0 or 1)' : pct(agreement)}`,
    );
  }
  if (r.groupBy) {
    lines.push(`group by    ${r.groupBy.column} (std: population)`);
    const width = Math.min(40, Math.max(5, ...r.groupBy.values.map((g) => g.value.length)));
    lines.push(`              ${'value'.padEnd(width)}  ${'rows'.padStart(7)}  ${'mean'.padStart(8)}  ${'std'.padStart(8)}`);
    for (const g of r.groupBy.values) {
      const v = g.value.length > width ? `${g.value.slice(0, width - 1)}…` : g.value.padEnd(width);
      lines.push(`              ${v}  ${String(g.rows).padStart(7)}  ${fmt(g.mean).padStart(8)}  ${fmt(g.std).padStart(8)}`);
    }
  }
  if (r.byStep) lines.push(...stepsTable(r.byStep));
  lines.push(`time        ${(r.elapsedMs / 1000).toFixed(2)} s, ${r.workersUsed} worker thread${r.workersUsed === 1 ? '' : 's'} (of up to ${r.poolSize})`);
  if (r.out) lines.push(`wrote       ${r.out} (${meta.rows} lines)`);
  return lines.join('\n');
}
