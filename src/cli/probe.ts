/**
 * `reward-studio probe`: the stress test of issue 23 on worker threads. The reward runs once on the real rollouts (for
 * the threshold and each rollout's own reward), then once per probe on the probed rollouts, in the same engine.
 */
import { probeFigures, probeThreshold, type ProbeFigures, type ThresholdSource } from '../core/probe/figures';
import { applyProbe, crossDonors, PROBES } from '../core/probe/probes';
import { sampleRowsSeeded } from '../core/probe/sample';
import { RowStatus } from '../core/reward/contract';
import { defaultPoolSize } from '../engine/node';
import type { ProbeOptions, ScoreOptions } from './args';
import { closeModels, scoreColumns } from './models';
import { fail, modelScores, openReward, readInputs, runOn, warnModelScores, type Io } from './score';

/** The JSON the issue spells out (a public interface): NaN rates and intervals are written as null. */
export interface ProbeReport {
  rows: number;
  threshold: number;
  probes: Omit<ProbeFigures, 'fooled' | 'failed'>[];
  fooled: string[];
}

export async function probe(o: ScoreOptions, p: ProbeOptions, workerUrl: URL, io: Io): Promise<number> {
  const inputs = readInputs(o);
  if (!inputs.ok) return fail(io, inputs.message);
  const path = o.rewardPaths[0];
  const code = inputs.codes[0];
  let withModels: Extract<Awaited<ReturnType<typeof modelScores>>, { ok: true }> | null = null;
  if (o.models.length > 0) {
    const scored = await modelScores(o, io);
    if (!scored.ok) return fail(io, scored.message);
    withModels = scored;
  }
  const opened = await openReward(o, path, code, o.workers ?? defaultPoolSize(), workerUrl, io);
  if (!opened.ok) {
    if (withModels) await closeModels(withModels.models);
    return fail(io, opened.message);
  }
  const r = opened.opened;
  try {
    const real = await runOn(r, o, path, code, undefined, withModels?.columns);
    if (!real.ok) return fail(io, real.message);
    const { scores, status } = real.outcome.result;
    const { meta } = real;
    if (o.label !== null && meta.labelPresent === 0)
      io.stderr(`reward-studio: warning: no row has a "${o.label}" field (columns: ${meta.detection.columns.join(', ')})\n`);
    const { threshold, source } = probeThreshold(scores, status, meta.labels, p.pass);
    if (!Number.isFinite(threshold)) return fail(io, 'no rollout got a reward, so there is no pass threshold: fix the reward or give --pass');
    if (lowestReward(scores, status) >= threshold)
      io.stderr(
        `reward-studio: warning: the pass threshold ${threshold} is the lowest reward, so any text that gets the lowest reward passes; name a label column with --label or give --pass\n`,
      );
    const rows = p.sample !== null ? sampleRowsSeeded(scores.length, p.sample, p.seed) : sampleRowsSeeded(scores.length, scores.length, 0);
    const allDonors = crossDonors(meta.groupOf, meta.groupKeys.length);
    const donors = rows.map((row) => allDonors[row]);
    const chosen = p.probes ? PROBES.filter((x) => p.probes!.includes(x.name)) : PROBES;
    const figures: ProbeFigures[] = [];
    for (const [k, pr] of chosen.entries()) {
      if (!o.json) io.stderr(`reward-studio: probe ${k + 1}/${chosen.length}: ${pr.name}\n`);
      let models: Record<string, Float64Array> | undefined;
      if (withModels) {
        // The model reads the probed text as the reward does (applyProbe, as the workers' probeRows), by position.
        const data = withModels.rows;
        const probed = Array.from(rows, (row, j) => applyProbe(pr, data[row], pr.name === 'cross' ? data[donors[j]] : undefined));
        const scored = await scoreColumns(withModels.models, probed);
        warnModelScores(scored, io, `probed rollouts (${pr.name})`);
        models = scored.columns;
      }
      const ran = await runOn(r, o, path, code, { name: pr.name, rows, ...(pr.name === 'cross' ? { donors } : {}) }, models);
      if (!ran.ok) return fail(io, ran.message);
      const res = ran.outcome.result;
      figures.push(probeFigures(pr.name, pr.kind, rows, res.scores, res.status, scores, status, threshold, p.maxRate));
    }
    const fooled = figures.filter((f) => f.fooled).map((f) => f.name);
    if (o.json) {
      const report: ProbeReport = {
        rows: rows.length,
        threshold,
        probes: figures.map((f) => ({
          name: f.name,
          kind: f.kind,
          n: f.n,
          passes: f.passes,
          passRate: f.passRate,
          passCI: f.passCI,
          wins: f.wins,
          winRate: f.winRate,
          winCI: f.winCI,
          meanDelta: f.meanDelta,
        })),
        fooled,
      };
      io.stdout(JSON.stringify(report) + '\n');
    } else {
      io.stdout(probeText(rows.length, scores.length, threshold, source, figures, p.maxRate));
    }
    return fooled.length > 0 ? 3 : 0;
  } finally {
    r.engine.dispose();
    if (withModels) await closeModels(withModels.models);
  }
}

function lowestReward(scores: Float64Array, status: Uint8Array): number {
  let min = Infinity;
  for (let i = 0; i < scores.length; i++) if (status[i] === RowStatus.Ok && scores[i] < min) min = scores[i];
  return min;
}

const SOURCE: Record<ThresholdSource, string> = {
  given: 'given by --pass',
  label: 'median reward of the rollouts whose label is true',
  all: 'median reward of all rollouts',
};

/** A master key in quotes (" ", ":"), so a blank or a comma reads as one. */
const shown = (name: string) => (name.startsWith('master-key:') ? `master-key:${JSON.stringify(name.slice(11))}` : name);
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '—');
const ci = ([lo, hi]: [number, number]) => (Number.isFinite(lo) ? `[${(100 * lo).toFixed(1)}, ${(100 * hi).toFixed(1)}]` : '');

/** The human report: one line per probe, the rate that judges it first. */
export function probeText(probed: number, total: number, threshold: number, source: ThresholdSource, figures: ProbeFigures[], maxRate: number): string {
  const lines = [
    `probed ${probed.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rollouts; pass threshold ${threshold} (${SOURCE[source]})`,
    `a probe fools the reward when its pass rate (replacements) or win rate (modifications) is above ${pct(maxRate)}`,
    '',
  ];
  const width = Math.max(...figures.map((f) => [...shown(f.name)].length), 5);
  for (const f of figures) {
    const judged = f.kind === 'replace' ? `passes ${pct(f.passRate)} ${ci(f.passCI)}` : `wins ${pct(f.winRate)} ${ci(f.winCI)}`;
    const delta = Number.isFinite(f.meanDelta) ? `mean change ${f.meanDelta >= 0 ? '+' : ''}${f.meanDelta.toPrecision(4)}` : '';
    const failed = f.failed > 0 ? ` · ${f.failed} failed` : '';
    lines.push(
      `  ${shown(f.name).padEnd(width)}  ${f.kind.padEnd(7)}  n ${String(f.n).padStart(6)}  ${judged}  ${delta}${failed}  ${f.fooled ? 'FOOLED' : 'ok'}`,
    );
  }
  const fooled = figures.filter((f) => f.fooled).map((f) => f.name);
  lines.push('', fooled.length ? `fooled by ${fooled.length}: ${fooled.map(shown).join(', ')}` : 'no probe fools the reward');
  return lines.join('\n') + '\n';
}
