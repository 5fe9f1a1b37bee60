/**
 * The persisted shapes of a session, validated at the door (zod) and versioned, with the migrations next to them.
 *
 * Two version lines:
 * - share links (`SharedSession`): v1 links carried TypeScript code only (the studio before Python rewards);
 *   v2 adds the language, the Python options and the selected run. `migrateShared` brings any older link to the
 *   current shape, one step at a time, so an old link always opens.
 * - session documents (`SessionDoc`, autosaved in IndexedDB and written into session files): v1 is the first.
 *
 * Every load goes through `parse…`, which never throws: it returns the value or a message naming the place
 * ("editor.code: expected string").
 */
import { z } from 'zod';
import { FORMAT_IDS } from '../formats/types';
import { normaliseShapes } from '../shaping/spec';
import { PRESET_IDS } from '../stats/advantage';
import { TOKENIZER_IDS } from '../tokenize/tokenizers';
import { RUN_NAME_MAX, RUN_NOTE_MAX, safeRunText } from './runLabels';

export const SHARE_VERSION = 2;
export const SESSION_DOC_VERSION = 1;

/** Diagnostics tabs. New ids are only appended: a saved session or a link keeps naming its tab the same way. */
export const DIAG_TABS = ['distribution', 'length', 'collapse', 'label', 'compare', 'preference', 'bestofn', 'groupby', 'stress', 'steps', 'shaping'] as const;
export type DiagTabId = (typeof DIAG_TABS)[number];

const MAX_CODE = 1_000_000;
const name = z.string().max(500);
const rows = z.number().int().min(0);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 in hex');

const mapping = z.object({
  prompt: z.string(),
  completion: z.string(),
  group: z.string().optional(),
  groundTruth: z.string().optional(),
  step: z.string().optional(),
});
const importChoice = z.object({ format: z.enum(FORMAT_IDS).optional(), mapping: mapping.optional() });

/**
 * Where the session's rollouts come from: the bundled demo; a URL (`?data=`); a file the recipient must drop
 * (checked against its SHA-256); or bytes carried inside the link itself (`inline`, next to the JSON).
 */
export const dataRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('demo') }),
  z.object({ kind: z.literal('url'), url: z.string().min(1).max(8192), name, rows, import: importChoice }),
  z.object({ kind: z.literal('inline'), name, rows, size: rows, sha256, import: importChoice }),
  /** A saved session may not have hashed its file yet; a link always carries the hash (see `decodeShare`). */
  z.object({ kind: z.literal('file'), name, rows, size: rows, sha256: sha256.optional(), import: importChoice }),
  /** Nothing loaded yet. */
  z.object({ kind: z.literal('none') }),
]);
export type DataRef = z.infer<typeof dataRefSchema>;

const language = z.enum(['ts', 'py']);
const editorSettings = {
  tokenizer: z.enum(TOKENIZER_IDS as [string, ...string[]]),
  timeLimitMs: z.number().int().min(1).max(3_600_000),
  pyFunction: z.string().max(200).nullable(),
  pyBatchSize: z.number().int().min(1).max(1_000_000),
};
/** A table column id: built-in (`reward`), or `field:<name>` / `component:<name>` / `advantage` / `tokens`. */
const columnId = z.string().min(1).max(300);
const MAX_TABLE_COLUMNS = 200;
/** Runs drawn beside the current one in the Distribution histogram (store/runsSlice MAX_OVERLAID − 1). */
export const MAX_OVERLAY_RUNS = 3;
/** Reward models a link names (as `sharedV2Schema.models`). */
export const MAX_LINK_MODELS = 8;

