import { useEffect, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { GROUP_BY_COLUMNS, type Categories } from '../../core/dataset/categories';
import type { Dataset } from '../../core/dataset/dataset';
import { groupByStats } from '../../core/stats/groupBy';
import { fetchCategories } from '../../runtime/importClient';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { fmt } from './format';
import { useRunningLong } from './useRuns';

/** Values drawn and listed at most: a column of free text (a prompt) has as many values as rows. */
const MAX_SHOWN = 40;

// A dataset's columns never change once loaded: their categories are read from the data worker once.
const cache = new Map<string, Promise<Categories>>();

function useCategories(ds: Dataset, column: string | null): { column: string; c: Categories } | { error: string } | null {
  const [state, setState] = useState<{ key: string; v: { column: string; c: Categories } | { error: string } } | null>(null);
  const key = `${ds.id}\u0000${column}`;
  useEffect(() => {
    if (column === null) return;
    let p = cache.get(key);
    if (!p) {
      p = fetchCategories(ds, column);
      cache.set(key, p);
      p.catch(() => cache.delete(key));
    }
    let live = true;
    p.then(
      (c) => live && setState({ key, v: { column, c } }),
      (e: unknown) => live && setState({ key, v: { error: e instanceof Error ? e.message : String(e) } }),
    );
    return () => {
      live = false;
    };
  }, [ds, column, key]);
  return column !== null && state?.key === key ? state.v : null;
}

/** The reward per value of a column (e.g. `model`): rows, mean and population std, as a table and a bar chart. */
export function GroupByTab({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const columns = ds.detection.columns;
  // Kept in the store (saved with the session): a column this data lacks falls back to the default.
  const picked = useStudio((s) => s.groupByColumn);
  const setPicked = useStudio((s) => s.setGroupByColumn);
  const column = picked === '' ? null : picked !== null && columns.includes(picked) ? picked : (GROUP_BY_COLUMNS.find((c) => columns.includes(c)) ?? null);
  const running = useRunningLong();
  const got = useCategories(ds, column);
  const cats = got && 'c' in got ? got.c : null;
  const stats = useMemo(() => (cats ? groupByStats(run.result.scores, run.result.status, cats.codes, cats.values) : null), [run, cats]);
  const shown = useMemo(() => (stats ? [...stats].sort((a, b) => b.rows - a.rows).slice(0, MAX_SHOWN) : []), [stats]);
  const data = useMemo(() => shown.map((g) => ({ value: g.value, mean: Number.isNaN(g.mean) ? 0 : g.mean, std: Number.isNaN(g.std) ? 0 : g.std })), [shown]);
  const picker = (
    <label>
      Group by{' '}
      <select aria-label="Group by column" value={column ?? ''} onChange={(e) => setPicked(e.target.value)}>
        <option value="">(pick a column)</option>
        {columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
  let body;
  if (column === null) body = <p className="muted empty-chart">Pick a column (such as model) to see the reward per value.</p>;
  else if (got && 'error' in got)
    body = (
      <p className="error-text">
        The values of {column} could not be read: {got.error}
      </p>
    );
  else if (!cats || !stats)
    body = (
      <p className="muted empty-chart" role="status" aria-busy="true">
        Reading {column}…
      </p>
    );
  else if (cats.present === 0) body = <p className="muted empty-chart">No rollout has a value in {column}.</p>;
  else
    body = (
      <figure className={running ? 'chart stale' : 'chart'} aria-label="Reward by group chart" data-bars={data.length}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="value" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis tick={{ fontSize: 11 }} width={44} />
            <Tooltip formatter={(v) => fmt(Number(v))} />
            <Bar dataKey="mean" name="mean reward" fill="#1f6feb" fillOpacity={0.85} isAnimationActive={false}>
              <ErrorBar dataKey="std" width={4} stroke="#57606a" />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </figure>
    );
  return (
    <div className="diag-split">
      <div className="diag-charts">{body}</div>
      <div className="diag-side">
        {picker}
        {stats && cats && cats.present > 0 ? (
          <>
            <p className="muted small">
              {stats.length.toLocaleString('en-US')} values over {cats.present.toLocaleString('en-US')} rollouts
              {cats.present < ds.size ? ` (${(ds.size - cats.present).toLocaleString('en-US')} without ${column})` : ''}; mean and std (population) over scored
              rollouts; bars: mean ± std.
              {stats.length > shown.length ? ` The ${shown.length} values with the most rollouts are shown.` : ''}
            </p>
            <table className="num-table" aria-label="Reward by group">
              <thead>
                <tr>
                  <th scope="col">{column}</th>
                  <th scope="col">rows</th>
                  <th scope="col">mean</th>
                  <th scope="col">std</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((g) => (
                  <tr key={g.value}>
                    <th scope="row">{g.value}</th>
                    <td>{g.rows.toLocaleString('en-US')}</td>
                    <td>{fmt(g.mean)}</td>
                    <td>{fmt(g.std)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
      </div>
    </div>
  );
}
