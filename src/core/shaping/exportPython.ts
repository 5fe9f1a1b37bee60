/**
 * The Shaping list in an exported reward.py (Export for TRL / verl): the same transforms in Python (standard library
 * only), wrapped around the exported function. TRL calls a reward on a batch, so group transforms group the batch's
 * completions by prompt (the studio's default group key); verl's compute_score sees one rollout, so only per-row
 * transforms can be exported for it. Step rewards never reach a trainer's reward function: step transforms are refused.
 */
import { shapeLabel, type ShapeSpec } from './spec';
import type { ExportTarget } from '../python/exportReward';

/** Transforms that read the whole group or batch. */
const GROUP_LEVEL = (s: ShapeSpec) => s.name === 'kimi-length' || s.name === 'center' || (s.name === 'par' && s.ref !== 'column');

/** Why the list cannot be exported for `target`, or null. */
export function shapingExportProblem(specs: readonly ShapeSpec[], target: ExportTarget): string | null {
  for (const s of specs) {
    if (s.name === 'step-clip' || s.name === 'step-delta' || s.name === 'step-sum')
      return `${s.name} reads step rewards (RewardResult.steps), which a ${target === 'trl' ? 'TRL' : 'verl'} reward function does not return`;
    if (target === 'verl' && GROUP_LEVEL(s))
      return `${shapeLabel(s)} needs the rollout's whole group, and verl's compute_score sees one rollout at a time (export for TRL instead)`;
    if (target === 'verl' && (s.name === 'dapo-overlong' || s.name === 'kimi-length') && s.unit === 'tokens')
      return `${shapeLabel(s)} counts tokens, which verl's compute_score is not given (use unit=chars, or verl's reward_model.overlong_buffer)`;
  }
  return null;
}

/** Python literal of a spec (JSON is valid Python here: numbers, strings, null → None). */
function pyLiteral(specs: readonly ShapeSpec[]): string {
  const items = specs.map((s) => {
    const parts = Object.entries(s).map(
      ([k, v]) => `${JSON.stringify(k)}: ${v === null ? 'None' : typeof v === 'string' ? JSON.stringify(v) : numberLiteral(v as number)}`,
    );
    return `    {${parts.join(', ')}},`;
  });
  return `[\n${items.join('\n')}\n]`;
}

const numberLiteral = (x: number) => (Number.isInteger(x) ? `${x}.0` : String(x)).replace(/^(-?\d+)\.0e/, '$1e');

/** The shaping functions, shared by both targets. Lengths in characters are JavaScript's (UTF-16 code units). */
const SHAPE_PY = `
def _rs_js_len(text):
    # JavaScript string length (UTF-16 code units), as the studio measures characters
    return len(text.encode("utf-16-le")) // 2


def _rs_sigmoid(x):
    return 1.0 / (1.0 + _rs_math.exp(-x)) if x >= 0 else _rs_math.exp(x) / (1.0 + _rs_math.exp(x))


def _rs_median(xs):
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def _rs_shape(rewards, groups, lengths, columns):
    """Apply _RS_SHAPING in order. rewards: floats or None (None stays None); groups: a key per row; lengths: {unit: [...]}."""
    r = [None if x is None or not _rs_math.isfinite(float(x)) else float(x) for x in rewards]
    for s in _RS_SHAPING:
        idx = [i for i, x in enumerate(r) if x is not None]
        members = {}
        for i in idx:
            members.setdefault(groups[i], []).append(i)
        name = s["name"]
        if name == "dapo-overlong":
            L, C, ys = s["max"], s["cache"], lengths[s["unit"]]
            for i in idx:
                y = ys[i]
                r[i] += 0.0 if y <= L - C else ((L - C) - y) / C if y <= L else -1.0
        elif name == "kimi-length":
            ys = lengths[s["unit"]]
            for ms in members.values():
                lo, hi = min(ys[i] for i in ms), max(ys[i] for i in ms)
                for i in ms:
                    lam = 0.0 if hi == lo else 0.5 - (ys[i] - lo) / (hi - lo)
                    r[i] += lam if r[i] > 0 else min(0.0, lam)
        elif name == "par":
            new = [None] * len(r)
            for ms in members.values():
                ref = _rs_median([r[i] for i in ms]) if s["ref"] == "median" else r[ms[0]]
                for i in ms:
                    x = ref
                    if s["ref"] == "column":
                        v = (columns.get(s["column"]) or [None] * len(r))[i]
                        x = float(v) if isinstance(v, (int, float)) and _rs_math.isfinite(float(v)) else None
                    new[i] = None if x is None else _rs_sigmoid(r[i] - x)
            r = new
        elif name == "clip":
            for i in idx:
                if s["min"] is not None and r[i] < s["min"]:
                    r[i] = s["min"]
                if s["max"] is not None and r[i] > s["max"]:
                    r[i] = s["max"]
        elif name == "scale":
            for i in idx:
                r[i] *= s["by"]
        elif name == "center":
            parts = members.values() if s["over"] == "group" else [idx]
            for ms in parts:
                if ms:
                    m = sum(r[i] for i in ms) / len(ms)
                    for i in ms:
                        r[i] -= m
    return r
`;