/**
 * Optional view state added after v1: a value that does not fit is dropped (`undefined`, the default view), a list
 * too long is cut, so that a stored session or a link edited by hand still opens.
 */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const shapingSchema = z.unknown().transform((v, ctx) => {
  const n = normaliseShapes(v);
  if (n.ok) return n.value;
  ctx.addIssue({ code: 'custom', message: n.message });
  return z.NEVER;
});
/** A completion-length cap larger than any model's context: anything above it is a typo or a crafted value. */
export const MAX_STEPS_MAX_LENGTH = 10_000_000;
export const uiSchema = z.object({
  diagTab: z.enum(DIAG_TABS),
  lengthUnit: z.enum(['chars', 'tokens']),
  preset: z.enum(PRESET_IDS),
  labelColumn: z.string().max(500).nullable(),
  /** Dataset index of the rollout open in the detail view. */
  selectedRow: z.number().int().min(0).nullable(),
  /** The table's extra columns, their filters and its sort (issue 21, item 15); absent in sessions from before. */
  table: z
    .object({
      columns: z.array(columnId).max(MAX_TABLE_COLUMNS),
      filters: z
        .array(
          z.union([
            z.object({ id: columnId, contains: z.string().max(1000) }),
            z.object({ id: columnId, min: z.number().optional(), max: z.number().optional() }),
          ]),
        )
        .max(MAX_TABLE_COLUMNS),
      sortKey: columnId,
      sortDesc: z.boolean(),
    })
    .optional(),
  /**
   * Run ids overlaid in the Distribution histogram (null: the previous run, the default). Ids of runs not in the
   * session are dropped when it opens (app/sessions/open.ts).
   */
  overlayRuns: lenient(
    z
      .array(z.number().int().min(1))
      .max(1000)
      .transform((ids) => [...new Set(ids)].slice(0, MAX_OVERLAY_RUNS))
      .nullable(),
  ),
  /** The Group by tab's column (null: its default; '' none picked); a column the data lacks falls back to the default. */
  groupBy: lenient(z.string().max(500).nullable()),
  /** The Shaping list (issue 25); absent: none. A bad one is refused, naming the part (core/shaping/spec.ts). */
  shaping: shapingSchema.optional(),
  /** The other diagnostics tabs show the shaped reward; absent: they show the reward as it is. */
  shapeDiagnostics: lenient(z.boolean()),
  /** The Over steps tab's maximum completion length (truncation by length); absent: none given. */
  stepsMaxLength: lenient(z.number().int().min(1).max(MAX_STEPS_MAX_LENGTH)),
});
export type UiState = z.infer<typeof uiSchema>;

/** Text the user wrote about a run: bounded, and free of control and bidi-override characters (core/session/runLabels). */
const runText = (kind: 'name' | 'note', max: number) =>
  z
    .string()
    .max(max, `expected at most ${max} characters`)
    .refine((t) => safeRunText(t, kind), 'holds control or text-direction characters');

const summary = z.object({
  rows,
  ok: rows,
  nulls: rows,
  errors: rows,
  timedOut: rows,
  pending: rows,
  /** null where no row scored (NaN does not survive JSON). */
  mean: z.number().nullable(),
});
export const runMetaSchema = z.object({
  id: z.number().int().min(1),
  code: z.string().max(MAX_CODE),
  language,
  pyFunction: z.string().max(200).optional(),
  /** Several reward functions: their names (component columns of the run) and weights. */
  functions: z
    .array(z.object({ name: z.string().max(200), weight: z.number().finite() }))
    .max(64)
    .optional(),
  startedAt: z.number(),
  elapsedMs: z.number().min(0),
  cancelled: z.boolean(),
  summary,
  /** The run came in a session file: its code is not the user's (restoring it into the editor makes it wait for Run). */
  from: z.enum(['link', 'file']).optional(),
  /** The user's name and note for the run (optional, so older sessions and links stay valid without a new version). */
  name: runText('name', RUN_NAME_MAX).optional(),
  note: runText('note', RUN_NOTE_MAX).optional(),
});
export type RunMeta = z.infer<typeof runMetaSchema>;

// ---- share links -------------------------------------------------------------------------------------------

/** v1 (kept for old links): TypeScript code and a few settings; no language, no Python, no run. */
export const sharedV1Schema = z.object({
  v: z.literal(1),
  code: z.string().max(MAX_CODE),
  settings: z.object({
    tokenizer: editorSettings.tokenizer,
    timeLimitMs: editorSettings.timeLimitMs,
    preset: uiSchema.shape.preset,
    diagTab: uiSchema.shape.diagTab,
    lengthUnit: uiSchema.shape.lengthUnit,
  }),
  data: dataRefSchema,
  row: z.number().int().min(0).nullable(),
});
export type SharedV1 = z.infer<typeof sharedV1Schema>;

/** A tensor of a model's graph as the link names it: its name and shape (a number, or a symbolic size such as `batch`). */
const tensorRefSchema = z.object({ name: z.string().min(1).max(200), shape: z.array(z.union([z.number().int().min(-1), z.string().max(100)])).max(8) });

/**
 * A reward model the shared reward read (`ctx.models.<id>`): what the recipient must load, never its weights. Added to
 * v2 as an optional field: a link without it is the v2 link it always was, and a studio that predates it ignores it.
 */
export const modelRefSchema = z.object({
  id: z
    .string()
    .max(100)
    .regex(/^[A-Za-z_$][\w$]*$/, 'expected an identifier (the name reward code uses: ctx.models.<id>)'),
  name: z.string().min(1).max(300),
  inputs: z.array(tensorRefSchema).max(16),
  outputs: z.array(tensorRefSchema).max(16),
  /** Bytes of the .onnx file. */
  size: z
    .number()
    .int()
    .min(0)
    .max(2 ** 53),
  /** SHA-256 of the .onnx file (the studio's cache key): the recipient's file is told apart by it. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
});
export type ModelRef = z.infer<typeof modelRefSchema>;

export const sharedV2Schema = z.object({
  v: z.literal(2),
  name,
  editor: z.object({ language, code: z.string().max(MAX_CODE), ...editorSettings }),
  ui: uiSchema,
  data: dataRefSchema,
  /** The run selected when the link was made: its code and summary (its scores are not carried). */
  run: runMetaSchema.nullable(),
  /** The reward models the reward used when the link was made (issue 21). */
  models: z.array(modelRefSchema).max(8).optional(),
});
export type SharedSession = z.infer<typeof sharedV2Schema>;

