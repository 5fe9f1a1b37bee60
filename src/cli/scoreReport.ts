/**
 * `score`'s output from its columns: the one function `score` and `merge` both call, so a merged report is the report
 * of scoring everything at once.
 */
import { summarizeRun } from '../core/reward/summary';
import { summarizeFunctions, type WeightedFunction } from '../core/reward/weighted';
import type { PresetId } from '../core/stats/advantage';
import { diagnose } from '../core/stats/diagnose';
import { groupByStats } from '../core/stats/groupBy';
import { scoredValues } from '../core/stats/scored';
import { truncatedRows } from '../core/stats/truncation';
import { stepsJson, type StepsJson } from '../core/steps/json';
import { errorsOf, type ScoreColumns } from './columns';
import { diagnosticsJson, humanReport, type GroupByReport, type HumanReportInput } from './report';

export interface ReportOptions {
  preset: PresetId;
  label: string | null;
  groupBy: string | null;
  /** --by-step, and --max-length for rows whose fields say nothing of truncation. */
  byStep: boolean;
  maxLength: number | null;
  /** Several reward functions (names and weights, in the order of the columns' `functions`). */
  functions?: WeightedFunction[];
  json: boolean;
  /** --shape: keys added last to the JSON (`raw`, `shaping`) and lines after the human report. */
  extra?: { json: Record<string, unknown>; text: string };
  /** What only the human report shows: the files, the run's time, the file's skipped lines. */
  human: Omit<HumanReportInput, 'preset' | 'label' | 'groupBy' | 'meta' | 'summary' | 'diagnostics' | 'errors' | 'functions'> & {
    container: string;
    gzip: boolean;
    skipped: number;
  };
}

/** The JSON object (one line) or the human report of the columns' rows. */
export function scoreReport(c: ScoreColumns, o: ReportOptions): string {
  const { rows } = c;
  const diagnostics = diagnose({
    scores: rows.score,
    status: rows.status,
    groupOf: rows.group,
    groupCount: c.groupKeys.length,
    lengths: rows.length,
    labels: rows.label,
    preset: o.preset,
  });
  const errors = errorsOf(c);
  const summaries = o.functions
    ? summarizeFunctions(o.functions, Object.fromEntries(o.functions.map((f, k) => [f.name, c.functions[k]])), errors.values())
    : undefined;
  let grouped: GroupByReport | null = null;
  if (o.groupBy !== null && rows.groupBy && c.groupByValues) {
    // Values of the file that none of these rows has (another shard's) are left out; a whole run has none.
    const values = groupByStats(rows.score, rows.status, rows.groupBy, c.groupByValues).filter((g) => g.rows > 0);
    grouped = { column: o.groupBy, values };
  }
  let byStep: StepsJson | null = null;
  if (o.byStep && rows.step && rows.truncated) {
    byStep = stepsJson({
      scores: scoredValues(rows.score, rows.status),
      groupOf: rows.group,
      groupCount: c.groupKeys.length,
      steps: rows.step,
      lengths: rows.length,
      labels: rows.label,
      truncated: truncatedRows(rows.truncated, rows.length, o.maxLength),
      components: Object.fromEntries(c.components.map((x) => [x.name, x.values])),
      preset: o.preset,
    });
  }
  if (o.json) return diagnosticsJson(diagnostics, summaries, grouped, byStep, o.extra?.json);
  const { container, gzip, skipped, ...human } = o.human;
  const report = humanReport({
    ...human,
    preset: o.preset,
    label: o.label,
    groupBy: grouped,
    meta: { rows: rows.index.length, skipped, detection: { container, gzip } },
    summary: summarizeRun(rows.score, rows.status),
    diagnostics,
    errors,
    functions: summaries,
    byStep,
  });
  return o.extra ? `${report}\n${o.extra.text}` : report;
}
