import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { describe } from '../../core/stats/describe';
import { histogram, sharedHistogram, type Histogram } from '../../core/stats/histogram';
import { scoredValues } from '../../core/stats/scored';
import { rowsInBin } from '../../core/stats/rowsInBin';
import { statusShares } from '../../core/stats/statusShares';
import { useStudio } from '../../store';
import { choosableBar } from '../charts/choosableBar';
import type { RunRecord } from '../../store/runsSlice';
import { fmt, fmtTick, pct } from './format';
import { usePreviousRun, useRunningLong } from './useRuns';

const binLabel = (h: Histogram, i: number) => {
  const b = h.bins[i];
  return b.value !== undefined ? fmtTick(b.value) : `${fmtTick(b.x0)}–${fmtTick(b.x1)}`;
};

/** Distribution of the current run: histogram with the previous run behind, statistics, one histogram per component. */
export function DistributionTab({ run }: { run: RunRecord }) {
  const prev = usePreviousRun(run);
  const running = useRunningLong();
  const setSubset = useStudio((s) => s.setSubset);
  const values = useMemo(() => scoredValues(run.result.scores, run.result.status), [run]);
  const prevValues = useMemo(() => (prev ? scoredValues(prev.result.scores, prev.result.status) : null), [prev]);
  const { h, data } = useMemo(() => {
    const s = sharedHistogram(values, prevValues);
    const h = s.histogram;
    return { h, data: h.bins.map((_, i) => ({ i, label: binLabel(h, i), count: s.current[i], previous: s.previous?.[i] })) };
  }, [values, prevValues]);
  const d = useMemo(() => describe(values), [values]);
  const shares = useMemo(() => statusShares(run.result.status), [run]);
  const components = Object.entries(run.result.components);
  return (
    <div className="diag-split">
      <figure className={running ? 'chart stale' : 'chart'} aria-label="Reward histogram" data-bins={data.length}>
        {d.n > 0 ? (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 0 }} barGap={-1000}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 11 }} />
              <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={44} />
              <Tooltip formatter={(v, name) => [v, name === 'previous' ? `rollouts, run #${prev?.id}` : `rollouts, run #${run.id}`]} />
              {prev ? <Legend wrapperStyle={{ fontSize: 11 }} formatter={(v) => (v === 'previous' ? `run #${prev.id} (previous)` : `run #${run.id}`)} /> : null}
              {prev ? <Bar dataKey="previous" fill="#8c959f" fillOpacity={0.35} isAnimationActive={false} /> : null}
              <Bar
                dataKey="count"
                fill="#1f6feb"
                fillOpacity={0.85}
                isAnimationActive={false}
                cursor="pointer"
                shape={choosableBar(
                  (i) => `reward ${data[i].label}: ${data[i].count} rollouts`,
                  (i) => setSubset({ label: `reward ${data[i].label}`, rows: rowsInBin(values, h, i) }),
                )}
              />
            </BarChart>
          </ResponsiveContainer>
        ) : (
          <p className="muted empty-chart">No scored rollouts in this run.</p>
        )}
      </figure>
      <div className="diag-side">
        <dl className="stats" aria-label="Reward statistics">
          <dt>mean</dt>
          <dd>{fmt(d.mean)}</dd>
          <dt>std</dt>
          <dd>{fmt(d.std)}</dd>
          <dt>min / max</dt>
          <dd>
            {fmt(d.min)} / {fmt(d.max)}
          </dd>
          <dt>quantiles 5/25/50/75/95</dt>
          <dd>{[d.quantiles.q05, d.quantiles.q25, d.quantiles.q50, d.quantiles.q75, d.quantiles.q95].map((q) => fmt(q, 3)).join(' · ')}</dd>
          <dt>distinct values</dt>
          <dd>{d.distinct}</dd>
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

function ComponentHistogram({ name, values, status }: { name: string; values: Float64Array; status: Uint8Array }) {
  const setSubset = useStudio((s) => s.setSubset);
  const vals = useMemo(() => scoredValues(values, status), [values, status]);
  const h = useMemo(() => histogram(vals, { maxBins: 20 }), [vals]);
  const data = h.bins.map((b, i) => ({ i, label: binLabel(h, i), count: b.count }));
  return (
    <figure className="mini-chart" aria-label={`Component ${name} histogram`}>
      <figcaption>
        <code>{name}</code> <span className="muted">mean {fmt(describe(vals).mean, 3)}</span>
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
