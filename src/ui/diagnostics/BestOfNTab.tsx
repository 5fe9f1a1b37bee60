import { useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Dataset } from '../../core/dataset/dataset';
import { defaultLabelColumn } from '../../core/dataset/labelChoice';
import { bestOfN } from '../../core/stats/preference';
import { useStudio } from '../../store';
import { useRunningLong } from './useRuns';
import { pct } from './format';
import { ScoreSourceSelect, usePickedSource } from './ScoreSourceSelect';
import { useLabelColumns } from './useDataColumns';
import { useScoreSources } from './useScoreSources';

/** Dots on the lines only while they stay readable. */
const MAX_DOTS = 24;

/**
 * Best-of-N with a trusted 0/1 label: in each group, the reward picks the top-scored of N rollouts drawn at random;
 * how often that pick is correct, against a random pick of the same N (core/stats/preference `bestOfN`, exact
 * expectations, no sampling). A reward that ranks well climbs above the random line as N grows.
 */
export function BestOfNTab({ ds }: { ds: Dataset }) {
  const sources = useScoreSources();
  const source = usePickedSource(sources);
  const running = useRunningLong();
  const columns = useLabelColumns(ds);
  // The trusted label is the one the Label check tab uses, when it is 0/1; else the first 0/1 column.
  const picked = useStudio((s) => s.labelColumn);
  const setPicked = useStudio((s) => s.setLabelColumn);
  const binary = useMemo(() => columns?.filter((c) => c.binary) ?? [], [columns]);
  const fallback = defaultLabelColumn(binary);
  const col = binary.find((c) => c.name === picked) ?? binary.find((c) => c.name === fallback) ?? binary[0] ?? null;
  const largestGroup = useMemo(() => ds.groupSizes.reduce((m, x) => Math.max(m, x), 0), [ds]);
  const r = useMemo(() => (source && col ? bestOfN(source.scores, source.status, ds.groupOf, ds.groupKeys.length, col.values) : null), [source, col, ds]);
  const data = useMemo(() => r?.byN.map((p) => ({ n: p.n, top: p.accuracy, random: p.baseline })) ?? [], [r]);
  if (columns === null) return <p className="muted empty-chart">Reading the columns…</p>;
  if (largestGroup < 2) {
    return <p className="muted empty-chart">Every group holds a single rollout: best-of-N needs groups of two or more rollouts of one prompt.</p>;
  }
  if (!col) {
    return (
      <p className="muted empty-chart">
        No binary label in this data: best-of-N needs a column that says per rollout whether it is correct (booleans or 0/1, like <code>is_correct</code>).
      </p>
    );
  }
  if (!source || !r) {
    return (
      <p className="muted empty-chart">
        {running ? 'Scoring…' : 'No run yet: run a reward (Run, or Ctrl/Cmd+Enter) to see how often its top pick among N rollouts is correct.'}
      </p>
    );
  }
  return (
    <div className="diag-split">
      <div className="diag-charts" role="group" aria-label="Charts" tabIndex={0}>
        <p className="muted small">
          Chance that the reward&apos;s top pick among N rollouts drawn from a group is correct ({col.name} = 1), against a random pick of the N; ties split
          evenly, groups smaller than N left out.
        </p>
        <figure className={running ? 'chart stale' : 'chart'} aria-label="Best-of-N chart" data-points={data.length}>
          {data.length > 0 ? (
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={data} margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="n" type="number" domain={[1, 'dataMax']} allowDecimals={false} tick={{ fontSize: 11 }} />
                <YAxis domain={[0, 1]} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} tick={{ fontSize: 11 }} width={44} />
                <Tooltip formatter={(v) => pct(Number(v))} labelFormatter={(n) => `N = ${n}`} />
                <Legend wrapperStyle={{ fontSize: 11 }} />
                <Line dataKey="top" name="reward's top pick" stroke="#1f6feb" dot={data.length <= MAX_DOTS} isAnimationActive={false} />
                <Line dataKey="random" name="random pick" stroke="#8c959f" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          ) : (
            <p className="muted empty-chart">No rollout has both a score from this source and a {col.name} label.</p>
          )}
        </figure>
      </div>
      <div className="diag-side">
        <ScoreSourceSelect sources={sources} value={source} />
        <label>
          Trusted label{' '}
          <select aria-label="Trusted label" value={col.name} onChange={(e) => setPicked(e.target.value)}>
            {binary.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} (0/1)
              </option>
            ))}
          </select>
        </label>
        <p className="muted small">
          {r.rows.toLocaleString('en-US')} rollouts with a score and a label, in {r.groups.toLocaleString('en-US')} groups
        </p>
        <table className="num-table" aria-label="Best-of-N accuracy">
          <thead>
            <tr>
              <th scope="col">N</th>
              <th scope="col">groups</th>
              <th scope="col">reward&apos;s top pick</th>
              <th scope="col">random pick</th>
            </tr>
          </thead>
          <tbody>
            {r.byN.map((p) => (
              <tr key={p.n}>
                <th scope="row">{p.n}</th>
                <td>{p.groups.toLocaleString('en-US')}</td>
                <td>{pct(p.accuracy)}</td>
                <td>{pct(p.baseline)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
