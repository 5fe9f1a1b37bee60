import { useMemo, useState } from 'react';
import { ensembleOf } from '../../app/ensemble';
import { previewOf } from '../../core/dataset/dataset';
import { ensembleSummary } from '../../core/models/ensemble';
import { sampleRows } from '../../core/stats/sample';
import { getDataset } from '../../runtime/datasetRegistry';
import { useStudio } from '../../store';
import { ScatterCanvas } from '../diagnostics/ScatterCanvas';

/** Rows listed under "Where the models disagree most", and points drawn in its chart (the line uses every row). */
const TOP = 20;
const MAX_POINTS = 2000;
const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const n = (x: number) => x.toLocaleString('en-US');

/**
 * With two or more models scored on the loaded rollouts: how the models agree (Pearson / Spearman per pair), their
 * disagreement (std across models per rollout) and where it concentrates (Coste et al. 2023; Eisenstein et al. 2023).
 */
export function EnsembleCard() {
  const models = useStudio((s) => s.models);
  const datasetId = useStudio((s) => s.datasetId);
  const selectRow = useStudio((s) => s.selectRow);
  const [open, setOpen] = useState(false);
  const e = ensembleOf(models, datasetId);
  const ds = getDataset(datasetId);
  const view = useMemo(() => {
    if (!e || !ds || ds.charLengths.length !== e.rows.std.length) return null;
    const s = ensembleSummary(e.names, e.columns, { lengths: ds.charLengths, groupOf: ds.groupOf, groupCount: ds.groupKeys.length, topN: TOP });
    const std = e.rows.std;
    const points = sampleRows(std.length, (i) => !Number.isNaN(std[i]), MAX_POINTS).map((i) => ({ x: ds.charLengths[i], y: std[i], row: i }));
    return { s, points };
  }, [e, ds]);
  if (!e) return null;
  const names = e.names.map((x) => `ctx.models.${x}`).join(', ');
  return (
    <article className="model-card ensemble-card" aria-label="Ensemble">
      <div className="model-head">
        <strong>Ensemble of {e.names.length} models</strong>
        <code title={`mean, min and std across ${names}`}>ctx.models.ensemble</code>
        <span className="muted">
          {'{ mean, min, std }'} per rollout; scored by every model: {n(e.rows.scored)}
        </span>
      </div>
      {view ? (
        <>
          <p data-testid="ensemble-disagreement">
            Mean disagreement (std across models) <strong>{f(view.s.meanStd)}</strong> · median {f(view.s.stdQuantiles.q50)} · 90th percentile{' '}
            {f(view.s.stdQuantiles.q90)} · max {f(view.s.stdQuantiles.max)}
          </p>
          <table className="num-table" aria-label="Agreement between models">
            <thead>
              <tr>
                <th scope="col">Models</th>
                <th scope="col">Pearson</th>
                <th scope="col">Spearman</th>
              </tr>
            </thead>
            <tbody>
              {view.s.pairs.map((p) => (
                <tr key={`${p.a} ${p.b}`}>
                  <th scope="row">
                    {p.a} · {p.b}
                  </th>
                  <td>{f(p.pearson)}</td>
                  <td>{f(p.spearman)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="model-controls">
            <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
              Where the models disagree most
            </button>
            <span className="muted">Where they disagree, a policy can exploit one model's errors (overoptimization).</span>
          </div>
          {open ? (
            <>
              <div className="ensemble-where">
                <figure className="chart ensemble-chart" aria-label="Disagreement vs length" data-points={view.points.length}>
                  <ScatterCanvas
                    label="Disagreement vs length"
                    points={view.points}
                    line={view.s.byLength}
                    xLabel="length (characters)"
                    yLabel="std across models"
                    onPoint={selectRow}
                  />
                </figure>
                <ol className="ensemble-top" aria-label="Rollouts where the models disagree most">
                  {view.s.top.map((r) => (
                    <li key={r.index}>
                      <button type="button" aria-label={`Open rollout ${r.index}`} onClick={() => selectRow(r.index)}>
                        #{r.index}
                      </button>{' '}
                      std {f(r.std)} · mean {f(r.mean)} · min {f(r.min)} · {e.names.map((x, j) => `${x} ${f(e.columns[j][r.index])}`).join(' · ')}{' '}
                      <span className="muted">{previewOf(ds!, r.index).slice(0, 80)}</span>
                    </li>
                  ))}
                </ol>
              </div>
              {view.s.byGroup.length ? (
                <p className="muted" data-testid="ensemble-groups">
                  Groups that disagree most:{' '}
                  {view.s.byGroup
                    .slice(0, 5)
                    .map((g) => `${ds!.groupLabels[g.group]} (mean std ${f(g.meanStd)}, ${g.n} rollouts)`)
                    .join(' · ')}
                </p>
              ) : null}
            </>
          ) : null}
        </>
      ) : null}
    </article>
  );
}
