import { useEffect, useMemo, useState } from 'react';
import type { OverSteps, StepFigures } from '../../../core/steps/overSteps';
import { fmt, pct } from '../format';

/** Steps listed at once; sorting brings any of the others up. */
const MAX_ROWS = 400;
/** Rows drawn in the first frame, the rest in the next: 400 rows of 10 cells and a button are a 100+ ms task. */
const FIRST_ROWS = 60;

interface Column {
  id: string;
  label: string;
  value(s: StepFigures): number;
  show(s: StepFigures): string;
}

const COLUMNS: Column[] = [
  { id: 'rows', label: 'rows', value: (s) => s.rows, show: (s) => s.rows.toLocaleString('en-US') },
  { id: 'groups', label: 'groups', value: (s) => s.groups, show: (s) => s.groups.toLocaleString('en-US') },
  { id: 'mean', label: 'mean', value: (s) => s.reward.mean, show: (s) => fmt(s.reward.mean, 3) },
  { id: 'std', label: 'std', value: (s) => s.reward.std, show: (s) => fmt(s.reward.std, 3) },
  { id: 'zero', label: 'zero std', value: (s) => s.collapse.zeroStdGroupFraction, show: (s) => pct(s.collapse.zeroStdGroupFraction) },
  { id: 'len', label: 'len p95', value: (s) => s.length.p95, show: (s) => fmt(s.length.p95, 0) },
  { id: 'cut', label: 'truncated', value: (s) => s.truncated ?? NaN, show: (s) => pct(s.truncated) },
  { id: 'label', label: 'label', value: (s) => s.label?.accuracy ?? NaN, show: (s) => fmt(s.label?.accuracy, 3) },
  { id: 'agree', label: 'agreement', value: (s) => s.label?.agreement ?? NaN, show: (s) => pct(s.label?.agreement) },
];

/**
 * One row per step, sortable by any column (a header button; NaN last), each step a button that opens its rollouts.
 * Buttons keep it keyboard-reachable without a custom grid.
 */
export function StepTable({ figures, onStep }: { figures: OverSteps; onStep(k: number): void }) {
  const [sort, setSort] = useState<{ id: string; desc: boolean }>({ id: 'step', desc: false });
  const order = useMemo(() => {
    const idx = figures.steps.map((_, k) => k);
    const col = COLUMNS.find((c) => c.id === sort.id);
    const key = (k: number) => (col ? col.value(figures.steps[k]) : figures.steps[k].step);
    idx.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? a - b : 1) : -1;
      return (sort.desc ? y - x : x - y) || a - b;
    });
    return idx;
  }, [figures, sort]);
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (all) return;
    const id = requestAnimationFrame(() => setAll(true));
    return () => cancelAnimationFrame(id);
  }, [all]);
  const header = (id: string, label: string) => (
    <th scope="col" key={id} aria-sort={sort.id === id ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="link"
        aria-label={`Sort steps by ${label}`}
        onClick={() => setSort((s) => ({ id, desc: s.id === id ? !s.desc : false }))}
      >
        {label}
        {sort.id === id ? (sort.desc ? ' ▾' : ' ▴') : ''}
      </button>
    </th>
  );
  return (
    <div className="steps-table-wrap" role="group" aria-label="Steps table, scrolls" tabIndex={0}>
      <table className="num-table" aria-label="Figures per step">
        <thead>
          <tr>
            {header('step', 'step')}
            {COLUMNS.map((c) => header(c.id, c.label))}
          </tr>
        </thead>
        <tbody>
          {order.slice(0, all ? MAX_ROWS : FIRST_ROWS).map((k) => {
            const s = figures.steps[k];
            return (
              <tr key={k} className={figures.divergence?.step === s.step ? 'flagged' : undefined}>
                <th scope="row">
                  <button type="button" className="link" aria-label={`Open the rollouts of step ${fmt(s.step)}`} onClick={() => onStep(k)}>
                    {fmt(s.step)}
                  </button>
                </th>
                {COLUMNS.map((c) => (
                  <td key={c.id}>{c.show(s)}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {order.length > MAX_ROWS ? (
        <p className="muted small">
          The first {MAX_ROWS} of {order.length.toLocaleString('en-US')} steps in this order; sort by another column to see others.
        </p>
      ) : null}
    </div>
  );
}
