import type { Dataset } from '../../core/dataset/dataset';
import { MAX_POINTS } from '../../core/stats/figures';
import { rowsInBin } from '../../core/stats/rowsInBin';
import { TOKENIZERS } from '../../core/tokenize/tokenizers';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { fmt } from './format';
import { scoredOf } from '../../app/keptFigures';
import { figure } from '../../app/figures';
import { Computing } from './Computing';
import { useFigure } from './useFigure';
import { rangeLabel } from '../charts/axis';
import { ScatterCanvas } from './ScatterCanvas';
import { useTokenCounts } from './useDataColumns';

/** Reward against completion length, in characters or tokens: scatter, binned means, Pearson / Spearman / within-group. */
export function LengthTab({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const unit = useStudio((s) => s.lengthUnit);
  const setUnit = useStudio((s) => s.setLengthUnit);
  const tokenizer = useStudio((s) => s.tokenizer);
  const selectRow = useStudio((s) => s.selectRow);
  const setSubset = useStudio((s) => s.setSubset);
  const tokens = useTokenCounts(ds, tokenizer, unit === 'tokens');
  const lengths: Int32Array | null = unit === 'chars' ? ds.charLengths : tokens.status === 'ready' ? tokens.counts : null;
  const values = scoredOf(run.result);
  // Kept per (run, lengths): drawing the tab again, or switching the unit back, does not rank a million rows again.
  const fig = useFigure(lengths ? figure({ kind: 'length', values, lengths, groupOf: ds.groupOf, groupCount: ds.groupKeys.length }) : null);
  const stats = fig.value;
  const chart = fig.value;
  const unitLabel = unit === 'chars' ? 'characters' : `${TOKENIZERS[tokenizer].label} tokens`;
  return (
    <div className="diag-split">
      <figure className="chart" aria-label="Reward vs length" data-points={chart?.points.length ?? 0}>
        {lengths && !chart ? (
          <Computing rows={values.length} error={fig.error} />
        ) : chart ? (
          <ScatterCanvas
            label="Reward vs length"
            points={chart.points}
            line={chart.bins}
            xLabel={`length (${unitLabel})`}
            yLabel="reward"
            onPoint={selectRow}
            onLinePoint={(bin) => {
              const b = chart.h.bins[bin];
              setSubset({
                label: `length ${rangeLabel(b.x0, b.x1)} ${unit === 'chars' ? 'chars' : 'tokens'}`,
                rows: rowsInBin(chart.scoredLengths, chart.h, bin),
              });
            }}
          />
        ) : (
          <p className="muted empty-chart" role="status">
            {tokens.status === 'failed'
              ? `Token counts failed: ${tokens.message}`
              : `Counting ${TOKENIZERS[tokenizer].label} tokens…${tokens.status === 'loading' && tokens.total ? ` ${(tokens.done ?? 0).toLocaleString('en-US')} / ${tokens.total.toLocaleString('en-US')} completions` : ''}`}
          </p>
        )}
      </figure>
      <div className="diag-side">
        <label>
          Length in{' '}
          <select aria-label="Length unit" value={unit} onChange={(e) => setUnit(e.target.value as 'chars' | 'tokens')}>
            <option value="chars">characters</option>
            <option value="tokens">tokens ({TOKENIZERS[tokenizer].label})</option>
          </select>
        </label>
        <p className="muted small">
          Tokenizer: the editor's Tokenizer menu. Blue: rollouts (up to {MAX_POINTS.toLocaleString('en-US')} drawn); red: mean reward per length bin (click to
          open its rollouts).
        </p>
        <dl className="stats" aria-label="Length correlation">
          <dt>Pearson r</dt>
          <dd>{fmt(stats?.pearson)}</dd>
          <dt>Spearman ρ</dt>
          <dd>{fmt(stats?.spearman)}</dd>
          <dt>within-group r (mean)</dt>
          <dd>
            {fmt(stats?.within.mean)} <span className="muted">over {stats?.within.groups ?? 0} groups</span>
          </dd>
        </dl>
      </div>
    </div>
  );
}
