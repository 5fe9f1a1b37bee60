import { useMemo, useState } from 'react';
import type { Dataset } from '../../../core/dataset/dataset';
import { promptIndex, promptOverSteps, promptsAcrossSteps } from '../../../core/steps/prompts';
import { useStudio } from '../../../store';
import { fmt } from '../format';
import { ScatterCanvas } from '../ScatterCanvas';

/** Prompts listed at once (the search narrows the rest down). */
const MAX_LISTED = 200;
/** Rollouts of one prompt drawn as points at most. */
const MAX_POINTS = 3000;

/** One prompt across steps: its mean reward per step, each rollout a point (click opens it), its rollouts in the table. */
export function PromptView({ ds, values }: { ds: Dataset; values: Float64Array }) {
  const selectRow = useStudio((s) => s.selectRow);
  const setSubset = useStudio((s) => s.setSubset);
  const index = useMemo(() => promptIndex(ds.groupKeys, ds.groupOf), [ds]);
  const listed = useMemo(() => promptsAcrossSteps(index, ds.steps), [index, ds]);
  // What people see of a prompt: the group's label (the file's group value, or the prompt hash), then its text.
  const labelOf = useMemo(() => {
    const at = new Map(index.keys.map((k, p) => [k, p]));
    const first = new Int32Array(index.keys.length).fill(-1);
    for (let g = 0; g < ds.groupKeys.length; g++) {
      const p = at.get(ds.groupKeys[g]) ?? -1;
      if (p >= 0 && first[p] < 0) first[p] = g;
    }
    return (p: number) => {
      const g = Math.max(0, first[p]);
      const text = index.keys[p];
      return ds.groupLabels[g] === text ? text.slice(0, 120) : `${ds.groupLabels[g]} · ${text.slice(0, 100)}`;
    };
  }, [ds, index]);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<number | null>(null);
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    const hit = q ? listed.filter((p) => p.key.toLowerCase().includes(q) || labelOf(p.prompt).toLowerCase().includes(q)) : listed;
    return hit.slice(0, MAX_LISTED);
  }, [listed, query, labelOf]);
  const prompt = picked !== null && listed.some((p) => p.prompt === picked) ? picked : (listed[0]?.prompt ?? null);
  const one = useMemo(() => (prompt === null ? null : promptOverSteps(index, prompt, values, ds.steps)), [index, prompt, values, ds]);
  const chart = useMemo(() => {
    if (!one) return null;
    const points: { x: number; y: number; row: number }[] = [];
    for (const i of one.rows) if (Number.isFinite(values[i]) && points.length < MAX_POINTS) points.push({ x: ds.steps[i], y: values[i], row: i });
    const line = one.perStep.flatMap((s, bin) => (Number.isFinite(s.mean) ? [{ x: s.step, y: s.mean, bin }] : []));
    return { points, line };
  }, [one, values, ds]);
  if (listed.length === 0) {
    return <p className="muted empty-chart">No prompt occurs at two or more steps: each prompt was sampled at one step only.</p>;
  }
  const openStepOfPrompt = (bin: number) => {
    if (!one || prompt === null) return;
    const s = one.perStep[bin].step;
    setSubset({ label: `prompt ${labelOf(prompt).slice(0, 40)} · step ${fmt(s)}`, rows: one.rows.filter((i) => ds.steps[i] === s) });
  };
  return (
    <div className="diag-split">
      <div className="diag-charts" role="group" aria-label="Charts" tabIndex={0}>
        <figure className="chart" aria-label="Prompt over steps" data-points={chart?.points.length ?? 0}>
          {chart ? (
            <ScatterCanvas
              label="Prompt's rewards over steps"
              points={chart.points}
              line={chart.line}
              xLabel="step"
              yLabel="reward"
              onPoint={selectRow}
              onLinePoint={openStepOfPrompt}
            />
          ) : null}
        </figure>
        <p className="muted small">
          Points: each rollout of this prompt (click one to open it); line: the prompt&apos;s mean reward per step (click to list that step&apos;s rollouts).
        </p>
      </div>
      <div className="diag-side">
        <label>
          Search prompts{' '}
          <input type="search" aria-label="Search prompts" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="text or group" />
        </label>
        <p className="muted small">
          {listed.length.toLocaleString('en-US')} prompts occur at two or more steps (most steps first)
          {matches.length < listed.length ? `; ${matches.length} shown` : ''}.
        </p>
        <select aria-label="Prompt" size={8} value={prompt ?? ''} onChange={(e) => setPicked(Number(e.target.value))} style={{ width: '100%' }}>
          {matches.map((p) => (
            <option key={p.prompt} value={p.prompt}>
              {p.steps} steps · {labelOf(p.prompt)}
            </option>
          ))}
        </select>
        {one && prompt !== null ? (
          <>
            <button type="button" onClick={() => setSubset({ label: `prompt ${labelOf(prompt).slice(0, 40)} · all steps`, rows: one.rows })}>
              Open this prompt&apos;s rollouts ({one.rows.length.toLocaleString('en-US')})
            </button>
            <table className="num-table" aria-label="Prompt's mean reward per step">
              <thead>
                <tr>
                  <th scope="col">step</th>
                  <th scope="col">rollouts</th>
                  <th scope="col">mean reward</th>
                </tr>
              </thead>
              <tbody>
                {one.perStep.map((s, bin) => (
                  <tr key={s.step}>
                    <th scope="row">
                      <button
                        type="button"
                        className="link"
                        aria-label={`Open this prompt's rollouts at step ${fmt(s.step)}`}
                        onClick={() => openStepOfPrompt(bin)}
                      >
                        {fmt(s.step)}
                      </button>
                    </th>
                    <td>{s.rows}</td>
                    <td>{fmt(s.mean, 3)}</td>
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
