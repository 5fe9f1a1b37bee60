import { useEffect, useMemo, useState } from 'react';
import { Area, Bar, CartesianGrid, ComposedChart, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { OverSteps } from '../../../core/steps/overSteps';
import { DIVERGENCE_RULE } from '../../../core/steps/overSteps';
import { sampleRows } from '../../../core/stats/sample';
import { fmt } from '../format';

interface Props {
  figures: OverSteps;
  /** Opens the rows of the k-th step (ascending order). */
  onStep(k: number): void;
  labelName: string | null;
  lengthUnit: string;
}

/** The zero-std causes stacked per step: data key, legend name, colour. */
const CAUSES = [
  ['cut', 'all truncated', '#6e7781'],
  ['allMax', 'all max', '#1a7f37'],
  ['allMin', 'all min', '#cf222e'],
  ['other', 'other', '#bf8700'],
] as const;

const nul = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : x);
const MARGIN = { top: 4, right: 12, bottom: 4, left: 0 };
/** Steps drawn at most (evenly spaced, the last one kept): a hostile file can hold a step per row. */
export const MAX_CHART_STEPS = 1500;
/**
 * Above this many steps drawn, bars are at most a few pixels wide: the zero-std causes are drawn as stacked step
 * areas (4 paths, not 4 rects a step) and the lines without dots. Drawing a rect and a dot per step of 1,000 steps
 * took one task of 0.5–1.4 s (bench/scale.bench.mjs at 1M rows).
 */
const DENSE_STEPS = 300;

/** A click on a chart opens the rows of the step under the pointer (Recharts gives its x value as the active label). */
function clickStep(steps: readonly number[], onStep: (k: number) => void) {
  return (e: { activeLabel?: number | string | null } | null) => {
    const k = e?.activeLabel === undefined || e.activeLabel === null ? -1 : steps.indexOf(Number(e.activeLabel));
    if (k >= 0) onStep(k);
  };
}

/**
 * How many of `count` charts to draw: one more each frame. Each chart then mounts, and measures its size, in a task
 * of its own, instead of all four in one task of over 100 ms (bench/steps-browser.bench.mjs).
 */
function useOneMorePerFrame(count: number): number {
  const [n, setN] = useState(1);
  useEffect(() => {
    if (n >= count) return;
    const id = requestAnimationFrame(() => setN((k) => k + 1));
    return () => cancelAnimationFrame(id);
  }, [n, count]);
  return n;
}

