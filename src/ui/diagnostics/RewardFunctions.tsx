import { useMemo } from 'react';
import { summarizeFunctions } from '../../core/reward/weighted';
import type { RunRecord } from '../../store/runsSlice';
import { fmt } from './format';

/**
 * A run of several reward functions (TRL's reward_funcs): each one's weight and the statistics TRL logs for it
 * (`rewards/<name>/mean`, `rewards/<name>/std`), and its errors. A name shows that function's histogram; "Weighted
 * total" the run's score again.
 */
export function RewardFunctions({ run, shown, onShow }: { run: RunRecord; shown: string | null; onShow: (name: string | null) => void }) {
  const { functions } = run;
  const rows = useMemo(() => (functions ? summarizeFunctions(functions, run.result.components, run.result.errors.values()) : []), [functions, run]);
  if (!functions) return null;
  return (
    <table className="reward-functions" aria-label="Reward functions">
      <thead>
        <tr>
          <th scope="col">function</th>
          <th scope="col">weight</th>
          <th scope="col">mean</th>
          <th scope="col">std</th>
          <th scope="col">errors</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row" colSpan={5}>
            <button type="button" className="link" aria-pressed={shown === null} onClick={() => onShow(null)}>
              Weighted total
            </button>
          </th>
        </tr>
        {rows.map((f) => (
          <tr key={f.name}>
            <th scope="row">
              <button
                type="button"
                className="link"
                aria-pressed={shown === f.name}
                aria-label={`Histogram of ${f.name}`}
                onClick={() => onShow(shown === f.name ? null : f.name)}
              >
                {f.name}
              </button>
            </th>
            <td>{String(f.weight)}</td>
            <td>{fmt(f.mean)}</td>
            <td>{fmt(f.std)}</td>
            <td>{f.errors}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
