import { useMemo, useState } from 'react';
import type { OverSteps, StepFigures } from '../../../core/steps/overSteps';
import { DIVERGENCE_RULE } from '../../../core/steps/overSteps';
import { sampleRows } from '../../../core/stats/sample';
import { SHARE_DOMAIN, StepSeriesCanvas, type StepLayer, type StepLine } from '../../charts/StepSeriesCanvas';
import { fmt } from '../format';

interface Props {
  figures: OverSteps;
  /** Opens the rows of the k-th step (ascending order). */
  onStep(k: number): void;
  labelName: string | null;
  lengthUnit: string;
}

/** The zero-std causes stacked per step, bottom first: legend name, colour, value. */
const CAUSES: [string, string, (s: StepFigures) => number][] = [
  ['all truncated', '#6e7781', (s) => s.collapse.truncatedZeroStdFraction],
  ['all max', '#1a7f37', (s) => s.collapse.allMaxFraction],
  ['all min', '#cf222e', (s) => s.collapse.allMinFraction],
  ['other', '#bf8700', (s) => s.collapse.otherZeroStdFraction],
];

/** Steps drawn at most (evenly spaced, the last one kept): a hostile file can hold a step per row. */
export const MAX_CHART_STEPS = 1500;

/** A figure per drawn step as a column, NaN where it is missing (null, undefined or not finite). */
function column(drawn: readonly StepFigures[], of: (s: StepFigures) => number | null | undefined): Float64Array {
  const out = new Float64Array(drawn.length);
  for (let i = 0; i < drawn.length; i++) {
    const v = of(drawn[i]);
    out[i] = v === null || v === undefined || !Number.isFinite(v) ? NaN : v;
  }
  return out;
}

/**
 * The per-step charts: reward ± std (or a component's), zero-std groups by cause, lengths, truncation, label. Each is a
 * canvas (StepSeriesCanvas): as Recharts SVG, the four took main-thread tasks of 150–520 ms at 1,000 steps.
 */
export function StepCharts({ figures, onStep, labelName, lengthUnit }: Props) {
  const names = useMemo(() => Object.keys(figures.steps[0]?.components ?? {}), [figures]);
  const [series, setSeries] = useState('');
  const shown = names.includes(series) ? series : '';
  // Indices of the steps drawn into figures.steps, ascending.
  const drawnAt = useMemo(() => {
    const n = figures.steps.length;
    const k = sampleRows(n, () => true, MAX_CHART_STEPS);
    if (k.length < n && k[k.length - 1] !== n - 1) k[k.length - 1] = n - 1;
    return k;
  }, [figures]);
  const drawn = useMemo(() => drawnAt.map((i) => figures.steps[i]), [drawnAt, figures]);
  const steps = useMemo(() => column(drawn, (s) => s.step), [drawn]);
  const open = (i: number) => onStep(drawnAt[i]);
  const d = figures.divergence;
  const hasTruncation = figures.steps.some((s) => s.truncated !== null);
  const hasLabel = figures.steps.some((s) => s.label !== null && Number.isFinite(s.label.accuracy));

  const reward = useMemo(() => {
    const m = (s: StepFigures) => (shown ? s.components[shown] : s.reward);
    const mean = column(drawn, (s) => m(s).mean);
    const std = column(drawn, (s) => m(s).std);
    return {
      band: { name: '± std', color: '#1f6feb', lo: mean.map((v, i) => v - std[i]), hi: mean.map((v, i) => v + std[i]) },
      lines: [{ name: 'mean', color: '#1f6feb', values: mean, digits: 4, dots: true }] as StepLine[],
    };
  }, [drawn, shown]);
  const zeroStd = useMemo(
    () => ({
      stack: CAUSES.map(([name, color, of]) => ({ name, color, values: column(drawn, of) })) as StepLayer[],
      lines: [{ name: 'std < 1e-3', color: '#8250df', values: column(drawn, (s) => s.collapse.nearZeroStdGroupFraction) }] as StepLine[],
    }),
    [drawn],
  );
  const length = useMemo(
    (): StepLine[] => [
      { name: 'mean', color: '#1f6feb', values: column(drawn, (s) => s.length.mean) },
      { name: 'p95', color: '#0969da', values: column(drawn, (s) => s.length.p95), dashed: true },
      ...(hasTruncation ? [{ name: 'truncated share', color: '#cf222e', values: column(drawn, (s) => s.truncated), right: true }] : []),
    ],
    [drawn, hasTruncation],
  );
  const label = useMemo(
    (): StepLine[] => [
      { name: 'mean reward', color: '#1f6feb', values: column(drawn, (s) => s.reward.mean), dots: true },
      { name: `mean ${labelName}`, color: '#1a7f37', values: column(drawn, (s) => s.label?.accuracy), dots: true },
    ],
    [drawn, labelName],
  );
  const divergence = useMemo(() => (d ? { step: d.step, label: 'divergence', color: '#cf222e' } : undefined), [d]);
  return (
    <>
      <figure className="chart step-chart" aria-label="Reward over steps" data-steps={drawn.length}>
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
        <StepSeriesCanvas label={`${shown || 'reward'} over steps`} steps={steps} band={reward.band} lines={reward.lines} onStep={open} />
      </figure>
      <figure className="chart step-chart" aria-label="Zero-std groups over steps">
        <figcaption className="muted small">Groups whose rewards are all equal (frac_reward_zero_std), by cause; line: std &lt; 1e-3</figcaption>
        <StepSeriesCanvas
          label="Zero-std groups over steps"
          steps={steps}
          stack={zeroStd.stack}
          lines={zeroStd.lines}
          yDomain={SHARE_DOMAIN}
          xGrid={false}
          legend
          onStep={open}
        />
      </figure>
      <figure className="chart step-chart" aria-label="Length over steps">
        <figcaption className="muted small">
          Completion length ({lengthUnit}): mean and p95{hasTruncation ? '; truncated share on the right axis' : ''}
        </figcaption>
        <StepSeriesCanvas label="Length over steps" steps={steps} lines={length} rightDomain={SHARE_DOMAIN} legend onStep={open} />
      </figure>
      <figure className="chart step-chart" aria-label="Label vs reward over steps">
        <figcaption className="muted small">
          {hasLabel ? `Mean reward and mean ${labelName} (accuracy) per step` : 'Pick a trusted label column to see the label against the reward.'}
        </figcaption>
        {hasLabel ? <StepSeriesCanvas label="Label vs reward over steps" steps={steps} lines={label} reference={divergence} legend onStep={open} /> : null}
      </figure>
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
