import { startTransition, useEffect, useState } from 'react';
import type { OverSteps, StepColumns } from '../../../core/steps/overSteps';
import { computeOverSteps } from '../../../runtime/importClient';

/** What the figures are computed from: the columns, and how the data worker makes their truncated rows. */
export interface StepsRequest {
  columns: StepColumns;
  truncation?: { fields: Float64Array; maxLength: number | null };
}

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
export function useOverSteps(asked: StepsRequest | null): OverStepsState {
  const [state, setState] = useState<{ asked: StepsRequest; figures: OverSteps | null; error: string | null } | null>(null);
  useEffect(() => {
    if (!asked) return;
    let live = true;
    // A transition: drawing four charts and the table is then rendered in slices the page can interleave with input.
    computeOverSteps(asked.columns, asked.truncation).then(
      (figures) => live && startTransition(() => setState({ asked, figures, error: null })),
      (e: unknown) => live && setState({ asked, figures: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [asked]);
  return { figures: state?.figures ?? null, stale: state?.asked !== asked, error: state?.asked === asked ? state.error : null };
}
