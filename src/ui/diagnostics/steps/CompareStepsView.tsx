import { useMemo, useState } from 'react';
import type { Dataset } from '../../../core/dataset/dataset';
import { overlayHistogram } from '../../../core/stats/histogram';
import { rowsInBin } from '../../../core/stats/rowsInBin';
import { compareSteps, promptIndex } from '../../../core/steps/prompts';
import { useStudio } from '../../../store';
import { binName, HistogramChart } from '../../charts/HistogramChart';
import { fmt } from '../format';
import { ScatterCanvas } from '../ScatterCanvas';

const COLOR_A = '#bf8700';
const COLOR_B = '#1f6feb';
const MAX_LISTED = 20;

/**
 * Two steps compared as the Compare tab compares two runs. Their rows are different rollouts, so what is compared is
 * the two reward distributions and, for the prompts sampled at both steps, each prompt's mean reward.
 */
export function CompareStepsView({ ds, values, steps }: { ds: Dataset; values: Float64Array; steps: Float64Array }) {
  const setSubset = useStudio((s) => s.setSubset);
  const [pick, setPick] = useState<{ a: number; b: number }>({ a: steps[0], b: steps[steps.length - 1] });
  const a = steps.includes(pick.a) ? pick.a : steps[0];
  const b = steps.includes(pick.b) ? pick.b : steps[steps.length - 1];
  const index = useMemo(() => promptIndex(ds.groupKeys, ds.groupOf), [ds]);
  const cmp = useMemo(() => compareSteps(index, values, ds.steps, a, b), [index, values, ds, a, b]);
  // Each step's rewards and the rows they come from: the histogram takes only these two steps' rows, not every row.
  const hist = useMemo(() => {
    const rowsA: number[] = [];
    const rowsB: number[] = [];
    for (let i = 0; i < values.length; i++) {
      if (ds.steps[i] === a) rowsA.push(i);
      if (ds.steps[i] === b) rowsB.push(i);
    }
    const va = Float64Array.from(rowsA, (i) => values[i]);
    const vb = Float64Array.from(rowsB, (i) => values[i]);
    const { histogram, counts } = overlayHistogram([va, vb], { maxBins: 30 });
    return { rowsA, rowsB, va, vb, histogram, counts };
  }, [values, ds, a, b]);
  const points = useMemo(() => Array.from(cmp.promptIds, (p, k) => ({ x: cmp.meansA[k], y: cmp.meansB[k], row: p })), [cmp]);
  const openPrompt = (p: number) => {
    const rows: number[] = [];
    for (let i = 0; i < values.length; i++) if (index.promptOf[i] === p && (ds.steps[i] === a || ds.steps[i] === b)) rows.push(i);
    setSubset({ label: `prompt ${index.keys[p].slice(0, 40)} · steps ${fmt(a)} and ${fmt(b)}`, rows: Int32Array.from(rows) });
  };
  const stepSelect = (label: string, value: number, set: (v: number) => void) => (
    <label>
      {label}{' '}
      <select aria-label={label} value={value} onChange={(e) => set(Number(e.target.value))}>
        {Array.from(steps, (s) => (
          <option key={s} value={s}>
            {fmt(s)}
          </option>
        ))}
      </select>
    </label>
  );
  const changed = Array.from(cmp.byPrompt.changed.subarray(0, MAX_LISTED));
  return (
    <div className="diag-split">
      <div className="diag-charts" role="group" aria-label="Charts" tabIndex={0}>
        <figure className="chart" aria-label="Reward distributions of the two steps">
          <HistogramChart
            label="Histogram bins of the two steps"
            valueName="reward"
            histogram={hist.histogram}
            series={[
              { name: `step ${fmt(a)}`, color: COLOR_A, counts: hist.counts[0] },
              { name: `step ${fmt(b)}`, color: COLOR_B, counts: hist.counts[1] },
            ]}
            onOpenBin={(bin) => {
              const ra = Array.from(rowsInBin(hist.va, hist.histogram, bin), (k) => hist.rowsA[k]);
              const rb = Array.from(rowsInBin(hist.vb, hist.histogram, bin), (k) => hist.rowsB[k]);
              const rows = Int32Array.from(new Set([...ra, ...rb])).sort();
              setSubset({ label: `reward ${binName(hist.histogram, bin)} · steps ${fmt(a)} and ${fmt(b)}`, rows });
            }}
          />
        </figure>
        <figure className="chart" aria-label="Per-prompt mean reward, step A vs step B" data-points={points.length}>
          <ScatterCanvas
            label="Per-prompt mean reward, step A vs step B"
            points={points}
            xLabel={`mean reward at step ${fmt(a)}`}
            yLabel={`at step ${fmt(b)}`}
            onPoint={openPrompt}
          />
        </figure>
      </div>
      <div className="diag-side">
        {stepSelect('Step A', a, (v) => setPick({ a: v, b }))}
        {stepSelect('Step B', b, (v) => setPick({ a, b: v }))}
        <p className="muted small">
          The two steps hold different rollouts: compared are their reward distributions, and the mean reward of each prompt sampled at both steps.
        </p>
        <dl className="stats" aria-label="Step comparison">
          <dt>mean ± std, step A</dt>
          <dd>
            {fmt(cmp.a.mean)} ± {fmt(cmp.a.std)} ({cmp.a.n.toLocaleString('en-US')} scored)
          </dd>
          <dt>mean ± std, step B</dt>
          <dd>
            {fmt(cmp.b.mean)} ± {fmt(cmp.b.std)} ({cmp.b.n.toLocaleString('en-US')} scored)
          </dd>
          <dt>change of the mean</dt>
          <dd>{fmt(cmp.meanChange)}</dd>
          <dt>prompts at both steps</dt>
          <dd>{cmp.prompts.toLocaleString('en-US')}</dd>
          <dt>mean per-prompt change</dt>
          <dd>{fmt(cmp.meanPromptChange)}</dd>
          <dt>Spearman ρ of prompt means</dt>
          <dd>{fmt(cmp.byPrompt.spearman)}</dd>
          <dt>Pearson r of prompt means</dt>
          <dd>{fmt(cmp.byPrompt.pearson)}</dd>
        </dl>
        {changed.length > 0 ? (
          <>
            <h3 className="small">Prompts that changed most</h3>
            <ul className="group-list" aria-label="Prompts that changed most">
              {changed.map((k) => {
                const p = cmp.promptIds[k];
                return (
                  <li key={p}>
                    <button type="button" className="link" onClick={() => openPrompt(p)} title={index.keys[p].slice(0, 300)}>
                      {index.keys[p].slice(0, 60)}
                    </button>{' '}
                    <span className="muted">
                      {fmt(cmp.meansA[k], 3)} → {fmt(cmp.meansB[k], 3)}
                    </span>
                  </li>
                );
              })}
            </ul>
          </>
        ) : null}
      </div>
    </div>
  );
}
