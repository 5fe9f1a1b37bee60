import { useEffect, useId, useMemo, useState } from 'react';
import type { Dataset } from '../../../core/dataset/dataset';
import { defaultLabelColumn } from '../../../core/dataset/labelChoice';
import { MAX_STEPS_MAX_LENGTH } from '../../../core/session/schema';
import { distinctSteps } from '../../../core/stats/stepRows';
import { stepRows } from '../../../core/steps/overSteps';
import { TOKENIZERS } from '../../../core/tokenize/tokenizers';
import { useStudio } from '../../../store';
import type { RunRecord } from '../../../store/runsSlice';
import { fmt } from '../format';
import { useLabelColumns, useTokenCounts } from '../useDataColumns';
import { CompareStepsView } from './CompareStepsView';
import { PromptView } from './PromptView';
import { StepCharts } from './StepCharts';
import { StepTable } from './StepTable';
import { useOverSteps, type StepsRequest } from './useOverSteps';
import { scoredOf } from '../../../app/keptFigures';

type View = 'steps' | 'prompt' | 'compare';

const byDataset = new WeakMap<Dataset, { stepValues: Float64Array; order: Int32Array; start: Int32Array }>();
/**
 * The dataset's steps and the rows of each, kept per dataset: ~40 ms of the page's thread over a million rows, so made
 * only when a view needs them (a step opened, two steps compared), not to draw the tab.
 */
function stepsOf(ds: Dataset) {
  let s = byDataset.get(ds);
  if (!s) {
    const { values: stepValues, start, order } = stepRows(ds.steps);
    byDataset.set(ds, (s = { stepValues, start, order }));
  }
  return s;
}
const VIEWS: { id: View; label: string }[] = [
  { id: 'steps', label: 'Over steps' },
  { id: 'prompt', label: 'Per prompt' },
  { id: 'compare', label: 'Compare two steps' },
];

/** A whole number of at least 1 (and no more than a session may hold), else null: no maximum. */
function parseMaxLength(text: string): number | null {
  const t = text.trim();
  return /^\d+$/.test(t) && Number(t) >= 1 && Number(t) <= MAX_STEPS_MAX_LENGTH ? Number(t) : null;
}

export const TRUNCATION_RULE =
  'A rollout counts as truncated when its finish_reason or stop_reason is "length", "max_tokens" or "max_length", or its truncated / is_truncated field is true; ' +
  'a rollout with none of these counts as truncated when its length reaches the maximum completion length (when one is given).';

/**
 * A training run over its steps (issue 24): per-step figures and charts, one prompt across steps, and two steps
 * compared. Every number comes from core/steps; this component only picks columns and draws.
 */
