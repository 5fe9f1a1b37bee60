import { useEffect, useMemo } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import { defaultLabelColumn } from '../../core/dataset/labelChoice';
import { labelCheck } from '../../core/stats/label';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { fmt, pct } from './format';
import { useLabelColumns } from './useDataColumns';
import { scoredOf } from '../../app/keptFigures';

/** Agreement of the reward with a trusted label column (e.g. `is_correct_openai`): confusion table or correlations. */
export function LabelTab({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const columns = useLabelColumns(ds);
  const picked = useStudio((s) => s.labelColumn);
  const setPicked = useStudio((s) => s.setLabelColumn);
  const setSubset = useStudio((s) => s.setSubset);
  const col = columns?.find((c) => c.name === picked) ?? null;
  // Pick a column for the user when there is one: a verdict such as `is_correct` first (core/dataset/labelChoice).
  useEffect(() => {
    if (columns && columns.length > 0 && !columns.some((c) => c.name === picked)) setPicked(defaultLabelColumn(columns) ?? columns[0].name);
  }, [columns, picked, setPicked]);
  const values = scoredOf(run.result);
  const check = useMemo(() => (col ? labelCheck(values, col.values) : null), [values, col]);
  if (columns === null) return <p className="muted empty-chart">Reading the columns…</p>;
  if (columns.length === 0) {
    return <p className="muted empty-chart">No column of this dataset holds a boolean or numeric label to check the reward against.</p>;
  }
  return (
    <div className="diag-split">
      <div className="diag-charts" role="group" aria-label="Charts" tabIndex={0}>
        {check?.binary && check.confusion ? (
          <table className="confusion" aria-label="Confusion table">
            <thead>
              <tr>
                <th scope="col">reward \ label</th>
                <th scope="col">label 1</th>
                <th scope="col">label 0</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">reward 1</th>
                <td>{check.confusion.tp}</td>
                <td className="bad">{check.confusion.fp}</td>
              </tr>
              <tr>
                <th scope="row">reward 0</th>
                <td className="bad">{check.confusion.fn}</td>
                <td>{check.confusion.tn}</td>
              </tr>
            </tbody>
          </table>
        ) : (
          <p className="muted">The reward or the label is not 0/1, so there is no confusion table: see the correlations.</p>
        )}
      </div>
      <div className="diag-side">
        <label>
          Trusted label{' '}
          <select aria-label="Trusted label" value={col?.name ?? ''} onChange={(e) => setPicked(e.target.value)}>
            {columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
                {c.binary ? ' (0/1)' : ''}
              </option>
            ))}
          </select>
        </label>
        <dl className="stats" aria-label="Label agreement">
          <dt>rows compared</dt>
          <dd>{check?.n.toLocaleString('en-US') ?? '—'}</dd>
          <dt>agreement</dt>
          <dd>{check?.agreement === null || check === null ? '—' : pct(check.agreement)}</dd>
          <dt>Pearson r</dt>
          <dd>{fmt(check?.pearson)}</dd>
          <dt>Spearman ρ</dt>
          <dd>{fmt(check?.spearman)}</dd>
        </dl>
        {check && check.disagreements.length > 0 ? (
          <button
            type="button"
            onClick={() =>
              setSubset({ label: check.binary ? `disagrees with ${col?.name}` : `ranks differ most from ${col?.name}`, rows: check.disagreements })
            }
          >
            Open disagreements ({check.disagreements.length.toLocaleString('en-US')})
          </button>
        ) : null}
      </div>
    </div>
  );
}
