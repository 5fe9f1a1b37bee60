/**
 * Session files: the whole session (code, settings, every run's scores, the data) as one zip archive (fflate).
 *
 *   session.json            the SessionDoc (validated and migrated on the way in)
 *   data                    the dataset file's bytes, as imported (absent for the bundled demo)
 *   runs/<id>/meta.json     { components: [names], errors, notes, stdout, strings? }  (strings: text columns by name)
 *   runs/<id>/scores.f64    Float64Array, little-endian, one per row
 *   runs/<id>/status.u8     Uint8Array, one per row (RowStatus)
 *   runs/<id>/c<k>.f64      component k's values
 *   runs/<id>/steps.i32     step rewards' offsets (rows + 1), and runs/<id>/steps.f64 their values (both or neither)
 */
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { COMPONENT_NAME_LIMIT, RowStatus, setOwn, stepsProblem, STRING_COLUMN_LIMIT, STRING_VALUE_LIMIT, type RaggedSteps } from '../reward/contract';
import type { RowError } from '../reward/runRows';
import { summarizeRun } from '../reward/summary';
import { parseSessionDoc, type SessionDoc } from './schema';

/** One run's results, as stored (IndexedDB) and written into session files. */
export interface RunPayload {
  scores: Float64Array;
  status: Uint8Array;
  components: Record<string, Float64Array>;
  errors: RowError[];
  notes: [number, string][];
  /** Text columns (a dict result's strings) by name, one value per row, null where none. */
  strings?: Record<string, (string | null)[]>;
  /** Step rewards (RewardResult.steps), when the reward returned any. */
  steps?: RaggedSteps;
  stdout: string;
}

export interface SessionFileContent {
  doc: SessionDoc;
  data: Uint8Array | null;
  runs: Map<number, RunPayload>;
}

export const SESSION_FILE_SUFFIX = '.reward-session.zip';

const bytesOf = (a: Float64Array | Int32Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export function writeSessionFile(c: SessionFileContent): Uint8Array {
  const files: Zippable = { 'session.json': strToU8(JSON.stringify(c.doc)) };
  if (c.data) files.data = [c.data, { level: 6 }];
  for (const [id, r] of c.runs) {
    const names = Object.keys(r.components);
    const meta = { components: names, errors: r.errors, notes: r.notes, stdout: r.stdout, ...(r.strings ? { strings: r.strings } : {}) };
    files[`runs/${id}/meta.json`] = strToU8(JSON.stringify(meta));
    files[`runs/${id}/scores.f64`] = bytesOf(r.scores);
    files[`runs/${id}/status.u8`] = bytesOf(r.status);
    names.forEach((n, k) => (files[`runs/${id}/c${k}.f64`] = bytesOf(r.components[n])));
    if (r.steps) {
      files[`runs/${id}/steps.i32`] = bytesOf(r.steps.offsets);
      files[`runs/${id}/steps.f64`] = bytesOf(r.steps.values);
    }
  }
  return zipSync(files, { level: 6 });
}

/** Text columns as a run keeps them (see STRING_COLUMN_LIMIT), from a file someone else wrote; null when damaged. */
function textColumns(v: unknown, rows: number): Record<string, (string | null)[]> | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const names = Object.keys(v);
  if (names.length > STRING_COLUMN_LIMIT) return null;
  const out: Record<string, (string | null)[]> = {};
  for (const k of names) {
    const col = (v as Record<string, unknown>)[k];
    if (k.length > COMPONENT_NAME_LIMIT || !Array.isArray(col) || col.length !== rows) return null;
    if (!col.every((x) => x === null || (typeof x === 'string' && x.length <= 2 * STRING_VALUE_LIMIT + 2))) return null;
    setOwn(out, k, col as (string | null)[]);
  }
  return out;
}

/** A session file's entries may inflate to at most 2 GiB in all; one past 16 MiB to at most 1,000 times its compressed size. */
export const MAX_INFLATED_BYTES = 2 ** 31;
const MAX_RATIO = 1000;
const RATIO_FROM_BYTES = 16 * 2 ** 20;
const ENTRY = /^(session\.json|data|runs\/\d+\/(meta\.json|scores\.f64|status\.u8|c\d+\.f64|steps\.i32|steps\.f64))$/;

export type ReadSession = { ok: true; content: SessionFileContent; warnings: string[]; migratedFrom?: number } | { ok: false; message: string };

function f64(bytes: Uint8Array | undefined, rows: number): Float64Array | null {
  if (!bytes || bytes.length !== rows * 8) return null;
  const copy = new Uint8Array(bytes); // aligned
  return new Float64Array(copy.buffer);
}

/** A run's step rewards from its two entries: undefined when it has none, null when they are damaged or do not fit. */
function stepsOf(offsetBytes: Uint8Array | undefined, valueBytes: Uint8Array | undefined, rows: number): RaggedSteps | undefined | null {
  if (!offsetBytes && !valueBytes) return undefined;
  if (!offsetBytes || !valueBytes || offsetBytes.length !== (rows + 1) * 4 || valueBytes.length % 8 !== 0) return null;
  const s = { offsets: new Int32Array(new Uint8Array(offsetBytes).buffer), values: new Float64Array(new Uint8Array(valueBytes).buffer) };
  return stepsProblem(s, rows) ? null : s;
}

