import { useEffect, useState } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import type { LabelColumn } from '../../core/dataset/labelColumns';
import type { TokenizerId } from '../../core/tokenize/tokenizers';
import { fetchLabelColumns, fetchTokenCounts } from '../../runtime/importClient';

// Per-dataset caches outside React state: a dataset's columns never change once loaded.
const labelCache = new Map<string, Promise<LabelColumn[]>>();
const tokenCache = new Map<string, Promise<Int32Array>>();
/** Listeners for the progress of a token count in flight, by cache key. */
const tokenProgress = new Map<string, Set<(done: number, total: number) => void>>();

/** Columns of the source records usable as trusted labels, fetched once per dataset from the data worker. */
export function useLabelColumns(ds: Dataset | null): LabelColumn[] | null {
  const [cols, setCols] = useState<{ id: string; cols: LabelColumn[] } | null>(null);
  useEffect(() => {
    if (!ds) return;
    let p = labelCache.get(ds.id);
    if (!p) {
      p = fetchLabelColumns(ds).then((c) => c ?? []);
      labelCache.set(ds.id, p);
    }
    let live = true;
    void p.then((c) => live && setCols({ id: ds.id, cols: c }));
    return () => {
      live = false;
    };
  }, [ds]);
  return ds && cols?.id === ds.id ? cols.cols : null;
}

export type TokenState =
  { status: 'idle' } | { status: 'loading'; done?: number; total?: number } | { status: 'ready'; counts: Int32Array } | { status: 'failed'; message: string };

/** Token count of every completion with `tokenizer`, computed by the data worker when `enabled` (once per dataset and tokenizer). */
export function useTokenCounts(ds: Dataset | null, tokenizer: TokenizerId, enabled: boolean): TokenState {
  const [state, setState] = useState<{ key: string; s: TokenState } | null>(null);
  const key = ds ? `${ds.id}:${tokenizer}` : '';
  useEffect(() => {
    if (!ds || !enabled) return;
    let p = tokenCache.get(key);
    if (!p) {
      const listeners = new Set<(done: number, total: number) => void>();
      tokenProgress.set(key, listeners);
      p = fetchTokenCounts(ds, tokenizer, (done, total) => listeners.forEach((f) => f(done, total)));
      tokenCache.set(key, p);
      p.catch(() => tokenCache.delete(key)).finally(() => tokenProgress.delete(key));
    }
    let live = true;
    const onProgress = (done: number, total: number) => live && setState({ key, s: { status: 'loading', done, total } });
    tokenProgress.get(key)?.add(onProgress);
    p.then(
      (counts) => live && setState({ key, s: { status: 'ready', counts } }),
      (e: unknown) => live && setState({ key, s: { status: 'failed', message: e instanceof Error ? e.message : String(e) } }),
    );
    return () => {
      live = false;
      tokenProgress.get(key)?.delete(onProgress);
    };
  }, [ds, tokenizer, enabled, key]);
  if (!enabled || !ds) return { status: 'idle' };
  return state?.key === key ? state.s : { status: 'loading' };
}
