import { useEffect, useState } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import type { Trajectory } from '../../core/trajectory';
import { fetchTrajectories } from '../../runtime/importClient';

/** Trajectory `row` of `ds`, fetched from the data worker (which holds the trajectories); null while it comes. */
export function useTrajectory(ds: Dataset | null, row: number | null): Trajectory | null {
  const [state, setState] = useState<{ ds: Dataset; row: number; t: Trajectory } | null>(null);
  useEffect(() => {
    if (!ds || row === null) return;
    let live = true;
    void fetchTrajectories(ds, [row]).then((rows) => {
      if (live && rows?.[0]) setState({ ds, row, t: rows[0] });
    });
    return () => {
      live = false;
    };
  }, [ds, row]);
  return state && state.ds === ds && state.row === row ? state.t : null;
}
