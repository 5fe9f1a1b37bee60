import { useMemo, useState } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import { sameScores, shapingTruncation, type ShapingSide } from '../../core/shaping/compare';
import { exportShapingTs } from '../../core/shaping/exportTs';
import { applyShaping } from '../../core/shaping/shape';
import { rowsInBin } from '../../core/stats/rowsInBin';
import { PRESETS } from '../../core/stats/advantage';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { binName, HistogramChart } from '../charts/HistogramChart';
import { fmt, pct } from '../diagnostics/format';
import { TransformList } from './TransformList';
import { useShapingInputs } from './useShapingInputs';
import { scoredOf } from '../../app/keptFigures';
import { figure } from '../../app/figures';
import { Computing } from '../diagnostics/Computing';
import { useFigure } from '../diagnostics/useFigure';

const TRUNCATION_SOURCE = {
  fields: 'from the rows’ finish reason',
  'dapo-max': 'length ≥ the dapo-overlong max',
  unknown: 'unknown: no finish reason, no dapo-overlong',
} as const;

/** Figures drawn raw | shaped, each row one diagnostic. */
const ROWS: [string, (s: ShapingSide) => string][] = [
  ['mean', (s) => fmt(s.reward.mean)],
  ['std', (s) => fmt(s.reward.std)],
  ['min / max', (s) => `${fmt(s.reward.min, 3)} / ${fmt(s.reward.max, 3)}`],
  ['distinct values', (s) => String(s.reward.distinct)],
  ['Pearson with length (chars)', (s) => fmt(s.length.pearson, 3)],
  ['Spearman with length', (s) => fmt(s.length.spearman, 3)],
  ['within-group Pearson', (s) => fmt(s.length.withinGroupPearson, 3)],
  ['zero-std groups', (s) => pct(s.collapse.zeroStdGroupFraction)],
  ['· all truncated', (s) => pct(s.collapse.truncatedZeroStdFraction)],
  ['· all max / all min / other', (s) => `${pct(s.collapse.allMaxFraction)} / ${pct(s.collapse.allMinFraction)} / ${pct(s.collapse.otherZeroStdFraction)}`],
  ['low-std groups (0 < std < floor)', (s) => pct(s.lowStd.fraction)],
  ['· floor', (s) => fmt(s.lowStd.floor, 6)],
  ['· largest |advantage| there', (s) => fmt(s.lowStd.maxAbsAdvantage, 3)],
  ['rollouts with zero advantage', (s) => pct(s.collapse.zeroAdvantageRolloutFraction)],
];

