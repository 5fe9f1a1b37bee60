import { useEffect, useMemo, useState } from 'react';
import type { Dataset } from '../../core/dataset/dataset';
import { shapeNeeds, type LengthUnit, type ShapeSpec } from '../../core/shaping/spec';
import { FINISH_REASON_FIELDS, TRUNCATED_FIELDS, truncatedFromFields } from '../../core/stats/truncation';
import type { ColumnValues } from '../../core/table/columns';
import { fetchFieldColumn } from '../../runtime/importClient';
import { useStudio } from '../../store';
import { useTokenCounts } from '../diagnostics/useDataColumns';

export interface ShapingInputs {
  lengths: Partial<Record<LengthUnit, ArrayLike<number>>>;
  columns: Record<string, Float64Array>;
  /** Per row 1 / 0 / NaN from the finish-reason and truncated fields (null: the data has none). */
  fromFields: Float64Array | null;
  /** What is still being fetched, or why it failed; null when everything the list needs is here. */
  waiting: string | null;
}

/** A column as numbers: number columns as they are, text as NaN (par reads numbers only). */
const numbers = (c: ColumnValues) => (c.kind === 'number' ? c.values : new Float64Array(c.values.length).fill(Number.NaN));

/**
 * What applying `specs` to this dataset needs besides the run: token counts, par's columns, and (with `truncation`)
 * the finish-reason fields. Nothing is fetched for an empty list without truncation, or without a dataset.
 */
export function useShapingInputs(ds: Dataset | null, specs: readonly ShapeSpec[], truncation = true): ShapingInputs {
  const tokenizer = useStudio((s) => s.tokenizer);
  const needs = useMemo(() => shapeNeeds(specs), [specs]);
  const tokens = useTokenCounts(ds, tokenizer, needs.tokens);
  const wanted = useMemo(() => {
    const present = new Set(ds?.detection.columns ?? []);
    const trunc = truncation ? [...TRUNCATED_FIELDS, ...FINISH_REASON_FIELDS].filter((f) => present.has(f)) : [];
    return { par: needs.columns, trunc, key: `${ds?.id}\n${needs.columns.join('\n')}\n${trunc.join('\n')}` };
  }, [ds, needs, truncation]);
  const [fetched, setFetched] = useState<{ key: string; columns: Record<string, Float64Array>; fromFields: Float64Array | null; error?: string } | null>(null);
  useEffect(() => {
    if (!ds) return;
    let live = true;
    const names = [...new Set([...wanted.par, ...wanted.trunc])];
    Promise.all(names.map((n) => fetchFieldColumn(ds, n).then((c) => [n, c] as const))).then(
      (cols) => {
        if (!live) return;
        const byName = new Map(cols);
        const columns: Record<string, Float64Array> = {};
        for (const n of wanted.par) columns[n] = numbers(byName.get(n)!);
        let fromFields: Float64Array | null = null;
        if (wanted.trunc.length) {
          fromFields = new Float64Array(ds.size);
          for (let i = 0; i < ds.size; i++) {
            const row: Record<string, unknown> = {};
            for (const f of wanted.trunc) {
              const c = byName.get(f)!;
              const v = c.values[i];
              // Number columns hold booleans as 1/0; text columns hold the finish reason.
              if (v !== null && !(typeof v === 'number' && Number.isNaN(v))) row[f] = v;
            }
            fromFields[i] = truncatedFromFields(row);
          }
        }
        setFetched({ key: wanted.key, columns, fromFields });
      },
      (e: unknown) => live && setFetched({ key: wanted.key, columns: {}, fromFields: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [ds, wanted]);
  const ready = fetched?.key === wanted.key ? fetched : null;
  let waiting: string | null = null;
  const missing = ds ? needs.columns.find((c) => !ds.detection.columns.includes(c)) : undefined;
  if (missing !== undefined) waiting = `par: no row has a column ${JSON.stringify(missing)} (columns: ${ds!.detection.columns.join(', ')})`;
  else if (needs.tokens && tokens.status === 'failed') waiting = `Token counts failed: ${tokens.message}`;
  else if (needs.tokens && tokens.status !== 'ready') waiting = 'Counting tokens…';
  else if (ready?.error) waiting = `Reading columns failed: ${ready.error}`;
  else if (!ready) waiting = 'Reading columns…';
  const counts = tokens.status === 'ready' ? tokens.counts : null;
  const lengths = useMemo(() => ({ ...(ds ? { chars: ds.charLengths } : {}), ...(counts ? { tokens: counts } : {}) }), [ds, counts]);
  return { lengths, columns: ready?.columns ?? {}, fromFields: ready?.fromFields ?? null, waiting };
}
