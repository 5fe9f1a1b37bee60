import { useEffect, useReducer } from 'react';
import type { Figure } from '../../app/figures';

/**
 * A figure's value once it is known (null while it is computed, or when there is no job), drawn again when it lands.
 * The value is always the one of the figure passed: another run's figures are never shown while this one computes.
 */
export function useFigure<R>(f: Figure<R> | null): { value: R | null; error: string | null; computing: boolean } {
  const [, landed] = useReducer((x: number) => x + 1, 0);
  useEffect(() => {
    if (!f || f.value !== undefined || f.error !== undefined) return;
    let live = true;
    void f.done.then(() => live && landed());
    return () => {
      live = false;
    };
  }, [f]);
  return { value: f?.value ?? null, error: f?.error ?? null, computing: !!f && f.value === undefined && f.error === undefined };
}
