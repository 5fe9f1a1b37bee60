import { transform } from 'sucrase';
import { readOnlyHint } from './readOnly';
import type { Trajectory } from '../trajectory';
import type { RewardContext } from './context';
import { COMPONENT_LIMIT } from './contract';
import { uniqueNames } from './weighted';

export type RewardFn = (t: Trajectory, ctx: RewardContext) => unknown;

/** One of several reward functions a module lists (`export const rewardFuncs = [...]`), with its weight. */
export interface ListedReward {
  name: string;
  weight: number;
  fn: RewardFn;
}

export type CompileResult = { ok: true; fn: RewardFn; functions?: ListedReward[] } | { ok: false; message: string; line?: number; column?: number };

/**
 * Compile reward source (TypeScript or JavaScript, ES module syntax with `export default function reward(t, ctx)`)
 * into a callable. Sucrase strips types and rewrites imports/exports to CommonJS while keeping line numbers,
 * so errors thrown by the code point at the user's own lines.
 */
export function compileReward(source: string): CompileResult {
  let code: string;
  try {
    code = transform(source, { transforms: ['typescript', 'imports'], disableESTransforms: true, production: true }).code;
  } catch (e) {
    const err = e as Error & { loc?: { line: number; column: number } };
    const loc = err.loc;
    const message = err.message.replace(/\s*\(\d+:\d+\)\s*$/, '');
    return { ok: false, message, line: loc?.line, column: loc ? loc.column + 1 : undefined };
  }
  let exports: Record<string, unknown>;
  try {
    const module = { exports: {} as Record<string, unknown> };
    // The code arrives as text and runs only inside a worker (or the Node CLI); `require` is not offered.
    const factory = new Function('module', 'exports', 'require', `${code}\n//# sourceURL=reward.ts`);
    factory(module, module.exports, (name: string) => {
      throw new Error(`import of "${name}" is not available in reward code`);
    });
    exports = module.exports;
  } catch (e) {
    const err = e as Error;
    return { ok: false, message: readOnlyHint(`${err.name}: ${err.message}`), line: errorLine(err) };
  }
  if (Object.hasOwn(exports, 'rewardFuncs') || Object.hasOwn(exports, 'reward_funcs')) return listedRewards(exports);
  const fn = exports.default ?? exports.reward;
  if (typeof fn !== 'function') {
    return { ok: false, message: 'reward code must `export default function reward(t, ctx)` or `export const rewardFuncs = [f, g]`' };
  }
  return { ok: true, fn: fn as RewardFn };
}

/**
 * `export const rewardFuncs = [f, g]` with optional `export const rewardWeights = [1, 0.5]` (or TRL's spelling,
 * reward_funcs / reward_weights): the functions TRL's GRPOTrainer would be given, checked as TRL checks them.
 * The list is the reward; a default export beside it is not called.
 */
function listedRewards(exports: Record<string, unknown>): CompileResult {
  const list = Object.hasOwn(exports, 'rewardFuncs') ? exports.rewardFuncs : exports.reward_funcs;
  const given = Object.hasOwn(exports, 'rewardWeights') ? exports.rewardWeights : exports.reward_weights;
  if (!Array.isArray(list) || list.length === 0) return { ok: false, message: 'rewardFuncs must be a non-empty array of reward functions' };
  if (list.length > COMPONENT_LIMIT) return { ok: false, message: `rewardFuncs has ${list.length} functions; at most ${COMPONENT_LIMIT} are kept` };
  const bad = list.findIndex((f) => typeof f !== 'function');
  if (bad >= 0) return { ok: false, message: `rewardFuncs[${bad}] is ${describe(list[bad])}, not a function` };
  let weights: number[] = list.map(() => 1);
  if (given !== undefined) {
    if (!Array.isArray(given) || !given.every((w) => typeof w === 'number' && Number.isFinite(w)))
      return { ok: false, message: 'rewardWeights must be an array of finite numbers' };
    // TRL's check: "Number of reward weights (n) must match number of reward functions (m)".
    if (given.length !== list.length) return { ok: false, message: `rewardWeights has ${given.length} weights for ${list.length} reward functions` };
    weights = given as number[];
  }
  // TRL names a function's logged column by its __name__; an anonymous one gets its place in the list.
  const names = uniqueNames(list.map((f: RewardFn, i) => (typeof f.name === 'string' && f.name !== '' ? f.name.slice(0, 80) : `reward_${i + 1}`)));
  const functions = list.map((fn: RewardFn, i) => ({ name: names[i], weight: weights[i], fn }));
  return { ok: true, fn: functions[0].fn, functions };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v).slice(0, 40)}`;
}

/** The user's line number from a stack trace of code compiled above (frames tagged `reward.ts:LINE:COL`). */
export function errorLine(err: unknown): number | undefined {
  const stack = err instanceof Error ? err.stack : undefined;
  if (!stack) return undefined;
  const m = /reward\.ts:(\d+):\d+/.exec(stack);
  // new Function adds two lines of header ("function anonymous(module,exports,require\n) {") before the body.
  return m ? Math.max(1, Number(m[1]) - 2) : undefined;
}
