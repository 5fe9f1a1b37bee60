import { useMemo } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import { RowStatus } from '../../core/reward/contract';
import { summarizeRun } from '../../core/reward/summary';
import { applyShaping } from '../../core/shaping/shape';
import type { ShapeSpec } from '../../core/shaping/spec';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { useShapingInputs } from './useShapingInputs';
import { scoredOf } from '../../app/keptFigures';

const NONE: ShapeSpec[] = [];

export interface ShapedView {
  /** The run the diagnostics show: the shaped one when shaping is on, else `run`; null while shaping waits or failed. */
  run: RunRecord | null;
  /** Shaping is on for the other tabs (a list, and the Shaping tab's switch). */
  active: boolean;
  /** Why there is no shaped run yet (counting tokens, a missing column…), or null. */
  problem: string | null;
}

/** `run` through the Shaping list, in the shape of a run, for the diagnostics tabs when the user asked for it. */
export function useShapedRun(run: RunRecord | null, ds: Dataset | null): ShapedView {
  const shaping = useStudio((s) => s.shaping);
  const on = useStudio((s) => s.shapeDiagnostics);
  const active = on && shaping.length > 0 && run !== null && ds !== null;
  const inputs = useShapingInputs(ds, active ? shaping : NONE, false);
  return useMemo((): ShapedView => {
    if (!active || !run || !ds) return { run, active: false, problem: null };
    if (inputs.waiting) return { run: null, active, problem: `Shaping: ${inputs.waiting}` };
    try {
      const raw = scoredOf(run.result);
      const scores = applyShaping(raw, shaping, {
        groupOf: ds.groupOf,
        groupCount: ds.groupKeys.length,
        lengths: inputs.lengths,
        columns: inputs.columns,
        steps: run.result.steps ?? null,
      });
      // A row the shaping left unscored (par without a reference) counts as null: the shaped reward does not apply.
      const status = run.result.status.slice();
      for (let i = 0; i < status.length; i++) if (status[i] === RowStatus.Ok && !Number.isFinite(scores[i])) status[i] = RowStatus.Null;
      return { run: { ...run, summary: summarizeRun(scores, status), result: { ...run.result, scores, status } }, active, problem: null };
    } catch (e) {
      return { run: null, active, problem: `Shaping: ${e instanceof Error ? e.message : String(e)}` };
    }
  }, [active, run, ds, inputs, shaping]);
}