export function OverStepsTab({ run, ds }: { run: RunRecord; ds: Dataset }) {
  const [view, setView] = useState<View>('steps');
  // The text as typed; the store (and so the session) keeps the number it parses to.
  const storedMax = useStudio((s) => s.stepsMaxLength);
  const setStoredMax = useStudio((s) => s.setStepsMaxLength);
  const [maxLength, setMaxLength] = useState(storedMax === null ? '' : String(storedMax));
  // A session opened meanwhile sets the store: the box follows (during render, as React advises for derived state).
  const [seenMax, setSeenMax] = useState(storedMax);
  if (seenMax !== storedMax) {
    setSeenMax(storedMax);
    if (parseMaxLength(maxLength) !== storedMax) setMaxLength(storedMax === null ? '' : String(storedMax));
  }
  const unit = useStudio((s) => s.lengthUnit);
  const setUnit = useStudio((s) => s.setLengthUnit);
  const tokenizer = useStudio((s) => s.tokenizer);
  const preset = useStudio((s) => s.preset);
  const picked = useStudio((s) => s.labelColumn);
  const setPicked = useStudio((s) => s.setLabelColumn);
  const setSubset = useStudio((s) => s.setSubset);
  const columns = useLabelColumns(ds);
  const id = useId();
  // The Label check tab's pick is this tab's too; a verdict such as `is_correct` is picked when none is.
  useEffect(() => {
    if (columns && columns.length > 0 && picked === null) setPicked(defaultLabelColumn(columns) ?? columns[0].name);
  }, [columns, picked, setPicked]);
  const label = columns?.find((c) => c.name === picked) ?? null;
  const tokens = useTokenCounts(ds, tokenizer, unit === 'tokens');
  const lengths: ArrayLike<number> | null = unit === 'chars' ? ds.charLengths : tokens.status === 'ready' ? tokens.counts : null;
  const max = storedMax;
  const values = scoredOf(run.result);
  // Each component / reward function column as it stands (NaN where it has no value), as the CLI's --by-step reads it.
  const components = run.result.components;
  // The truncated rows are made in the data worker with the figures (a loop over every row, kept off the page's thread).
  const asked = useMemo(
    (): StepsRequest | null =>
      lengths
        ? {
            columns: {
              scores: values,
              groupOf: ds.groupOf,
              groupCount: ds.groupKeys.length,
              steps: ds.steps,
              lengths,
              labels: label?.values ?? null,
              components,
              preset,
            },
            truncation: { fields: ds.truncatedFields, maxLength: max },
          }
        : null,
    [values, ds, lengths, label, components, preset, max],
  );
  const { figures, stale, error } = useOverSteps(asked);
  const stepCount = useMemo(() => distinctSteps(ds.steps, 2), [ds]);
  if (stepCount < 2) {
    return (
      <p className="muted empty-chart">
        This data has {stepCount === 0 ? 'no training steps' : 'one training step'}: the figures over steps need rows at two or more steps (a <code>step</code>{' '}
        field, or a step column mapped at import).
      </p>
    );
  }
  const openStep = (k: number) => {
    const byStep = stepsOf(ds);
    const s = byStep.stepValues[k];
    setSubset({ label: `step ${fmt(s)}`, rows: byStep.order.slice(byStep.start[k], byStep.start[k + 1]) });
  };
  const unitLabel = unit === 'chars' ? 'characters' : `${TOKENIZERS[tokenizer].label} tokens`;
  return (
    <div className="steps-tab">
      <div className="toolbar small" role="radiogroup" aria-label="Over steps view">
        {VIEWS.map((v) => (
          <label key={v.id}>
            <input type="radio" name={`${id}-view`} checked={view === v.id} onChange={() => setView(v.id)} /> {v.label}
          </label>
        ))}
      </div>
      {view === 'prompt' ? (
        <PromptView ds={ds} values={values} />
      ) : view === 'compare' ? (
        <CompareStepsView ds={ds} values={values} steps={stepsOf(ds).stepValues} />
      ) : (
        <div className="diag-split">
          <div className={stale && figures ? 'diag-charts stale' : 'diag-charts'} role="group" aria-label="Charts" tabIndex={0} aria-busy={stale}>
            {error ? (
              <p className="error-text">The figures over steps could not be computed: {error}</p>
            ) : figures ? (
              <StepCharts figures={figures} onStep={openStep} labelName={label?.name ?? null} lengthUnit={unitLabel} />
            ) : (
              <p className="muted empty-chart">
                {lengths
                  ? 'Computing the figures of each step…'
                  : tokens.status === 'failed'
                    ? `The tokens could not be counted (${tokens.message}): pick characters.`
                    : 'Counting tokens…'}
              </p>
            )}
          </div>
          <div className="diag-side">
            <fieldset className="steps-options">
              <legend className="small">Truncation</legend>
              <label>
                Max completion length{' '}
                <input
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  aria-label="Max completion length"
                  placeholder="none"
                  value={maxLength}
                  onChange={(e) => {
                    setMaxLength(e.target.value);
                    setStoredMax(parseMaxLength(e.target.value));
                  }}
                  style={{ width: '7em' }}
                />
              </label>{' '}
              <select aria-label="Length unit" value={unit} onChange={(e) => setUnit(e.target.value as 'chars' | 'tokens')}>
                <option value="chars">characters</option>
                <option value="tokens">{TOKENIZERS[tokenizer].label} tokens</option>
              </select>
              <p className="muted small" data-testid="truncation-rule">
                {TRUNCATION_RULE}
              </p>
            </fieldset>
            <label>
              Trusted label{' '}
              <select aria-label="Trusted label" value={label?.name ?? ''} onChange={(e) => setPicked(e.target.value)}>
                <option value="">(none)</option>
                {(columns ?? []).map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.name}
                    {c.binary ? ' (0/1)' : ''}
                  </option>
                ))}
              </select>
            </label>
            {figures ? <StepTable figures={figures} onStep={openStep} /> : null}
          </div>
        </div>
      )}
    </div>
  );
}
