/** TypeScript / JavaScript rewards in a worker: compiled once per code (watched like a row), scored with runRows. */
import { compileReward, type CompileResult } from '../../core/reward/compile';
import { runRows } from '../../core/reward/runRows';
import { combineFunctions } from '../../core/reward/weighted';
import type { TokenCounter, TokenizerId } from '../../core/tokenize/tokenizers';
import type { Runtime } from '../serve';
import { WATCH_COMPILING, WATCH_IDLE, type Watch } from '../watch';

export function jsRuntime(loadTokenizer: (id: TokenizerId) => Promise<TokenCounter> | TokenCounter): Runtime {
  let compiled: { code: string; result: CompileResult } | null = null;
  // The module's top-level code runs here: the engine times it.
  const compile = (code: string, w: Watch | null): CompileResult => {
    if (compiled?.code === code) return compiled.result;
    if (w) Atomics.store(w.row, 0, WATCH_COMPILING);
    const result = compileReward(code);
    if (w) Atomics.store(w.row, 0, WATCH_IDLE);
    compiled = { code, result };
    return result;
  };
  return {
    ready: Promise.resolve(),
    check(code, w) {
      const c = compile(code, w);
      if (!c.ok) return { ok: false, message: c.message, line: c.line };
      return c.functions ? { ok: true, candidates: [], functions: c.functions.map(({ name, weight }) => ({ name, weight })) } : { ok: true, candidates: [] };
    },
    async run(m, rows, w) {
      let tokenCount: TokenCounter | undefined;
      try {
        if (m.tokenizer) tokenCount = await loadTokenizer(m.tokenizer);
      } catch (e) {
        return { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
      }
      const c = compile(m.code, w);
      if (!c.ok) return { kind: 'compile-error', message: c.message, line: c.line };
      const models = m.models ? { columns: m.models, offset: m.start } : undefined;
      // A plain store per row: one aligned int32 cannot tear, and the watchdog only needs to see it change.
      const onRow = w ? (row: number) => void (w.row[0] = row) : undefined;
      const rowAt = (i: number) => rows.rows[i];
      // A rewardFuncs list: each function over the range, then TRL's weighted nansum (as the CLI's repeated --reward).
      const result = c.functions
        ? combineFunctions(c.functions.map(({ name, weight, fn }) => ({ name, weight, result: runRows(fn, rowAt, m.start, m.end, onRow, tokenCount, models) })))
        : runRows(c.fn, rowAt, m.start, m.end, onRow, tokenCount, models);
      return { kind: 'result', result };
    },
  };
}
