/**
 * The Shaping list as a TypeScript module with no imports, for a TypeScript / JavaScript training pipeline: the same
 * transforms as shape.ts, written out again over plain arrays (a rollout's group key, completion, token count, step
 * rewards and fields), so the file runs anywhere. Its tests run it on the Python reference fixture.
 */
import { shapeLabel, type ShapeSpec } from './spec';

const BODY = `
export interface ShapingRow {
  /** The GRPO group key (rollouts of one prompt share it). */
  group: string;
  completion: string;
  /** Token count of the completion (needed by unit=tokens transforms). */
  tokens?: number;
  /** Step rewards (RewardResult.steps), for step-clip / step-delta / step-sum. */
  steps?: number[];
  /** The row's columns (par with ref=column reads a number from here). */
  fields?: Record<string, unknown>;
}

/** JavaScript string length (UTF-16 code units): the studio's unit=chars. */
const charLength = (s: string) => s.length;

/**
 * Apply SHAPING in order. rewards[i]: the reward of rows[i], or null when the row has none (it stays null).
 * Group statistics are over a group's rows that have a reward.
 */
export function shape(rewards: readonly (number | null)[], rows: readonly ShapingRow[]): (number | null)[] {
  if (rewards.length !== rows.length) throw new RangeError('shape: rewards and rows differ in length');
  let r: (number | null)[] = rewards.map((x) => (x === null || !Number.isFinite(x) ? null : x));
  let steps: number[][] = rows.map((t) => [...(t.steps ?? [])]);
  const length = (i: number, unit: 'tokens' | 'chars') => {
    if (unit === 'chars') return charLength(rows[i].completion);
    const k = rows[i].tokens;
    if (k === undefined) throw new Error('a unit=tokens transform needs ShapingRow.tokens');
    return k;
  };
  for (const s of SHAPING) {
    const cur = r;
    const idx = cur.flatMap((x, i) => (x === null ? [] : [i]));
    const groups = new Map<string, number[]>();
    for (const i of idx) {
      const g = groups.get(rows[i].group);
      if (g) g.push(i);
      else groups.set(rows[i].group, [i]);
    }
    const at = (i: number) => cur[i] as number;
    switch (s.name) {
      case 'dapo-overlong':
        for (const i of idx) {
          const y = length(i, s.unit);
          cur[i] = at(i) + (y <= s.max - s.cache ? 0 : y <= s.max ? (s.max - s.cache - y) / s.cache : -1);
        }
        break;
      case 'kimi-length':
        for (const ms of groups.values()) {
          const ys = ms.map((i) => length(i, s.unit));
          const lo = Math.min(...ys);
          const hi = Math.max(...ys);
          ms.forEach((i, k) => {
            const lam = hi === lo ? 0 : 0.5 - (ys[k] - lo) / (hi - lo);
            cur[i] = at(i) + (at(i) > 0 ? lam : Math.min(0, lam));
          });
        }
        break;
      case 'par': {
        const next: (number | null)[] = cur.map(() => null);
        for (const ms of groups.values()) {
          const sorted = ms.map(at).sort((a, b) => a - b);
          const m = sorted.length >> 1;
          const median = sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
          for (const i of ms) {
            let ref: number | null = s.ref === 'median' ? median : at(ms[0]);
            if (s.ref === 'column') {
              const v = rows[i].fields?.[s.column as string];
              ref = typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? Number(v) : null;
            }
            next[i] = ref === null ? null : 1 / (1 + Math.exp(-(at(i) - ref)));
          }
        }
        r = next;
        break;
      }
      case 'clip':
        for (const i of idx) cur[i] = Math.min(Math.max(at(i), s.min ?? -Infinity), s.max ?? Infinity);
        break;
      case 'scale':
        for (const i of idx) cur[i] = at(i) * s.by;
        break;
      case 'center':
        for (const ms of s.over === 'group' ? groups.values() : [idx]) {
          const mean = ms.reduce((a, i) => a + at(i), 0) / ms.length;
          for (const i of ms) cur[i] = at(i) - mean;
        }
        break;
      case 'step-clip':
        steps = steps.map((xs) => xs.map((x) => Math.min(x - s.eta, 0)));
        break;
      case 'step-delta':
        steps = steps.map((xs) => xs.map((x, k) => (k + 1 < xs.length ? x - xs[k + 1] : s.last === 'drop' ? 0 : x)));
        break;
      case 'step-sum':
        for (const i of idx) cur[i] = at(i) + s.weight * steps[i].reduce((a, b) => a + b, 0);
        break;
    }
  }
  return r;
}
`;

/** The module's text: the list as a constant (its type lets each case read its own options), then `shape`. */
export function exportShapingTs(specs: readonly ShapeSpec[]): string {
  const list = specs.map((s) => `  ${JSON.stringify(s)},`).join('\n');
  return (
    `// Shaping, exported from Reward Studio: ${specs.map(shapeLabel).join(' → ') || '(no transforms)'}\n` +
    '// Formulas and sources: the studio README, "Shaping". No imports: copy it next to your reward.\n\n' +
    'type Spec =\n' +
    "  | { name: 'dapo-overlong'; max: number; cache: number; unit: 'tokens' | 'chars' }\n" +
    "  | { name: 'kimi-length'; unit: 'tokens' | 'chars' }\n" +
    "  | { name: 'par'; ref: 'median' | 'first' | 'column'; column: string | null }\n" +
    "  | { name: 'clip'; min: number | null; max: number | null }\n" +
    "  | { name: 'scale'; by: number }\n" +
    "  | { name: 'center'; over: 'group' | 'batch' }\n" +
    "  | { name: 'step-clip'; eta: number }\n" +
    "  | { name: 'step-delta'; last: 'keep' | 'drop' }\n" +
    "  | { name: 'step-sum'; weight: number };\n\n" +
    `export const SHAPING: readonly Spec[] = [\n${list}\n];\n` +
    BODY
  );
}
