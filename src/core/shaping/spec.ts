/**
 * The Shaping step's settings: an ordered list of transforms, each a name and its options. Options are normalised once
 * here (defaults filled, values checked) and a bad one fails as `invalid <name>: <value>`; the CLI's `--shape`, a
 * session file and a share link all come through `normaliseShape`, so the transforms never see an unchecked value.
 */

export type LengthUnit = 'tokens' | 'chars';

export type ShapeSpec =
  | { name: 'dapo-overlong'; max: number; cache: number; unit: LengthUnit }
  | { name: 'kimi-length'; unit: LengthUnit }
  | { name: 'par'; ref: 'median' | 'first' | 'column'; column: string | null }
  | { name: 'clip'; min: number | null; max: number | null }
  | { name: 'scale'; by: number }
  | { name: 'center'; over: 'group' | 'batch' }
  | { name: 'step-clip'; eta: number }
  | { name: 'step-delta'; last: 'keep' | 'drop' }
  | { name: 'step-sum'; weight: number };

export type ShapeName = ShapeSpec['name'];

/** The most transforms a list may hold (a session or a link cannot grow it without bound). */
export const MAX_SHAPES = 16;
const MAX_COLUMN = 500;

export interface ShapeInfo {
  /** Options with their default ("required" when there is none). */
  options: Record<string, string>;
  /** The exact formula, as the UI and README show it. */
  formula: string;
  source: string;
}

/** Each transform's options, formula and source; the UI, `--help` and README read these lines. */
export const SHAPES: Record<ShapeName, ShapeInfo> = {
  'dapo-overlong': {
    options: { max: 'required (L)', cache: 'required (C, 0 ≤ C ≤ L)', unit: 'tokens' },
    formula: 'r + 0 if |y| ≤ L − C; r + ((L − C) − |y|) / C if L − C < |y| ≤ L; r − 1 if |y| > L',
    source: 'DAPO (Yu et al. 2025), soft overlong punishment (R_length)',
  },
  'kimi-length': {
    options: { unit: 'tokens' },
    formula:
      'per group: λ = 0.5 − (|y| − min) / (max − min) (λ = 0 when max = min), min/max over the group’s scored lengths; r + λ when r > 0 (correct), r + min(0, λ) otherwise',
    source: 'Kimi k1.5 (Kimi Team 2025), length penalty (length reward)',
  },
  par: {
    options: { ref: 'median (median | first | column)', column: 'required with ref=column' },
    formula:
      'sigmoid(r − r_ref); r_ref = the group median of r (ref=median), the group’s first scored rollout in file order (ref=first; it gets 0.5), or the row’s numeric column (ref=column)',
    source: 'Preference As Reward (Fu et al. 2025, "Reward Shaping to Mitigate Reward Hacking in RLHF"), one reference',
  },
  clip: {
    options: { min: 'none', max: 'none' },
    formula: 'min(max(r, min), max)',
    source: 'bounding the reward (as OpenRLHF’s reward clip_range)',
  },
  scale: { options: { by: 'required' }, formula: 'r × by', source: 'linear rescaling' },
  center: {
    options: { over: 'batch (batch | group)' },
    formula: 'r − mean(r) over the batch’s scored rows (over=batch) or the group’s (over=group)',
    source: 'mean subtraction',
  },
  'step-clip': {
    options: { eta: 'required (η)' },
    formula: 'each step reward r_k → min(r_k − η, 0)',
    source: 'Clip mechanism, Gao et al. 2024, "On designing effective RL reward at training time for LLM reasoning"',
  },
  'step-delta': {
    options: { last: 'keep (keep | drop)' },
    formula:
      'r_k → r_k − r_{k+1} for k < K; r_K → r_K with last=keep (the return from step k is then r_k), 0 with last=drop (the return is r_k − r_K, the last step left to the outcome reward)',
    source: 'Delta mechanism, Gao et al. 2024, "On designing effective RL reward at training time for LLM reasoning"',
  },
  'step-sum': {
    options: { weight: '1' },
    formula: 'r + weight × Σ_k r_k over the row’s (shaped) step rewards (RewardResult.steps; none: + 0)',
    source: 'the process rewards added to the outcome reward (return at the first step, γ = 1), as in Gao et al. 2024',
  },
};

