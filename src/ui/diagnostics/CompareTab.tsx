import { diffLines } from 'diff';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { fmt } from './format';
import { ScatterCanvas } from './ScatterCanvas';
import { scoredOf } from '../../app/keptFigures';
import { figure } from '../../app/figures';
import { Computing } from './Computing';
import { useFigure } from './useFigure';

const MAX_LISTED = 25;

const runLabel = (r: RunRecord) => `#${r.id} · ${new Date(r.startedAt).toLocaleTimeString('en-GB')} · mean ${fmt(r.summary.mean, 3)}`;

/** Two runs of the history side by side: scatter of scores, rank correlations, the rollouts that changed most, the code diff. */
export function CompareTab({ runs }: { runs: RunRecord[] }) {
  const pick = useStudio((s) => s.compare);
  const setPick = useStudio((s) => s.setCompare);
  const selectRow = useStudio((s) => s.selectRow);
  const setSubset = useStudio((s) => s.setSubset);
  const byId = (id: number | null) => runs.find((r) => r.id === id) ?? null;
  const b = byId(pick.b) ?? runs[runs.length - 1] ?? null;
  const a = byId(pick.a) ?? runs.filter((r) => r !== b).at(-1) ?? null;
  const va = a ? scoredOf(a.result) : null;
  const vb = b ? scoredOf(b.result) : null;
  // The comparison and its points (changed rows first), in the stats worker on large data; kept per pair of runs.
  const fig = useFigure(va && vb && va.length === vb.length ? figure({ kind: 'compare', a: va, b: vb }) : null);
  const cmp = fig.value;
  // Memoized by the React compiler (a manual useMemo here could not be preserved beside the figure call above).
  const diff = a && b ? diffLines(a.code, b.code) : [];
  if (runs.length < 2 || !a || !b) return <p className="muted empty-chart">Run the reward twice (edit it in between) to compare two runs.</p>;
  const select = (which: 'a' | 'b', id: number) => setPick({ ...pick, a: a.id, b: b.id, [which]: id });
  return (
    <div className="diag-split">
      <div className="diag-charts" role="group" aria-label="Charts" tabIndex={0}>
        <figure className="chart" aria-label="Run A vs run B" data-points={cmp?.points.length ?? 0}>
          {fig.computing || fig.error ? (
            <Computing rows={va?.length ?? 0} error={fig.error} />
          ) : (
            <ScatterCanvas label="Run A vs run B" points={cmp?.points ?? []} xLabel={`run #${a.id}`} yLabel={`run #${b.id}`} onPoint={selectRow} />
          )}
        </figure>
        <pre className="code-diff" aria-label="Code diff" tabIndex={0}>
          {diff.map((part, i) => (
            <span key={i} className={part.added ? 'diff-add' : part.removed ? 'diff-del' : 'diff-same'}>
              {part.value
                .replace(/\n$/, '')
                .split('\n')
                .map((l) => `${part.added ? '+' : part.removed ? '-' : ' '} ${l}`)
                .join('\n') + '\n'}
            </span>
          ))}
        </pre>
      </div>
      <div className="diag-side">
        <RunSelect label="Run A" runs={runs} value={a.id} onChange={(id) => select('a', id)} />
        <RunSelect label="Run B" runs={runs} value={b.id} onChange={(id) => select('b', id)} />
        <dl className="stats" aria-label="Run comparison">
          <dt>rows scored in both</dt>
          <dd>{cmp?.n.toLocaleString('en-US') ?? '—'}</dd>
          <dt>Spearman ρ</dt>
          <dd>{fmt(cmp?.spearman)}</dd>
          <dt>Kendall τ-b</dt>
          <dd>{fmt(cmp?.kendall)}</dd>
          <dt>Pearson r</dt>
          <dd>{fmt(cmp?.pearson)}</dd>
          {cmp?.flips ? (
            <>
              <dt>flips 0→1 / 1→0</dt>
              <dd>
                {cmp.flips.up} / {cmp.flips.down}
              </dd>
            </>
          ) : null}
          <dt>changed</dt>
          <dd>{cmp?.changed.length.toLocaleString('en-US') ?? '—'}</dd>
        </dl>
        {cmp && cmp.changed.length > 0 ? (
          <>
            <button type="button" onClick={() => setSubset({ label: `changed between #${a.id} and #${b.id}`, rows: cmp.changed })}>
              Open changed rollouts ({cmp.changed.length.toLocaleString('en-US')})
            </button>
            <ul className="group-list" aria-label="Most changed rollouts">
              {Array.from(cmp.changed.subarray(0, MAX_LISTED)).map((r) => (
                <li key={r}>
                  <button type="button" className="link" onClick={() => selectRow(r)}>
                    row {r}
                  </button>{' '}
                  <span className="muted">
                    {fmt(va?.[r], 3)} → {fmt(vb?.[r], 3)}
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </div>
  );
}

function RunSelect({ label, runs, value, onChange }: { label: string; runs: RunRecord[]; value: number; onChange(id: number): void }) {
  return (
    <label>
      {label}{' '}
      <select aria-label={label} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {runLabel(r)}
          </option>
        ))}
      </select>
    </label>
  );
}
