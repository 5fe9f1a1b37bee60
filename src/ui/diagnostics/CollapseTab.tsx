import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Dataset } from '../../core/dataset/dataset';
import { PRESET_IDS, PRESETS, type PresetId } from '../../core/stats/advantage';
import { rowsInBin } from '../../core/stats/rowsInBin';
import { useStudio } from '../../store';
import { choosableBar } from '../charts/choosableBar';
import type { RunRecord } from '../../store/runsSlice';
import { fmt, pct } from './format';
import { countLabel } from '../charts/axis';
import { binName } from '../charts/HistogramChart';
import { scoredOf } from '../../app/keptFigures';
import { figure } from '../../app/figures';
import type { CollapseFigures, StepPoint } from '../../core/stats/figures';
import { SHARE_DOMAIN, StepSeriesCanvas, type StepLine } from '../charts/StepSeriesCanvas';
import { Computing } from './Computing';
import { useFigure } from './useFigure';

/** Collapsed groups listed to open (the rest are counted). */
const MAX_LISTED = 60;

/**
 * Advantage collapse: groups whose rewards are all equal teach the policy nothing under group-relative estimators.
 * Metric names follow the frameworks' logs (TRL `frac_reward_zero_std`, …) so numbers can be compared with training runs.
 */
export function CollapseTab({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const preset = useStudio((s) => s.preset);
  const setPreset = useStudio((s) => s.setPreset);
  const setGroupFilter = useStudio((s) => s.setGroupFilter);
  const setSubset = useStudio((s) => s.setSubset);
  const values = scoredOf(run.result);
  const groupCount = ds.groupKeys.length;
  const fig = useFigure(figure({ kind: 'collapse', values, groupOf: ds.groupOf, groupCount, preset, steps: ds.hasSteps ? ds.steps : null }));
  const f = fig.value;
  const advData = useMemo(() => (f ? f.advantageHistogram.bins.map((b, i) => ({ i, label: binName(f.advantageHistogram, i), count: b.count })) : []), [f]);
  const listed = f ? Array.from(f.collapse.collapsedGroups.subarray(0, MAX_LISTED)) : [];
  return (
    <div className="diag-split">
      <div className="diag-charts" role="group" aria-label="Charts" tabIndex={0}>
        {f ? (
          <Charts f={f} advData={advData} preset={preset} onOpen={(label, rows) => setSubset({ label, rows })} />
        ) : (
          <Computing rows={values.length} error={fig.error} />
        )}
      </div>
      <div className="diag-side">
        <label>
          Advantage estimator{' '}
          <select aria-label="Advantage estimator" value={preset} onChange={(e) => setPreset(e.target.value as PresetId)}>
            {PRESET_IDS.map((id) => (
              <option key={id} value={id}>
                {PRESETS[id].label}
              </option>
            ))}
          </select>
        </label>
        <p className="muted small">
          <code>{PRESETS[preset].formula}</code>
        </p>
        {f ? (
          <>
            <dl className="stats" aria-label="Advantage collapse">
              <dt>groups</dt>
              <dd>{f.collapse.groups.toLocaleString('en-US')}</dd>
              <dt>group sizes</dt>
              <dd>{f.collapse.sizeHistogram.map((s) => `${s.size}: ${s.groups.toLocaleString('en-US')}`).join(' · ')}</dd>
              <dt title="TRL logs this as frac_reward_zero_std">zero reward std (frac_reward_zero_std)</dt>
              <dd>{pct(f.collapse.zeroStdGroupFraction)}</dd>
              <dt>· all max / all min / other</dt>
              <dd>
                {pct(f.collapse.allMaxFraction)} / {pct(f.collapse.allMinFraction)} / {pct(f.collapse.otherZeroStdFraction)}
              </dd>
              <dt>reward std &lt; 1e-3</dt>
              <dd>{pct(f.collapse.nearZeroStdGroupFraction)}</dd>
              <dt>rollouts with zero advantage</dt>
              <dd>{pct(f.collapse.zeroAdvantageRolloutFraction)}</dd>
            </dl>
            <h3 className="small">Collapsed groups ({f.collapse.collapsedGroups.length.toLocaleString('en-US')})</h3>
            <ul className="group-list" aria-label="Collapsed groups">
              {listed.map((g) => (
                <li key={g}>
                  <button type="button" className="link" onClick={() => setGroupFilter(g)} title={ds.groupKeys[g].slice(0, 300)}>
                    group {ds.groupLabels[g]}
                  </button>{' '}
                  <span className="muted">
                    all {fmt(f.stats.mean[g], 3)} × {f.stats.count[g]}
                  </span>
                </li>
              ))}
              {f.collapse.collapsedGroups.length > MAX_LISTED ? (
                <li className="muted">… and {(f.collapse.collapsedGroups.length - MAX_LISTED).toLocaleString('en-US')} more</li>
              ) : null}
            </ul>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** The collapse figures per step as columns for StepSeriesCanvas (names as the frameworks log them). */
function perStepSeries(points: readonly StepPoint[]): { steps: Float64Array; lines: StepLine[] } {
  const col = (of: (p: StepPoint) => number) => Float64Array.from(points, of);
  return {
    steps: col((p) => p.step),
    lines: [
      { name: 'frac_reward_zero_std', color: '#cf222e', values: col((p) => p.zeroStd) },
      { name: 'std < 1e-3', color: '#9a6700', values: col((p) => p.nearZeroStd) },
      { name: 'zero-advantage rollouts', color: '#8250df', values: col((p) => p.zeroAdvantage) },
      { name: 'mean reward', color: '#1f6feb', values: col((p) => p.meanReward) },
    ],
  };
}

/** The advantage histogram and, with steps, the collapse per step. */
function Charts({
  f,
  advData,
  preset,
  onOpen,
}: {
  f: CollapseFigures;
  advData: { i: number; label: string; count: number }[];
  preset: PresetId;
  onOpen(label: string, rows: Int32Array): void;
}) {
  // The per-step chart is a canvas: as a Recharts LineChart, 4 lines × 1,000 steps took a 100–170 ms task.
  const perStep = useMemo(() => (f.perStep && f.perStep.length > 0 ? perStepSeries(f.perStep) : null), [f]);
  return (
    <>
      <figure className="chart" aria-label="Advantage histogram" data-bins={advData.length}>
        <figcaption className="muted small">Advantages under {PRESETS[preset].label}</figcaption>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={advData} margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 10 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={44} tickFormatter={countLabel} />
            <Tooltip formatter={(v) => [v, 'rollouts']} />
            <Bar
              dataKey="count"
              fill="#1a7f37"
              isAnimationActive={false}
              cursor="pointer"
              shape={choosableBar(
                (i) => `advantage ${advData[i].label}: ${advData[i].count} rollouts`,
                (i) => onOpen(`advantage ${advData[i].label}`, rowsInBin(f.advantages, f.advantageHistogram, i)),
              )}
            />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      {perStep ? (
        <figure className="chart step-chart" aria-label="Collapse per step" data-steps={perStep.steps.length}>
          <StepSeriesCanvas label="Collapse per step" steps={perStep.steps} lines={perStep.lines} yDomain={SHARE_DOMAIN} legend />
        </figure>
      ) : null}
    </>
  );
}