export const SHAPE_NAMES = Object.keys(SHAPES) as ShapeName[];

export type Normalised<T> = { ok: true; value: T } | { ok: false; message: string };

const bad = (name: string, value: unknown): { ok: false; message: string } => ({ ok: false, message: `invalid ${name}: ${show(value)}` });

function show(v: unknown): string {
  if (typeof v === 'string') return v.length > 60 ? `${v.slice(0, 60)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  try {
    const s = JSON.stringify(v);
    return s.length > 60 ? `${s.slice(0, 60)}…` : s;
  } catch {
    return typeof v;
  }
}

/** A finite number from a number or a numeric string (the CLI passes strings); NaN otherwise. */
function num(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v === 'string' && v.trim() !== '' && /^[\s\d.eE+-]+$/.test(v)) return Number(v);
  return NaN;
}

/**
 * One transform from loose input ({name, ...options}; option values may be strings, as the CLI gives them): the
 * normalised spec, or `invalid <name>: <value>` naming the first bad part (an unknown option included).
 */
export function normaliseShape(raw: unknown): Normalised<ShapeSpec> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('shape', raw);
  const o = raw as Record<string, unknown>;
  const name = o.name;
  if (typeof name !== 'string' || !Object.hasOwn(SHAPES, name)) return bad('shape name', name);
  const known = new Set(['name', ...Object.keys(SHAPES[name as ShapeName].options)]);
  for (const k of Object.keys(o)) if (!known.has(k)) return bad(`${name} option`, k);
  const has = (k: string) => Object.hasOwn(o, k) && o[k] !== undefined && o[k] !== null;
  const unit = (): LengthUnit | null => {
    const u = has('unit') ? o.unit : 'tokens';
    return u === 'tokens' || u === 'chars' ? u : null;
  };
  switch (name as ShapeName) {
    case 'dapo-overlong': {
      const max = num(o.max);
      if (!(max > 0)) return bad(`${name} max`, o.max);
      const cache = num(o.cache);
      if (!(cache >= 0 && cache <= max)) return bad(`${name} cache`, o.cache);
      const u = unit();
      if (!u) return bad(`${name} unit`, o.unit);
      return { ok: true, value: { name: 'dapo-overlong', max, cache, unit: u } };
    }
    case 'kimi-length': {
      const u = unit();
      if (!u) return bad(`${name} unit`, o.unit);
      return { ok: true, value: { name: 'kimi-length', unit: u } };
    }
    case 'par': {
      const ref = has('ref') ? o.ref : 'median';
      if (ref !== 'median' && ref !== 'first' && ref !== 'column') return bad(`${name} ref`, o.ref);
      let column: string | null = null;
      if (ref === 'column') {
        if (typeof o.column !== 'string' || o.column === '' || o.column.length > MAX_COLUMN) return bad(`${name} column`, o.column);
        column = o.column;
      } else if (has('column')) return bad(`${name} column`, `${show(o.column)} (only with ref=column)`);
      return { ok: true, value: { name: 'par', ref, column } };
    }
    case 'clip': {
      const min = has('min') ? num(o.min) : null;
      if (min !== null && Number.isNaN(min)) return bad(`${name} min`, o.min);
      const max = has('max') ? num(o.max) : null;
      if (max !== null && Number.isNaN(max)) return bad(`${name} max`, o.max);
      if (min === null && max === null) return bad(`${name}`, 'no min or max');
      if (min !== null && max !== null && min > max) return bad(`${name} min`, `${min} (above max ${max})`);
      return { ok: true, value: { name: 'clip', min, max } };
    }
    case 'scale': {
      const by = num(o.by);
      if (Number.isNaN(by)) return bad(`${name} by`, o.by);
      return { ok: true, value: { name: 'scale', by } };
    }
    case 'center': {
      const over = has('over') ? o.over : 'batch';
      if (over !== 'batch' && over !== 'group') return bad(`${name} over`, o.over);
      return { ok: true, value: { name: 'center', over } };
    }
    case 'step-clip': {
      const eta = num(o.eta);
      if (Number.isNaN(eta)) return bad(`${name} eta`, o.eta);
      return { ok: true, value: { name: 'step-clip', eta } };
    }
    case 'step-delta': {
      const last = has('last') ? o.last : 'keep';
      if (last !== 'keep' && last !== 'drop') return bad(`${name} last`, o.last);
      return { ok: true, value: { name: 'step-delta', last } };
    }
    case 'step-sum': {
      const weight = has('weight') ? num(o.weight) : 1;
      if (Number.isNaN(weight)) return bad(`${name} weight`, o.weight);
      return { ok: true, value: { name: 'step-sum', weight } };
    }
  }
}

/**
 * A whole list: each transform normalised, at most MAX_SHAPES, and step transforms (which rewrite the step rewards)
 * followed by a `step-sum` that brings them into the reward (else they would change nothing, silently).
 */
export function normaliseShapes(raw: unknown): Normalised<ShapeSpec[]> {
  if (!Array.isArray(raw)) return bad('shaping', raw);
  if (raw.length > MAX_SHAPES) return bad('shaping', `${raw.length} transforms (at most ${MAX_SHAPES})`);
  const out: ShapeSpec[] = [];
  for (const r of raw) {
    const n = normaliseShape(r);
    if (!n.ok) return n;
    out.push(n.value);
  }
  let pendingStep: string | null = null;
  for (const s of out) {
    if (s.name === 'step-clip' || s.name === 'step-delta') pendingStep = s.name;
    else if (s.name === 'step-sum') pendingStep = null;
  }
  if (pendingStep) return bad('shaping', `${pendingStep} without a step-sum after it`);
  return { ok: true, value: out };
}

/**
 * `--shape <name>:<k>=<v>,…` (or just `<name>`) as loose input for normaliseShape. The column of `par:ref=column,
 * column=<name>` may not hold a comma or an equals sign.
 */
export function parseShapeArg(arg: string): Normalised<ShapeSpec> {
  const colon = arg.indexOf(':');
  const name = colon < 0 ? arg : arg.slice(0, colon);
  const raw: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  raw.name = name;
  if (colon >= 0) {
    const rest = arg.slice(colon + 1);
    for (const part of rest === '' ? [] : rest.split(',')) {
      const eq = part.indexOf('=');
      if (eq <= 0) return bad(`${name} option`, part);
      const k = part.slice(0, eq).trim();
      if (k === 'name' || Object.hasOwn(raw, k)) return bad(`${name} option`, k);
      raw[k] = part.slice(eq + 1).trim();
    }
  }
  return normaliseShape({ ...raw });
}

/** The spec as `--shape` writes it (the inverse of parseShapeArg), for reports and the UI. */
export function shapeLabel(s: ShapeSpec): string {
  const opts: string[] = [];
  for (const [k, v] of Object.entries(s)) if (k !== 'name' && v !== null) opts.push(`${k}=${String(v)}`);
  return opts.length ? `${s.name}:${opts.join(',')}` : s.name;
}

/** What applying the list needs besides the rewards and groups. */
export interface ShapeNeeds {
  tokens: boolean;
  chars: boolean;
  columns: string[];
  steps: boolean;
}

export function shapeNeeds(specs: readonly ShapeSpec[]): ShapeNeeds {
  const n: ShapeNeeds = { tokens: false, chars: false, columns: [], steps: false };
  for (const s of specs) {
    if (s.name === 'dapo-overlong' || s.name === 'kimi-length') n[s.unit] = true;
    else if (s.name === 'par' && s.column !== null && !n.columns.includes(s.column)) n.columns.push(s.column);
    else if (s.name === 'step-sum') n.steps = true;
  }
  return n;
}
