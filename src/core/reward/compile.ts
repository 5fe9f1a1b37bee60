import { transform } from 'sucrase';
import type { Trajectory } from '../trajectory';
import type { RewardContext } from './context';

export type RewardFn = (t: Trajectory, ctx: RewardContext) => unknown;

export type CompileResult = { ok: true; fn: RewardFn } | { ok: false; message: string; line?: number; column?: number };

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
    return { ok: false, message: `${err.name}: ${err.message}`, line: errorLine(err) };
  }
  const fn = exports.default ?? exports.reward;
  if (typeof fn !== 'function') {
    return { ok: false, message: 'reward code must `export default function reward(t, ctx)`' };
  }
  return { ok: true, fn: fn as RewardFn };
}

/** The user's line number from a stack trace of code compiled above (frames tagged `reward.ts:LINE:COL`). */
export function errorLine(err: unknown): number | undefined {
  const stack = err instanceof Error ? err.stack : undefined;
  if (!stack) return undefined;
  const m = /reward\.ts:(\d+):\d+/.exec(stack);
  // new Function adds two lines of header ("function anonymous(module,exports,require\n) {") before the body.
  return m ? Math.max(1, Number(m[1]) - 2) : undefined;
}
