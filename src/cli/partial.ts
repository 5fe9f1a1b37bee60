/**
 * The partial file of `score --save-partial` (read back by `merge`): gzip of
 *   [u32 LE header length][header: UTF-8 JSON][each column's bytes, little-endian, in the header's `columns` order]
 * The header says what was run (reward files' SHA-256, options, the data file) and which shard; the columns are
 * ROW_COLUMNS (src/cli/columns.ts) of the shard's rows, then one Float64 column per reward function.
 * A partial is hostile input: decodePartial checks every field, size and index before anything uses it.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { plainGroupKey } from '../core/dataset/parts';
import { MAX_SHARDS, shardOf } from '../core/dataset/shard';
import { PRESET_IDS } from '../core/stats/advantage';
import { COLUMN_NAMES, ROW_COLUMNS, type ColumnName, type RowColumns, type ScoreColumns } from './columns';

export const PARTIAL_FORMAT = 'reward-studio-partial';
export const PARTIAL_VERSION = 1;
/** Limits on what a partial may declare or inflate to (a forged header must not make `merge` allocate without end). */
export const PARTIAL_LIMITS = { bytes: 2 ** 31 - 1, rows: 50_000_000, header: 1 << 30, shards: MAX_SHARDS, text: 100_000 };

const FUNCTION_COLUMN = /^function\.(\d{1,3})$/;
const COMPONENT_COLUMN = /^component\.(\d{1,3})$/;

const text = z.string().max(PARTIAL_LIMITS.text);
const count = z.number().int().min(0);
const header = z.strictObject({
  format: z.literal(PARTIAL_FORMAT),
  version: z.literal(PARTIAL_VERSION),
  /** What was run: partials merge only when this agrees. */
  run: z.strictObject({
    rewards: z
      .array(z.strictObject({ file: text, sha256: z.string().regex(/^[0-9a-f]{64}$/) }))
      .min(1)
      .max(64),
    weights: z.array(z.number()).max(64).nullable(),
    function: text.nullable(),
    preset: z.enum(PRESET_IDS),
    label: text.nullable(),
    groupBy: text.nullable(),
    byStep: z.boolean(),
    maxLength: z.number().int().min(1).nullable(),
    tokenizer: text,
    import: z.strictObject({ format: text.nullable(), mapping: z.record(text, text).nullable() }),
    data: z.strictObject({ name: text, bytes: count }),
    detection: z.strictObject({ container: text, gzip: z.boolean(), format: text }),
    datasetRows: count.max(PARTIAL_LIMITS.rows),
    skipped: count,
    groupByValues: z.array(z.string()).nullable(),
    functions: z
      .array(z.strictObject({ name: text, weight: z.number() }))
      .max(64)
      .nullable(),
  }),
  shard: z.strictObject({ index: z.number().int().min(1), count: z.number().int().min(1).max(PARTIAL_LIMITS.shards) }),
  rows: count.max(PARTIAL_LIMITS.rows),
  groupKeys: z.array(z.string()),
  /** --by-step: the reward components' names (their columns are component.0, component.1, …). */
  components: z.array(text).max(64),
  errorTable: z.array(z.strictObject({ message: z.string(), line: z.number().int().optional() })),
  columns: z.array(z.strictObject({ name: text, length: count })).max(64),
  /** The human report's time line: summed over the partials when merged. */
  time: z.strictObject({ elapsedMs: z.number().min(0), workersUsed: count, poolSize: count }),
});
export type PartialHeader = z.infer<typeof header>;
export type PartialRun = PartialHeader['run'];