/** The per-step line charts: reward ± std (or a component's), zero-std groups by cause, lengths, truncation, label. */
export function StepCharts({ figures, onStep, labelName, lengthUnit }: Props) {
  const names = useMemo(() => Object.keys(figures.steps[0]?.components ?? {}), [figures]);
  const [series, setSeries] = useState('');
  const shown = names.includes(series) ? series : '';
  const drawn = useMemo(() => {
    const n = figures.steps.length;
    const k = sampleRows(n, () => true, MAX_CHART_STEPS);
    if (k.length < n && k[k.length - 1] !== n - 1) k[k.length - 1] = n - 1;
    return k.map((i) => figures.steps[i]);
  }, [figures]);
  const data = useMemo(
    () =>
      drawn.map((s) => {
        const m = shown ? s.components[shown] : s.reward;
        return {
          step: s.step,
          mean: nul(m.mean),
          band: Number.isFinite(m.mean) ? [m.mean - m.std, m.mean + m.std] : null,
          allMax: nul(s.collapse.allMaxFraction),
          allMin: nul(s.collapse.allMinFraction),
          other: nul(s.collapse.otherZeroStdFraction),
          cut: nul(s.collapse.truncatedZeroStdFraction),
          near: nul(s.collapse.nearZeroStdGroupFraction),
          lenMean: nul(s.length.mean),
          lenP95: nul(s.length.p95),
          truncated: nul(s.truncated),
          reward: nul(s.reward.mean),
          accuracy: nul(s.label?.accuracy),
        };
      }),
    [drawn, shown],
  );
  const drawnCharts = useOneMorePerFrame(4);
  const dense = data.length > DENSE_STEPS;
  const dot = dense ? false : { r: 2 };
  const click = clickStep(
    figures.steps.map((s) => s.step),
    onStep,
  );
  const d = figures.divergence;
  const hasTruncation = figures.steps.some((s) => s.truncated !== null);
  const hasLabel = figures.steps.some((s) => s.label !== null && Number.isFinite(s.label.accuracy));
  const xAxis = <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} tick={{ fontSize: 11 }} />;
  return (
    <>
      <figure className="chart" aria-label="Reward over steps" data-steps={data.length}>
        <figcaption className="muted small">
          {names.length > 0 ? (
            <label>
              Series{' '}
              <select aria-label="Series" value={shown} onChange={(e) => setSeries(e.target.value)}>
                <option value="">reward</option>
                {names.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>{' '}
            </label>
          ) : null}
          {shown || 'reward'}: mean ± std per step (population std over the scored rollouts); click a step to open its rollouts
          {drawn.length < figures.steps.length ? ` (${drawn.length} of ${figures.steps.length} steps drawn, evenly spaced; the table has all)` : ''}
        </figcaption>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={MARGIN} onClick={click}>
            <CartesianGrid strokeDasharray="3 3" />
            {xAxis}
            <YAxis tick={{ fontSize: 11 }} width={44} />
            <Tooltip formatter={(v) => (Array.isArray(v) ? v.map((x) => fmt(Number(x), 3)).join(' to ') : fmt(Number(v), 4))} />
            <Area dataKey="band" name="± std" stroke="none" fill="#1f6feb" fillOpacity={0.15} isAnimationActive={false} />
            <Line dataKey="mean" name="mean" stroke="#1f6feb" dot={dot} isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </figure>
      {drawnCharts >= 2 ? (
        <figure className="chart" aria-label="Zero-std groups over steps">
          <figcaption className="muted small">Groups whose rewards are all equal (frac_reward_zero_std), by cause; line: std &lt; 1e-3</figcaption>
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={data} margin={MARGIN} onClick={click}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              {xAxis}
              <YAxis tick={{ fontSize: 11 }} width={44} domain={[0, 1]} />
              <Tooltip formatter={(v) => fmt(Number(v), 3)} />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              {CAUSES.map(([key, name, fill]) =>
                dense ? (
                  <Area
                    key={key}
                    type="stepAfter"
                    dataKey={key}
                    stackId="z"
                    name={name}
                    fill={fill}
                    fillOpacity={1}
                    stroke="none"
                    legendType="rect"
                    isAnimationActive={false}
                  />
                ) : (
                  <Bar key={key} dataKey={key} stackId="z" name={name} fill={fill} isAnimationActive={false} />
                ),
              )}
              <Line dataKey="near" name="std < 1e-3" stroke="#8250df" dot={false} isAnimationActive={false} />
            </ComposedChart>
          </ResponsiveContainer>
        </figure>
      ) : null}
      {drawnCharts >= 3 ? (
        <figure className="chart" aria-label="Length over steps">
          <figcaption className="muted small">
            Completion length ({lengthUnit}): mean and p95{hasTruncation ? '; truncated share on the right axis' : ''}
          </figcaption>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={data} margin={MARGIN} onClick={click}>
              <CartesianGrid strokeDasharray="3 3" />
              {xAxis}
              <YAxis yAxisId="len" tick={{ fontSize: 11 }} width={44} />
              {hasTruncation ? <YAxis yAxisId="share" orientation="right" domain={[0, 1]} tick={{ fontSize: 11 }} width={36} /> : null}
              <Tooltip formatter={(v) => fmt(Number(v), 3)} />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              <Line yAxisId="len" dataKey="lenMean" name="mean" stroke="#1f6feb" dot={false} isAnimationActive={false} />
              <Line yAxisId="len" dataKey="lenP95" name="p95" stroke="#0969da" strokeDasharray="4 2" dot={false} isAnimationActive={false} />
              {hasTruncation ? (
                <Line yAxisId="share" dataKey="truncated" name="truncated share" stroke="#cf222e" dot={false} isAnimationActive={false} />
              ) : null}
            </LineChart>
          </ResponsiveContainer>
        </figure>
      ) : null}
      {drawnCharts >= 4 ? (
        <figure className="chart" aria-label="Label vs reward over steps">
          <figcaption className="muted small">
            {hasLabel ? `Mean reward and mean ${labelName} (accuracy) per step` : 'Pick a trusted label column to see the label against the reward.'}
          </figcaption>
          {hasLabel ? (
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={data} margin={MARGIN} onClick={click}>
                <CartesianGrid strokeDasharray="3 3" />
                {xAxis}
                <YAxis tick={{ fontSize: 11 }} width={44} />
                <Tooltip formatter={(v) => fmt(Number(v), 3)} />
                <Legend wrapperStyle={{ fontSize: 11 }} />
                <Line dataKey="reward" name="mean reward" stroke="#1f6feb" dot={dot} isAnimationActive={false} />
                <Line dataKey="accuracy" name={`mean ${labelName}`} stroke="#1a7f37" dot={dot} isAnimationActive={false} />
                {d ? <ReferenceLine x={d.step} stroke="#cf222e" strokeDasharray="4 2" label={{ value: 'divergence', fontSize: 11, fill: '#cf222e' }} /> : null}
              </LineChart>
            </ResponsiveContainer>
          ) : null}
        </figure>
      ) : null}
      <p className={d ? 'warn-banner' : 'muted small'} role="note" aria-label="Divergence" title={`Rule: ${DIVERGENCE_RULE}`}>
        {!hasLabel
          ? 'Divergence needs a trusted label.'
          : d
            ? `Divergence at step ${fmt(d.step)}: from step ${fmt(d.from)} the mean reward rose at every step while the mean ${labelName} fell.`
            : `No divergence: the mean reward never rose while the mean ${labelName} fell three step-to-step changes in a row.`}{' '}
        <span className="small">Rule: {DIVERGENCE_RULE}.</span>
      </p>
    </>
  );
}
