import { useMemo, useState } from 'react';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis } from 'recharts';
import { rowsInBin } from '../../core/stats/rowsInBin';
import { statusShares } from '../../core/stats/statusShares';
import { useStudio } from '../../store';
import { MAX_OVERLAID, type RunRecord } from '../../store/runsSlice';
import { binName, HistogramChart } from '../charts/HistogramChart';
import { choosableBar } from '../charts/choosableBar';
import { runLabel } from '../editor/runLabel';
import { fmt, pct } from './format';
import { scoredColumn, scoredOf } from '../../app/keptFigures';
import { figure } from '../../app/figures';
import { Computing } from './Computing';
import { useFigure } from './useFigure';
import { RewardFunctions } from './RewardFunctions';
import { usePreviousRun, useRunningLong } from './useRuns';

const CURRENT_COLOR = '#1f6feb';
/** One colour per overlaid run, apart from the current run's blue and from each other. */
const OVERLAY_COLORS = ['#bf8700', '#8250df', '#6e7781'];

const seriesName = (r: RunRecord, role: 'current' | 'previous' | null) => `run #${r.id}${r.name ? ` · ${r.name}` : ''}${role ? ` (${role})` : ''}`;

/** The runs drawn with `run`: those the user picked (same data, at most three), or else the run before it. */
function useOverlaid(run: RunRecord): { overlaid: RunRecord[]; byDefault: boolean } {
  const runs = useStudio((s) => s.runs);
  const picked = useStudio((s) => s.overlayRuns);
  const prev = usePreviousRun(run);
  return useMemo(() => {
    if (picked === null) return { overlaid: prev ? [prev] : [], byDefault: true };
    const overlaid = runs.filter((r) => r.datasetId === run.datasetId && r.id !== run.id && picked.includes(r.id)).sort((a, b) => b.id - a.id);
    return { overlaid, byDefault: false };
  }, [runs, picked, prev, run]);
}