/** Read and validate a session file. Runs whose arrays do not fit are left out, each with a warning. */
export function readSessionFile(bytes: Uint8Array): ReadSession {
  let files: Record<string, Uint8Array>;
  // Only a session's own entries are inflated, within bounds checked before inflating (a zip bomb is refused at once).
  let total = 0;
  let bomb: string | null = null;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (!ENTRY.test(f.name) || bomb) return false;
        total += f.originalSize;
        if ((f.originalSize > RATIO_FROM_BYTES && f.originalSize > MAX_RATIO * Math.max(1, f.size)) || total > MAX_INFLATED_BYTES) bomb = f.name;
        return !bomb;
      },
    });
  } catch {
    return { ok: false, message: 'this is not a Reward Studio session file (it is not a zip archive, or it is damaged)' };
  }
  if (bomb)
    return {
      ok: false,
      message: `the session file was refused: its entry ${bomb} would inflate to more than ${MAX_RATIO} times its size, or the file past 2 GiB`,
    };
  if (!files['session.json']) return { ok: false, message: 'this zip archive is not a Reward Studio session file (it has no session.json)' };
  let raw: unknown;
  try {
    raw = JSON.parse(strFromU8(files['session.json']));
  } catch {
    return { ok: false, message: 'the session file is damaged: session.json is not valid JSON' };
  }
  const parsed = parseSessionDoc(raw);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const doc = parsed.value;
  const warnings: string[] = [];
  const data = files.data ?? null;
  if (doc.data.kind !== 'demo' && doc.data.kind !== 'none' && !data) return { ok: false, message: 'the session file is damaged: its data is missing' };
  const runs = new Map<number, RunPayload>();
  for (const run of doc.runs) {
    const dir = `runs/${run.id}/`;
    const rows = run.summary.rows;
    const scores = f64(files[`${dir}scores.f64`], rows);
    const status = files[`${dir}status.u8`];
    let meta: { components?: unknown; errors?: unknown; notes?: unknown; stdout?: unknown; strings?: unknown } | null;
    try {
      meta = files[`${dir}meta.json`] ? JSON.parse(strFromU8(files[`${dir}meta.json`])) : null;
    } catch {
      meta = null;
    }
    if (!scores || !status || status.length !== rows || !meta || !Array.isArray(meta.components) || !Array.isArray(meta.errors) || !Array.isArray(meta.notes)) {
      warnings.push(`run #${run.id}: its scores are missing or damaged, so it was left out`);
      continue;
    }
    const badStatus = status.findIndex((s) => s > RowStatus.TimedOut);
    if (badStatus >= 0) {
      warnings.push(`run #${run.id}: row ${badStatus} has status ${status[badStatus]} (runs/${run.id}/status.u8 holds 0–4), so the run was left out`);
      continue;
    }
    const components: Record<string, Float64Array> = {};
    let bad = false;
    (meta.components as unknown[]).forEach((n, k) => {
      const values = f64(files[`${dir}c${k}.f64`], rows);
      if (typeof n !== 'string' || !values) bad = true;
      else setOwn(components, n, values);
    });
    if (bad) {
      warnings.push(`run #${run.id}: a component's values are missing or damaged, so it was left out`);
      continue;
    }
    const strings = meta.strings === undefined ? undefined : textColumns(meta.strings, rows);
    if (strings === null) {
      warnings.push(`run #${run.id}: its text columns are damaged, so it was left out`);
      continue;
    }
    const steps = stepsOf(files[`${dir}steps.i32`], files[`${dir}steps.f64`], rows);
    if (steps === null) {
      warnings.push(`run #${run.id}: its step rewards are damaged, so it was left out`);
      continue;
    }
    runs.set(run.id, {
      ...(strings ? { strings } : {}),
      ...(steps ? { steps } : {}),
      scores,
      status: new Uint8Array(status),
      components,
      errors: (meta.errors as RowError[]).filter((e) => e && inRange(e.row, rows) && typeof e.message === 'string'),
      notes: (meta.notes as [number, string][]).filter((n) => Array.isArray(n) && inRange(n[0], rows) && typeof n[1] === 'string'),
      stdout: typeof meta.stdout === 'string' ? meta.stdout : '',
    });
  }
  // A run's summary is what its scores say, whatever the file wrote next to them.
  const kept = {
    ...doc,
    runs: doc.runs
      .filter((r) => runs.has(r.id))
      .map((r) => {
        const s = summarizeRun(runs.get(r.id)!.scores, runs.get(r.id)!.status);
        return { ...r, summary: { ...s, mean: Number.isNaN(s.mean) ? null : s.mean } };
      }),
  };
  if (kept.currentRunId !== null && !runs.has(kept.currentRunId)) kept.currentRunId = kept.runs.at(-1)?.id ?? null;
  const content = { doc: kept, data, runs };
  return parsed.migratedFrom ? { ok: true, content, warnings, migratedFrom: parsed.migratedFrom } : { ok: true, content, warnings };
}

const inRange = (row: unknown, rows: number): boolean => Number.isInteger(row) && (row as number) >= 0 && (row as number) < rows;
