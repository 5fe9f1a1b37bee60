import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { histogram } from '../../core/stats/histogram';
import { rowsInBin } from '../../core/stats/rowsInBin';
import { useStudio } from '../../store';
import { useCurrentRun } from './useCurrentRun';

const fmtNum = (v: number) => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3));

/** Reward distribution of the current run. Clicking a bar opens the rollouts behind it in the table. */
export function RewardHistogram() {
  const run = useCurrentRun();
  const running = useStudio((s) => s.running !== null);
  const setSubset = useStudio((s) => s.setSubset);
  const h = useMemo(() => (run ? histogram(run.result.scores) : null), [run]);
  const data = useMemo(
    () => (h ? h.bins.map((b, i) => ({ i, label: b.value !== undefined ? fmtNum(b.value) : `${fmtNum(b.x0)}–${fmtNum(b.x1)}`, count: b.count })) : []),
    [h],
  );
  const s = run?.summary;
  return (
    <section className="panel chart-panel" aria-label="Reward distribution">
      <div className="toolbar">
        <h2>Reward distribution</h2>
        {s ? (
          <span className="muted" data-testid="run-summary">
            mean {Number.isNaN(s.mean) ? '—' : s.mean.toFixed(4)} · {s.ok.toLocaleString('en-US')} scored
            {s.nulls ? ` · ${s.nulls} null` : ''}
            {s.errors ? ` · ${s.errors} errors` : ''}
            {s.timedOut ? ` · ${s.timedOut} timed out` : ''}
            {run?.cancelled ? ' · cancelled' : ''}
          </span>
        ) : null}
        {running && run ? <span className="stale-tag">updating…</span> : null}
      </div>
      <figure className={running && run ? 'chart stale' : 'chart'} aria-label="Reward histogram" data-bins={data.length}>
        {h && h.n > 0 ? (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 11 }} />
              <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={44} />
              <Tooltip formatter={(v) => [v, 'rollouts']} />
              <Bar
                dataKey="count"
                fill="#1f6feb"
                isAnimationActive={false}
                cursor="pointer"
                onClick={(_d, index) => {
                  if (!h || !run) return;
                  setSubset({ label: `reward ${data[index].label}`, rows: rowsInBin(run.result.scores, h, index) });
                }}
              />
            </BarChart>
          </ResponsiveContainer>
        ) : (
          <p className="muted empty-chart">{run ? 'No scored rollouts in this run.' : running ? 'Scoring…' : 'Run a reward to see its distribution.'}</p>
        )}
      </figure>
    </section>
  );
}