/**
 * Append the shaping to an exported file: `text` defines `inner` (the function the trainer would have called);
 * the result defines `<inner>_shaped` with the same signature, which the trainer is pointed at instead.
 */
export function withShaping(
  text: string,
  inner: string,
  specs: readonly ShapeSpec[],
  target: ExportTarget,
  /** TRL, `inner` a reward_funcs list: its reward_weights (the wrapper sums weight × value, None left out, as TRL). */
  weights?: readonly number[],
): { text: string; functionName: string } {
  const problem = shapingExportProblem(specs, target);
  if (problem) throw new Error(`the Shaping list cannot be exported for ${target === 'trl' ? 'TRL' : 'verl'}: ${problem}`);
  const name = `${inner}_shaped`;
  const labels = specs.map(shapeLabel).join(' → ');
  const head = `\n\n# ---- Shaping, exported from Reward Studio: ${labels}\n# The trainer calls ${name}, which applies these transforms in order to ${inner}'s rewards.\nimport math as _rs_math\n\n_RS_SHAPING = ${pyLiteral(specs)}\n`;
  const wrapper =
    target === 'trl'
      ? [
          '',
          '',
          `def ${name}(prompts=None, completions=None, completion_ids=None, **kwargs):`,
          `    """${inner} with the Shaping list: groups are the batch's completions of one prompt; tokens are completion_ids."""`,
          ...(weights
            ? [
                `    per = [f(prompts=prompts, completions=completions, completion_ids=completion_ids, **kwargs) for f in ${inner}]`,
                `    # TRL's nansum over the functions: None left out, a row where every function returned None is 0`,
                `    rewards = [sum(w * float(p[k]) for w, p in zip([${weights.map(numberLiteral).join(', ')}], per) if p[k] is not None) for k in range(len(completions))]`,
              ]
            : [`    rewards = ${inner}(prompts=prompts, completions=completions, completion_ids=completion_ids, **kwargs)`]),
          '    n = len(completions)',
          '    texts = [c if isinstance(c, str) else "".join(m.get("content") or "" for m in c if isinstance(m, dict)) for c in completions]',
          '    groups = [repr(p) for p in (prompts if prompts is not None else [None] * n)]',
          '    lengths = {"chars": [_rs_js_len(t) for t in texts], "tokens": [len(ids) for ids in completion_ids] if completion_ids is not None else None}',
          '    return _rs_shape(rewards, groups, lengths, kwargs)',
        ]
      : [
          '',
          '',
          `def ${name}(data_source, solution_str, ground_truth, extra_info=None, **kwargs):`,
          `    """${inner} with the Shaping list (per-row transforms: verl scores one rollout at a time)."""`,
          `    r = ${inner}(data_source=data_source, solution_str=solution_str, ground_truth=ground_truth, extra_info=extra_info)`,
          '    score = r["score"] if isinstance(r, dict) else r',
          '    columns = {k: [v] for k, v in (extra_info or {}).items()}',
          '    out = _rs_shape([score], [0], {"chars": [_rs_js_len(solution_str)]}, columns)[0]',
          '    return 0.0 if out is None else out',
        ];
  const retarget = (t: string) => t.split(`custom_reward_function.name=${inner}`).join(`custom_reward_function.name=${name}`);
  const fixedHeader = target === 'trl' ? retargetTrl(text, inner, name, weights !== undefined) : retarget(text);
  return { functionName: name, text: fixedHeader + head + SHAPE_PY + wrapper.join('\n') + '\n' };
}

/** The usage comment names the shaped function (`import x` / `reward_funcs=[x]`); a list's weights are applied inside. */
function retargetTrl(text: string, inner: string, name: string, list: boolean): string {
  const t = text.replace(`import ${inner}\n`, `import ${name}\n`).replace(`reward_funcs=[${inner}]`, `reward_funcs=[${name}]`);
  return list
    ? t.replace(/reward_funcs=\S+, args=GRPOConfig\(\.\.\., reward_weights=\[[^\]]*\]\)\)/, `reward_funcs=[${name}])  # the weights are applied inside`)
    : t;
}
