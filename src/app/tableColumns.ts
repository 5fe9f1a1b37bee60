/**
 * The table's columns as typed values (issue 21, item 15), for the table, its filters and **Download rows**:
 * reward and length, the advantage under the chosen estimator, the token length, each reward component, and any
 * field of the source records (read by the data worker, once per dataset and field).
 */
import type { Dataset } from '../core/dataset/dataset';
import { advantages, type PresetId } from '../core/stats/advantage';
import { textColumn, type ColumnValues } from '../core/table/columns';
import { fetchFieldColumn } from '../runtime/importClient';
import type { RunRecord } from '../store/runsSlice';
import { scoredOf } from './keptFigures';

export const FIELD_PREFIX = 'field:';
export const COMPONENT_PREFIX = 'component:';
/** A text column of the run: a dict result's string values (verl's `pred`). */
export const STRING_PREFIX = 'string:';

/** What a column is computed from. `tokens`: the token count of each completion, when it has been counted. */
export interface ColumnSources {
  ds: Dataset;
  run: RunRecord | null;
  preset: PresetId;
  tokens: Int32Array | null;
}

/** The name a column goes by in the header, the Columns menu and the filters. */
export function columnLabel(id: string): string {
  if (id === 'advantage') return 'Advantage';
  if (id === 'tokens') return 'Tokens';
  if (id === 'reward') return 'Reward';
  if (id === 'length') return 'Length';
  if (id.startsWith(COMPONENT_PREFIX)) return id.slice(COMPONENT_PREFIX.length);
  if (id.startsWith(STRING_PREFIX)) return id.slice(STRING_PREFIX.length);
  if (id.startsWith(FIELD_PREFIX)) return id.slice(FIELD_PREFIX.length);
  return id;
}

/** Columns offered by the Columns menu: advantage, tokens, the run's components and text values, then the file's fields. */
export function offeredColumns(ds: Dataset, run: RunRecord | null): { id: string; label: string; group: 'computed' | 'component' | 'field' }[] {
  const out: { id: string; label: string; group: 'computed' | 'component' | 'field' }[] = [
    { id: 'advantage', label: 'Advantage', group: 'computed' },
    { id: 'tokens', label: 'Tokens', group: 'computed' },
  ];
  for (const name of Object.keys(run?.result.components ?? {})) out.push({ id: COMPONENT_PREFIX + name, label: name, group: 'component' });
  for (const name of Object.keys(run?.result.strings ?? {})) out.push({ id: STRING_PREFIX + name, label: name, group: 'component' });
  for (const name of ds.detection.columns) out.push({ id: FIELD_PREFIX + name, label: name, group: 'field' });
  return out;
}

// The last columns computed per run and preset: the table and a download ask for them again and again.
const computed = new WeakMap<object, Map<string, ColumnValues>>();

function memo(owner: object, key: string, make: () => ColumnValues): ColumnValues {
  let m = computed.get(owner);
  if (!m) computed.set(owner, (m = new Map()));
  let c = m.get(key);
  if (!c) m.set(key, (c = make()));
  return c;
}

/**
 * A column that needs no request: null when it cannot be had now (no run for reward, advantage and components; token
 * counts not there yet; a field, which `fieldColumnOf` reads). A component missing on a row is NaN there.
 */
export function columnNow(id: string, src: ColumnSources): ColumnValues | null {
  const { ds, run } = src;
  if (id === 'length') return memo(ds, 'length', () => ({ kind: 'number', values: Float64Array.from(ds.charLengths) }));
  if (id === 'tokens') return src.tokens ? memo(src.tokens, 'tokens', () => ({ kind: 'number', values: Float64Array.from(src.tokens!) })) : null;
  if (!run) return null;
  const r = run.result;
  if (id === 'reward') return memo(r, 'reward', () => ({ kind: 'number', values: scoredOf(r) }));
  if (id === 'advantage')
    return memo(r, `advantage:${src.preset}`, () => ({
      kind: 'number',
      values: advantages(scoredOf(r), ds.groupOf, ds.groupKeys.length, src.preset),
    }));
  if (id.startsWith(COMPONENT_PREFIX)) {
    const name = id.slice(COMPONENT_PREFIX.length);
    const values = Object.hasOwn(r.components, name) ? r.components[name] : undefined;
    return values ? { kind: 'number', values } : null;
  }
  if (id.startsWith(STRING_PREFIX)) {
    const name = id.slice(STRING_PREFIX.length);
    const strings = r.strings;
    const values = strings && Object.hasOwn(strings, name) ? strings[name] : undefined;
    // Sorted and filtered as text, like a field; the ranks are worked out once per run.
    return values ? memo(r, id, () => textColumn(values)) : null;
  }
  return null;
}

const fields = new Map<string, Promise<ColumnValues>>();

/** A field of every row, from the data worker; a failed read is not kept, so asking again tries again. */
export function fieldColumnOf(ds: Dataset, name: string): Promise<ColumnValues> {
  const key = `${ds.id}\u0000${name}`;
  let p = fields.get(key);
  if (!p) {
    p = fetchFieldColumn(ds, name);
    fields.set(key, p);
    p.catch(() => fields.delete(key));
  }
  return p;
}
