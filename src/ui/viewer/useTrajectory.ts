import { useEffect, useState } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import type { Trajectory } from '../../core/trajectory';
import { fetchTrajectories } from '../../runtime/importClient';

export type TrajectoryState = { t: Trajectory; error?: undefined } | { t?: undefined; error: string } | null;

/**
 * Trajectory `row` of `ds`, fetched from the data worker (which reads it from the file); null while it comes, an
 * error when it cannot be read (e.g. the file changed on disk since it was imported).
 */
export function useTrajectory(ds: Dataset | null, row: number | null): TrajectoryState {
  const [state, setState] = useState<{ ds: Dataset; row: number; got: NonNullable<TrajectoryState> } | null>(null);
  useEffect(() => {
    if (!ds || row === null) return;
    let live = true;
    fetchTrajectories(ds, [row]).then(
      (rows) => {
        if (live && rows?.[0]) setState({ ds, row, got: { t: rows[0] } });
      },
      (e: unknown) => {
        if (live) setState({ ds, row, got: { error: e instanceof Error ? e.message : String(e) } });
      },
    );
    return () => {
      live = false;
    };
  }, [ds, row]);
  return state && state.ds === ds && state.row === row ? state.got : null;
}
