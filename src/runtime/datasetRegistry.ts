import type { Dataset } from '../core/dataset/dataset';

/**
 * Loaded datasets live here, outside React state and zustand: the store keeps only the id (a handle) and
 * summaries, and components ask for pages and bins through core functions.
 */
const datasets = new Map<string, Dataset>();

export function registerDataset(ds: Dataset): void {
  datasets.set(ds.id, ds);
}

export function getDataset(id: string | null): Dataset | null {
  return id ? (datasets.get(id) ?? null) : null;
}

export function forgetDataset(id: string): void {
  datasets.delete(id);
}