/** Distribution of the current run: histogram with up to three other runs on shared bins, statistics, one histogram per component. */
export function DistributionTab({ run }: { run: RunRecord }) {
  const { overlaid, byDefault } = useOverlaid(run);
  const running = useRunningLong();
  const setSubset = useStudio((s) => s.setSubset);
  // One of several reward functions shown instead of their weighted total (its own values: NaN where it returned None).
  const [picked, setShown] = useState<string | null>(null);
  const shown = picked !== null && run.functions?.some((f) => f.name === picked) && Object.hasOwn(run.result.components, picked) ? picked : null;
  const values = useMemo(() => (shown !== null ? run.result.components[shown] : scoredOf(run.result)), [run, shown]);
  // Other runs are drawn with the weighted total only: a function's values are not comparable with another run's total.
  const drawn = useMemo(() => (shown === null ? overlaid : []), [shown, overlaid]);
  const others = useMemo(() => drawn.map((r) => scoredOf(r.result)), [drawn]);
  const what = shown === null ? 'reward' : shown;
  // The shared bins and the description, in the stats worker on large data; kept per (values, others).
  const fig = useFigure(figure({ kind: 'distribution', values, others }));
  const f = fig.value;
  const series = useMemo(
    () =>
      f
        ? [run, ...drawn].map((r, k) => ({
            name: seriesName(r, k > 0 ? (byDefault ? 'previous' : null) : drawn.length > 0 ? 'current' : null),
            color: k === 0 ? CURRENT_COLOR : OVERLAY_COLORS[(k - 1) % OVERLAY_COLORS.length],
            counts: f.overlay.counts[k],
          }))
        : [],
    [f, run, drawn, byDefault],
  );
  const h = f?.overlay.histogram ?? null;
  const d = f?.description ?? null;
  const shares = useMemo(() => statusShares(run.result.status), [run]);
  const components = Object.entries(run.result.components);
  return (
    <div className="diag-split">
      <figure className={running ? 'chart stale' : 'chart'} aria-label="Reward histogram" data-bins={h?.bins.length ?? 0} data-runs={series.length}>
        {run.functions ? (
          <figcaption className="muted small" aria-label="Histogram shows">
            {shown === null ? 'Weighted total of the reward functions' : `${shown} (weight ${String(run.functions.find((f) => f.name === shown)?.weight)})`}
          </figcaption>
        ) : null}
        {!h || !d ? (
          <Computing rows={values.length} error={fig.error} />
        ) : d.n > 0 ? (
          <HistogramChart
            label="Histogram bins"
            valueName={what}
            histogram={h}
            series={series}
            // Whichever run's bar is clicked, the rows are the current run's in that bin: the table shows that run.
            onOpenBin={(b) => setSubset({ label: `${what} ${binName(h, b)} · run #${run.id}`, rows: rowsInBin(values, h, b) })}
          />
        ) : (
          <p className="muted empty-chart">No scored rollouts in this run.</p>
        )}
      </figure>
      <div className="diag-side">
        <RewardFunctions run={run} shown={shown} onShow={setShown} />
        <OverlayPicker run={run} overlaid={overlaid} />
        <dl className="stats" aria-label="Reward statistics">
          <dt>mean</dt>
          <dd>{fmt(d?.mean)}</dd>
          <dt>std</dt>
          <dd>{fmt(d?.std)}</dd>
          <dt>min / max</dt>
          <dd>
            {fmt(d?.min)} / {fmt(d?.max)}
          </dd>
          <dt>quantiles 5/25/50/75/95</dt>
          <dd>{d ? [d.quantiles.q05, d.quantiles.q25, d.quantiles.q50, d.quantiles.q75, d.quantiles.q95].map((q) => fmt(q, 3)).join(' · ') : '—'}</dd>
          <dt>distinct values</dt>
          <dd>{d?.distinct ?? '—'}</dd>
          <dt>null</dt>
          <dd>{pct(shares.nulls)}</dd>
          <dt>errors</dt>
          <dd>{pct(shares.failed)}</dd>
        </dl>
        {components.length > 0 ? (
          <div className="components" aria-label="Reward components">
            {components.map(([name, arr]) => (
              <ComponentHistogram key={name} name={name} values={arr} status={run.result.status} />
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** Which other runs of the same data the histogram draws with the current one (up to three; by default the previous run). */
function OverlayPicker({ run, overlaid }: { run: RunRecord; overlaid: RunRecord[] }) {
  const runs = useStudio((s) => s.runs);
  const setOverlayRuns = useStudio((s) => s.setOverlayRuns);
  const candidates = runs.filter((r) => r.datasetId === run.datasetId && r.id !== run.id).reverse();
  if (candidates.length === 0) return null;
  const ids = overlaid.map((r) => r.id);
  const full = ids.length >= MAX_OVERLAID - 1;
  return (
    <fieldset className="overlay-runs">
      <legend>Draw with run #{run.id}</legend>
      <div className="overlay-list">
        {candidates.map((r) => {
          const on = ids.includes(r.id);
          return (
            <label key={r.id} title={r.note}>
              <input
                type="checkbox"
                checked={on}
                disabled={!on && full}
                onChange={() => setOverlayRuns(on ? ids.filter((id) => id !== r.id) : [...ids, r.id])}
              />{' '}
              {runLabel(r)}
            </label>
          );
        })}
      </div>
      {full ? <span className="muted small">{MAX_OVERLAID} runs at most: untick one to pick another.</span> : null}
    </fieldset>
  );
}

function ComponentHistogram({ name, values, status }: { name: string; values: Float64Array; status: Uint8Array }) {
  const setSubset = useStudio((s) => s.setSubset);
  const vals = scoredColumn(values, status);
  // In the stats worker from PAGE_ROWS rows up, like the run's own histogram: a sort of every scored row per component.
  const fig = useFigure(figure({ kind: 'component', values: vals }));
  if (!fig.value)
    return (
      <figure className="mini-chart" aria-label={`Component ${name} histogram`}>
        <figcaption>
          <code>{name}</code>
        </figcaption>
        <Computing rows={vals.length} error={fig.error} />
      </figure>
    );
  const { histogram: h, mean } = fig.value;
  const data = h.bins.map((b, i) => ({ i, label: binName(h, i), count: b.count }));
  return (
    <figure className="mini-chart" aria-label={`Component ${name} histogram`}>
      <figcaption>
        <code>{name}</code> <span className="muted">mean {fmt(mean, 3)}</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={70}>
        <BarChart data={data} margin={{ top: 2, right: 2, bottom: 0, left: 2 }}>
          <XAxis dataKey="label" hide />
          <Tooltip formatter={(v) => [v, 'rollouts']} />
          <Bar
            dataKey="count"
            fill="#8250df"
            isAnimationActive={false}
            cursor="pointer"
            shape={choosableBar(
              (i) => `${name} ${data[i].label}: ${data[i].count} rollouts`,
              (i) => setSubset({ label: `${name} ${data[i].label}`, rows: rowsInBin(vals, h, i) }),
            )}
          />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