export interface Partial {
  header: PartialHeader;
  columns: ScoreColumns;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The partial file's bytes. */
export function encodePartial(
  h: Omit<PartialHeader, 'format' | 'version' | 'rows' | 'groupKeys' | 'components' | 'errorTable' | 'columns'>,
  c: ScoreColumns,
): Uint8Array {
  if (!littleEndian) throw new Error('partial files are little-endian; this machine is not');
  const parts: [string, ArrayBufferView][] = [];
  for (const name of COLUMN_NAMES) {
    const col = c.rows[name];
    if (col) parts.push([name, col]);
  }
  c.functions.forEach((col, k) => parts.push([`function.${k}`, col]));
  c.components.forEach((x, k) => parts.push([`component.${k}`, x.values]));
  const full: PartialHeader = {
    format: PARTIAL_FORMAT,
    version: PARTIAL_VERSION,
    ...h,
    rows: c.rows.index.length,
    groupKeys: c.groupKeys,
    components: c.components.map((x) => x.name),
    errorTable: c.errorTable,
    columns: parts.map(([name, col]) => ({ name, length: col.byteLength / (col as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT })),
  };
  const head = Buffer.from(JSON.stringify(full), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  return gzipSync(Buffer.concat([size, head, ...parts.map(([, col]) => Buffer.from(col.buffer, col.byteOffset, col.byteLength))]), { level: 6 });
}

/** The partial's header and columns, or what is wrong with it (naming `file` and the place). */
export function decodePartial(file: string, bytes: Uint8Array): { ok: true; partial: Partial } | { ok: false; message: string } {
  const bad = (why: string) => ({ ok: false as const, message: `${file}: ${why}` });
  if (bytes.length > PARTIAL_LIMITS.bytes) return bad(`larger than ${PARTIAL_LIMITS.bytes} bytes`);
  let raw: Buffer;
  try {
    raw = gunzipSync(bytes, { maxOutputLength: PARTIAL_LIMITS.bytes });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') return bad(`inflates to more than ${PARTIAL_LIMITS.bytes} bytes`);
    return bad(`not a partial file of reward-studio (not gzip, or cut short: ${e instanceof Error ? e.message : String(e)})`);
  }
  if (raw.length < 4) return bad('cut short (no header)');
  const headLength = raw.readUInt32LE(0);
  if (headLength > PARTIAL_LIMITS.header || 4 + headLength > raw.length) return bad(`cut short or malformed: its header declares ${headLength} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(raw.subarray(4, 4 + headLength).toString('utf8'));
  } catch (e) {
    return bad(`header is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  // Version first, so a newer file says so rather than listing the fields this version does not know.
  const j = json as Record<string, unknown> | null;
  if (typeof j !== 'object' || j === null || j.format !== PARTIAL_FORMAT) return bad(`not a partial file of reward-studio (format is not "${PARTIAL_FORMAT}")`);
  if (j.version !== PARTIAL_VERSION)
    return bad(
      `partial format version ${JSON.stringify(j.version)}; this reward-studio reads version ${PARTIAL_VERSION} (score and merge with the same version)`,
    );
  const parsed = header.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return bad(`header → ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const h = parsed.data;
  const n = h.rows;
  if (h.shard.index > h.shard.count) return bad(`header → shard: ${h.shard.index}/${h.shard.count} is not a shard (1 ≤ i ≤ n)`);
  if (n > h.run.datasetRows) return bad(`header → rows: ${n} rows of a dataset of ${h.run.datasetRows}`);
  if (h.groupKeys.length > n) return bad(`header → groupKeys: ${h.groupKeys.length} groups for ${n} rows`);
  if (h.errorTable.length > n) return bad(`header → errorTable: ${h.errorTable.length} errors for ${n} rows`);
  const names = h.columns.map((c) => c.name);
  const functionColumns = (h.run.functions ?? []).map((_, k) => `function.${k}`);
  // The spec's columns in its order (the optional ones where present), then one per reward function.
  const componentColumns = h.components.map((_, k) => `component.${k}`);
  if (new Set(h.components).size !== h.components.length) return bad('header → components: a name given twice');
  if (h.components.length > 0 && !h.run.byStep) return bad('header → components: present in a run without --by-step');
  const expected = [...COLUMN_NAMES.filter((k) => !ROW_COLUMNS[k].optional || names.includes(k)), ...functionColumns, ...componentColumns];
  if (names.join(',') !== expected.join(',')) return bad(`header → columns: ${names.join(', ') || 'none'} where a partial has ${expected.join(', ')}`);
  for (const [option, column] of [
    [h.run.label, 'label'],
    [h.run.groupBy, 'groupBy'],
    [h.run.byStep || null, 'step'],
    [h.run.byStep || null, 'truncated'],
  ] as const)
    if ((option !== null) !== names.includes(column))
      return bad(`header → columns: ${column} ${option !== null ? 'missing in a run with' : 'present in a run without'} it`);
  for (const c of h.columns) if (c.length !== n) return bad(`column ${c.name} has ${c.length} values where the partial has ${n} rows`);

  // Columns: each at its offset, copied (the offsets need not be aligned for its element type).
  const cols: Record<string, ArrayBufferView> = {};
  let at = 4 + headLength;
  for (const c of h.columns) {
    const Type = FUNCTION_COLUMN.test(c.name) || COMPONENT_COLUMN.test(c.name) ? Float64Array : ROW_COLUMNS[c.name as ColumnName].type;
    const size = n * Type.BYTES_PER_ELEMENT;
    if (at + size > raw.length) return bad(`cut short: column ${c.name} needs ${size} bytes at ${at}, the file has ${raw.length}`);
    const copy = new Uint8Array(size);
    copy.set(raw.subarray(at, at + size));
    cols[c.name] = new Type(copy.buffer);
    at += size;
  }
  if (at !== raw.length) return bad(`${raw.length - at} bytes after the last column`);

  const rows = Object.fromEntries(COLUMN_NAMES.map((k) => [k, cols[k] ?? null])) as unknown as RowColumns;
  const problem = rowProblem(rows, h);
  if (problem) return bad(problem);
  const functions = functionColumns.map((name) => cols[name] as Float64Array);
  const components = h.components.map((name, k) => ({ name, values: cols[`component.${k}`] as Float64Array }));
  return {
    ok: true,
    partial: { header: h, columns: { rows, groupKeys: h.groupKeys, groupByValues: h.run.groupByValues, errorTable: h.errorTable, functions, components } },
  };
}

/** Why the columns' values cannot be this shard's rows, or null. */
function rowProblem(r: RowColumns, h: PartialHeader): string | null {
  const { index, status, group, error, length, groupBy, truncated } = r;
  let seenGroups = 0;
  for (let j = 0; j < index.length; j++) {
    if (!(index[j] >= 0 && index[j] < h.run.datasetRows)) return `row ${j}: index ${index[j]} is outside the dataset (${h.run.datasetRows} rows)`;
    if (j > 0 && index[j] <= index[j - 1]) return `row ${j}: index ${index[j]} is not above the one before (rows ascending, each once)`;
    if (status[j] > 4) return `row ${j}: status ${status[j]} is not a row status (0–4)`;
    // Groups numbered in first-seen order: the same numbering `score` gives, so a group cannot hide under two numbers.
    if (!(group[j] >= 0 && group[j] <= seenGroups)) return `row ${j}: group ${group[j]} is not a group of this partial (first-seen order)`;
    if (group[j] === seenGroups) seenGroups++;
    if (!(error[j] >= -1 && error[j] < h.errorTable.length)) return `row ${j}: error ${error[j]} is not in the error table`;
    if (!(length[j] >= 0 && Number.isInteger(length[j]))) return `row ${j}: length ${length[j]} is not a length`;
    if (truncated && !(truncated[j] === 0 || truncated[j] === 1 || Number.isNaN(truncated[j]))) return `row ${j}: truncated ${truncated[j]} is not 1, 0 or NaN`;
    if (groupBy && !(groupBy[j] >= -1 && groupBy[j] < (h.run.groupByValues?.length ?? 0))) return `row ${j}: group-by value ${groupBy[j]} is not in the values`;
  }
  if (seenGroups !== h.groupKeys.length) return `header → groupKeys: ${h.groupKeys.length} keys where the rows use ${seenGroups}`;
  if (new Set(h.groupKeys).size !== h.groupKeys.length) return 'header → groupKeys: a key given twice';
  // A group's shard is its file's own key's (plainGroupKey: a stepped group's key carries its step).
  const wrong = h.groupKeys.find((k) => shardOf(plainGroupKey(k), h.shard.count) !== h.shard.index);
  if (wrong !== undefined)
    return `group ${JSON.stringify(plainGroupKey(wrong).slice(0, 80))} belongs to shard ${shardOf(plainGroupKey(wrong), h.shard.count)}/${h.shard.count}, not ${h.shard.index}/${h.shard.count}`;
  return null;
}
