import { startTransition, useEffect, useState } from 'react';
import type { OverSteps, StepColumns } from '../../../core/steps/overSteps';
import { computeOverSteps } from '../../../runtime/importClient';

export interface OverStepsState {
  /** The figures of the latest columns that came back (those of earlier columns while new ones are computed). */
  figures: OverSteps | null;
  /** The figures shown are of earlier columns: new ones are being computed. */
  stale: boolean;
  error: string | null;
}

/**
 * overSteps(columns) from the data worker, off the page's thread (bench/steps.bench.mjs: ~200 ms for 500k rows).
 * The latest columns win: a reply for columns that were replaced meanwhile is dropped, and the old figures stay up,
 * marked stale, until the new ones land.
 */
export function useOverSteps(columns: StepColumns | null): OverStepsState {
  const [state, setState] = useState<{ columns: StepColumns; figures: OverSteps | null; error: string | null } | null>(null);
  useEffect(() => {
    if (!columns) return;
    let live = true;
    // A transition: drawing four charts and the table is then rendered in slices the page can interleave with input.
    computeOverSteps(columns).then(
      (figures) => live && startTransition(() => setState({ columns, figures, error: null })),
      (e: unknown) => live && setState({ columns, figures: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [columns]);
  return { figures: state?.figures ?? null, stale: state?.columns !== columns, error: state?.columns === columns ? state.error : null };
}