/** The Shaping step: a list of transforms of the reward, and the raw and shaped reward side by side. */
export function ShapingTab({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const shaping = useStudio((s) => s.shaping);
  const preset = useStudio((s) => s.preset);
  const setSubset = useStudio((s) => s.setSubset);
  const shapeDiagnostics = useStudio((s) => s.shapeDiagnostics);
  const setShapeDiagnostics = useStudio((s) => s.setShapeDiagnostics);
  const inputs = useShapingInputs(ds, shaping);
  // The low-std floor as typed: empty is the default (1e-3 of each side's range); anything else must be a number ≥ 0.
  const [floorText, setFloorText] = useState('');
  const floorValue = floorText.trim() === '' ? null : Number(floorText);
  const floorBad = floorValue !== null && !(Number.isFinite(floorValue) && floorValue >= 0);
  const floor = floorBad ? null : floorValue;
  const raw = scoredOf(run.result);
  const shaped = useMemo((): { values: Float64Array } | { error: string } | null => {
    if (inputs.waiting) return null;
    try {
      const input = { groupOf: ds.groupOf, groupCount: ds.groupKeys.length, lengths: inputs.lengths, columns: inputs.columns, steps: run.result.steps ?? null };
      return { values: applyShaping(raw, shaping, input) };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [raw, shaping, ds, inputs.waiting, inputs.lengths, inputs.columns, run]);
  const values = shaped && 'values' in shaped ? shaped.values : null;
  // On the two inputs it reads, not the hook's object (new every render): a new `cut` would recompute both sides.
  const cut = useMemo(() => shapingTruncation(inputs.fromFields, inputs.lengths, shaping), [inputs.fromFields, inputs.lengths, shaping]);
  // Each side in the stats worker on large data, kept per (scores, inputs): the raw side is computed once, not again
  // when the shaped scores arrive (the columns are fetched after the first render).
  const side = { groupOf: ds.groupOf, groupCount: ds.groupKeys.length, lengths: ds.charLengths, preset, truncated: cut.truncated, floor };
  // No shaping leaves the raw scores as they were: the raw side's figures then serve both sides.
  const same = useMemo(() => (values ? sameScores(raw, values) : false), [raw, values]);
  const rawSide = useFigure(figure({ kind: 'shaping-side', values: raw, ...side }));
  const shapedSide = useFigure(values ? figure({ kind: 'shaping-side', values: same ? raw : values, ...side }) : null);
  const sides = { raw: rawSide.value, shaped: shapedSide.value };
  const computing = rawSide.computing || shapedSide.computing;
  return (
    <div className="diag-split">
      <div className="diag-charts" role="group" aria-label="Charts" tabIndex={0}>
        <Hist label="Raw reward histogram" what="raw reward" values={raw} binned={raw} onOpen={(label, rows) => setSubset({ label, rows })} />
        {values ? (
          <Hist
            label="Shaped reward histogram"
            what="shaped reward"
            values={values}
            binned={same ? raw : values}
            onOpen={(label, rows) => setSubset({ label, rows })}
          />
        ) : (
          <p className="muted empty-chart" role="status">
            {shaped && 'error' in shaped ? shaped.error : (inputs.waiting ?? '')}
          </p>
        )}
      </div>
      <div className="diag-side">
        <TransformList />
        <label>
          <input type="checkbox" checked={shapeDiagnostics} onChange={(e) => setShapeDiagnostics(e.target.checked)} /> Show the shaped reward in the other
          diagnostics tabs
        </label>
        <p>
          <button
            type="button"
            disabled={shaping.length === 0}
            onClick={() => downloadTs(exportShapingTs(shaping))}
            title="A TypeScript module with no imports: shape(rewards, rows)"
          >
            Export shaping (TypeScript)
          </button>
        </p>
        <table className="shaping-compare" aria-label="Raw and shaped">
          <thead>
            <tr>
              <th scope="col">under {PRESETS[preset].label}</th>
              <th scope="col">raw</th>
              <th scope="col">shaped</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([name, f]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{sides.raw ? f(sides.raw) : '—'}</td>
                <td>{sides.shaped ? f(sides.shaped) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {computing || rawSide.error || shapedSide.error ? <Computing rows={raw.length} error={rawSide.error ?? shapedSide.error} /> : null}
        <p className="muted small">Truncated rollouts: {TRUNCATION_SOURCE[cut.source]}.</p>
        <label>
          Low-std floor{' '}
          <input type="text" size={8} aria-label="Low-std floor" placeholder="1e-3 × range" value={floorText} onChange={(e) => setFloorText(e.target.value)} />
        </label>
        {floorBad ? (
          <p role="alert" className="error small">
            invalid floor: {floorText} (a number ≥ 0; empty for 1e-3 of the range)
          </p>
        ) : null}
      </div>
    </div>
  );
}

function Hist({
  label,
  what,
  values,
  binned,
  onOpen,
}: {
  label: string;
  what: string;
  values: Float64Array;
  /** The array the bins are computed (and kept) for: `values`, or an equal array whose bins are already known. */
  binned: Float64Array;
  onOpen(label: string, rows: Int32Array): void;
}) {
  const fig = useFigure(figure({ kind: 'histogram', values: binned, maxBins: 40 }));
  const h = fig.value;
  const series = useMemo(
    () => (h ? [{ name: what, color: what === 'raw reward' ? '#6e7781' : '#1f6feb', counts: h.bins.map((b) => b.count) }] : []),
    [h, what],
  );
  if (!h) return <Computing rows={values.length} error={fig.error} />;
  return (
    <figure className="chart" aria-label={label} data-bins={h.bins.length}>
      <figcaption className="muted small">{what}</figcaption>
      {h.bins.length ? (
        <HistogramChart
          label={`${label} bins`}
          valueName={what}
          histogram={h}
          series={series}
          onOpenBin={(b) => onOpen(`${what} ${binName(h, b)}`, rowsInBin(values, h, b))}
        />
      ) : (
        <p className="muted empty-chart">No scored rollouts.</p>
      )}
    </figure>
  );
}

/** Save the module as shaping.ts (a local download: nothing leaves the machine). */
function downloadTs(text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/typescript' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'shaping.ts';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
