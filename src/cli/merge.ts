/**
 * `reward-studio merge <partials…> [--json]`: the report of scoring every row at once, from the partial files of
 * `score --shard i/n --save-partial`. The rows are put back in dataset order and handed to the same scoreReport as
 * `score`'s, so every figure is the one a single run computes.
 */
import { readFileSync, statSync } from 'node:fs';
import { plainGroupKey } from '../core/dataset/parts';
import { FORMAT_LABELS } from '../core/formats/labels';
import type { FormatId } from '../core/formats/types';
import { COLUMN_NAMES, ROW_COLUMNS, type RowColumns, type ScoreColumns } from './columns';
import { decodePartial, PARTIAL_LIMITS, type Partial } from './partial';
import { scoreReport } from './scoreReport';

export interface MergeIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Exit status: 0 merged; 1 a partial cannot be read, is malformed, or does not belong with the others. */
export function merge(paths: readonly string[], json: boolean, io: MergeIo): number {
  const fail = (m: string) => (io.stderr(`reward-studio merge: ${m}\n`), 1);
  const partials: { path: string; p: Partial }[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      if (statSync(path).size > PARTIAL_LIMITS.bytes) return fail(`${path}: larger than ${PARTIAL_LIMITS.bytes} bytes`);
      bytes = readFileSync(path);
    } catch (e) {
      return fail(`cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const d = decodePartial(path, bytes);
    if (!d.ok) return fail(d.message);
    partials.push({ path, p: d.partial });
  }
  const merged = combine(partials);
  if (!merged.ok) return fail(merged.message);
  const { run } = partials[0].p.header;
  const times = partials.map((x) => x.p.header.time);
  const out = scoreReport(merged.columns, {
    preset: run.preset,
    label: run.label,
    groupBy: run.groupBy,
    byStep: run.byStep,
    maxLength: run.maxLength,
    ...(run.functions ? { functions: run.functions } : {}),
    json,
    human: {
      file: run.data.name,
      reward: run.rewards.map((r) => r.file).join(', '),
      formatLabel: FORMAT_LABELS[run.detection.format as FormatId] ?? run.detection.format,
      container: run.detection.container,
      gzip: run.detection.gzip,
      skipped: run.skipped,
      elapsedMs: times.reduce((a, t) => a + t.elapsedMs, 0),
      workersUsed: Math.max(...times.map((t) => t.workersUsed)),
      poolSize: Math.max(...times.map((t) => t.poolSize)),
      out: null,
    },
  });
  io.stdout(out + '\n');
  return 0;
}

/** The partials' rows as one run's columns (dataset order, groups numbered as a whole run numbers them), or why not. */
export function combine(partials: readonly { path: string; p: Partial }[]): { ok: true; columns: ScoreColumns } | { ok: false; message: string } {
  const bad = (message: string) => ({ ok: false as const, message });
  if (partials.length === 0) return bad('no partial files given');
  const first = partials[0];
  const n = first.p.header.shard.count;
  const runOf = (x: Partial) => x.header.run;
  for (const x of partials.slice(1)) {
    const a = runOf(first.p);
    const b = runOf(x.p);
    for (const k of Object.keys(a) as (keyof typeof a)[])
      if (JSON.stringify(a[k]) !== JSON.stringify(b[k]))
        return bad(`${x.path} and ${first.path} come from different runs: their ${k} differs (${clip(b[k])} vs ${clip(a[k])})`);
    const names = (p: Partial) => p.header.columns.map((c) => c.name).join(', ');
    if (names(x.p) !== names(first.p)) return bad(`${x.path} has the columns ${names(x.p)}, ${first.path} ${names(first.p)}`);
    if (x.p.header.shard.count !== n) return bad(`${x.path} is shard ${x.p.header.shard.index}/${x.p.header.shard.count}, ${first.path} one of ${n}`);
  }
  const byShard = new Map<number, string>();
  for (const x of partials) {
    const i = x.p.header.shard.index;
    const other = byShard.get(i);
    if (other !== undefined) return bad(`shard ${i}/${n} given twice (${other} and ${x.path})`);
    byShard.set(i, x.path);
  }
  const missing = Array.from({ length: n }, (_, k) => k + 1).filter((i) => !byShard.has(i));
  if (missing.length > 0)
    return bad(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${n}`).join(', ')} missing (${partials.length} of ${n} given)`);
  const keyOwner = new Map<string, string>();
  for (const x of partials)
    for (const k of x.p.columns.groupKeys) {
      const other = keyOwner.get(k);
      if (other !== undefined) return bad(`group ${JSON.stringify(plainGroupKey(k).slice(0, 80))} is in two partials (${other} and ${x.path})`);
      keyOwner.set(k, x.path);
    }
  const total = runOf(first.p).datasetRows;
  const rows = partials.reduce((a, x) => a + x.p.header.rows, 0);
  if (rows !== total) return bad(`the partials hold ${rows} rows where the dataset has ${total}`);

  // Where each dataset row's values are: partial and position (each index is in [0, total), ascending per partial).
  const from = new Int32Array(total).fill(-1);
  const at = new Int32Array(total);
  partials.forEach((x, k) =>
    x.p.columns.rows.index.forEach((row, j) => {
      from[row] = k;
      at[row] = j;
    }),
  );
  const gap = from.indexOf(-1);
  if (gap >= 0) return bad(`no partial holds row ${gap} (a row is in two partials)`);

  const cols = partials.map((x) => x.p.columns);
  const pick = <T extends Float64Array | Int32Array | Uint8Array>(Type: new (n: number) => T, get: (c: ScoreColumns) => T | null): T => {
    const out = new Type(total);
    for (let i = 0; i < total; i++) out[i] = get(cols[from[i]])![at[i]];
    return out;
  };
  const merged = Object.fromEntries(
    COLUMN_NAMES.map((name) => [name, cols[0].rows[name] ? pick(ROW_COLUMNS[name].type as never, (c) => c.rows[name]) : null]),
  ) as unknown as RowColumns;
  // Groups and error texts renumbered: groups in first-seen order over the dataset's rows, as one run numbers them.
  const groupKeys: string[] = [];
  const groupIds = cols.map((c) => new Int32Array(c.groupKeys.length).fill(-1));
  const errorBase = cols.map((_, k) => cols.slice(0, k).reduce((a, c) => a + c.errorTable.length, 0));
  for (let i = 0; i < total; i++) {
    const k = from[i];
    const local = merged.group[i];
    if (groupIds[k][local] < 0) {
      groupIds[k][local] = groupKeys.length;
      groupKeys.push(cols[k].groupKeys[local]);
    }
    merged.group[i] = groupIds[k][local];
    if (merged.error[i] >= 0) merged.error[i] += errorBase[k];
  }
  const functions = cols[0].functions.map((_, f) => pick(Float64Array, (c) => c.functions[f]));
  // Components by name, in first-seen order over the partials; a row whose partial lacks one has none (NaN).
  const componentNames = [...new Set(cols.flatMap((c) => c.components.map((x) => x.name)))];
  const components = componentNames.map((name) => {
    const of = cols.map((c) => c.components.find((x) => x.name === name)?.values ?? null);
    const values = new Float64Array(total).fill(Number.NaN);
    for (let i = 0; i < total; i++) {
      const v = of[from[i]];
      if (v) values[i] = v[at[i]];
    }
    return { name, values };
  });
  return {
    ok: true,
    columns: { rows: merged, groupKeys, groupByValues: cols[0].groupByValues, errorTable: cols.flatMap((c) => c.errorTable), functions, components },
  };
}

const clip = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'none';
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
};