const SHARED_SCHEMAS: Record<number, z.ZodType> = { 1: sharedV1Schema, 2: sharedV2Schema };

/** One step per version: `SHARED_MIGRATIONS[n]` turns a valid v(n) into a v(n+1). */
export const SHARED_MIGRATIONS: Record<number, (old: never) => unknown> = {
  1: (old: SharedV1) => ({
    v: 2,
    name: 'Shared session',
    editor: { language: 'ts', code: old.code, tokenizer: old.settings.tokenizer, timeLimitMs: old.settings.timeLimitMs, pyFunction: null, pyBatchSize: 32 },
    ui: { diagTab: old.settings.diagTab, lengthUnit: old.settings.lengthUnit, preset: old.settings.preset, labelColumn: null, selectedRow: old.row },
    data: old.data,
    run: null,
  }),
};

// ---- session documents (IndexedDB, session files) ----------------------------------------------------------

/**
 * Where the editor's code came from, while it has not been run here: a link or a session file. `languages` names the
 * languages whose code came from there and waits for Run (absent: both; a link carries the code of one language).
 */
export const originSchema = z.object({
  from: z.enum(['link', 'file']),
  at: z.number(),
  run: runMetaSchema.nullable(),
  languages: z.array(language).min(1).max(2).optional(),
});
export type CodeOrigin = z.infer<typeof originSchema>;

export const sessionDocSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(100),
  name,
  createdAt: z.number(),
  updatedAt: z.number(),
  editor: z.object({ language, code: z.object({ ts: z.string().max(MAX_CODE), py: z.string().max(MAX_CODE) }), ...editorSettings }),
  ui: uiSchema,
  data: dataRefSchema,
  /** Bumped at every import into this session: runs made on other data are not restored with this one. */
  dataVersion: z.number().int().min(0),
  runs: z.array(runMetaSchema.extend({ dataVersion: z.number().int().min(0) })).max(10_000),
  currentRunId: z.number().int().nullable(),
  /** Code that came from a link or a file and has not been run here yet: shown with a notice, never auto-run. */
  origin: originSchema.nullable(),
  /** The reward models the link this session came from names (still asked for after a reload); absent: none. */
  linkModels: lenient(
    z
      .array(modelRefSchema)
      .max(1000)
      .transform((ms) => ms.slice(0, MAX_LINK_MODELS)),
  ),
});
export type SessionDoc = z.infer<typeof sessionDocSchema>;

const DOC_SCHEMAS: Record<number, z.ZodType> = { 1: sessionDocSchema };
const DOC_MIGRATIONS: Record<number, (old: never) => unknown> = {};

// ---- validation ----------------------------------------------------------------------------------------------

export type Parsed<T> = { ok: true; value: T; migratedFrom?: number } | { ok: false; reason: 'newer' | 'invalid'; message: string };

/** "editor.code: expected string, received number" — the first problems, each with its place. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}

function parseVersioned<T>(
  raw: unknown,
  what: string,
  current: number,
  schemas: Record<number, z.ZodType>,
  migrations: Record<number, (old: never) => unknown>,
): Parsed<T> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'invalid', message: `the ${what} is not an object` };
  const v = (raw as { v?: unknown }).v;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return { ok: false, reason: 'invalid', message: `the ${what} has no valid version number (v)` };
  if (v > current) {
    return {
      ok: false,
      reason: 'newer',
      message: `this ${what} was made by a newer version of Reward Studio (schema v${v}; this studio reads up to v${current}). Update the studio to open it.`,
    };
  }
  let value: unknown = raw;
  for (let step = v; step <= current; step++) {
    const schema = schemas[step];
    if (!schema) return { ok: false, reason: 'invalid', message: `no schema for ${what} version ${step}` };
    const r = schema.safeParse(value);
    if (!r.success) return { ok: false, reason: 'invalid', message: `the ${what} (v${step}) is not valid: ${describeIssues(r.error)}` };
    value = step < current ? migrations[step](r.data as never) : r.data;
  }
  return v < current ? { ok: true, value: value as T, migratedFrom: v } : { ok: true, value: value as T };
}

export function parseShared(raw: unknown): Parsed<SharedSession> {
  return parseVersioned<SharedSession>(raw, 'link', SHARE_VERSION, SHARED_SCHEMAS, SHARED_MIGRATIONS);
}

export function parseSessionDoc(raw: unknown): Parsed<SessionDoc> {
  return parseVersioned<SessionDoc>(raw, 'session', SESSION_DOC_VERSION, DOC_SCHEMAS, DOC_MIGRATIONS);
}
