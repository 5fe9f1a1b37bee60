import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { applyInserts, contractInserts, fromCopy, spanFromCopy, toCopy, touchesInsert } from './contractTypes';

const T = ": import('reward-studio').Trajectory"; // 36 characters
const C = ": import('reward-studio').RewardContext"; // 39 characters

describe('contractInserts', () => {
  it("the README's reward(t, ctx): types after t (offset 32) and ctx (offset 37)", () => {
    // "export default function reward(" is 31 characters: t ends at 32, ", " then ctx ends at 37.
    const code = 'export default function reward(t, ctx) {\n  return t.completion.length;\n}\n';
    const ins = contractInserts(ts, code);
    expect(ins).toEqual([
      { at: 32, text: T },
      { at: 37, text: C },
    ]);
    expect(applyInserts(code, ins)).toBe(`export default function reward(t${T}, ctx${C}) {\n  return t.completion.length;\n}\n`);
  });

  it('typed, rest and missing parameters are left alone; one untyped parameter is typed', () => {
    expect(contractInserts(ts, 'export default function reward(t: Trajectory, ctx: RewardContext) { return 1; }')).toEqual([]);
    expect(contractInserts(ts, 'export default function reward(...a) { return 1; }')).toEqual([]);
    expect(contractInserts(ts, 'export default function reward() { return 1; }')).toEqual([]);
    // "export default function (" is 25 characters: t ends at 26.
    expect(contractInserts(ts, 'export default function (t) { return 1; }')).toEqual([{ at: 26, text: T }]);
    // Only the second is untyped: "export default function reward(t: Trajectory, " is 46 characters, ctx ends at 49.
    expect(contractInserts(ts, 'export default function reward(t: Trajectory, ctx) { return 1; }')).toEqual([{ at: 49, text: C }]);
  });

  it('arrows and function expressions after export default; an arrow without parentheses is left as written', () => {
    // "export default (" is 16 characters: t ends at 17, ", " then ctx ends at 22.
    expect(contractInserts(ts, 'export default (t, ctx) => 1;')).toEqual([
      { at: 17, text: T },
      { at: 22, text: C },
    ]);
    // "export default (function (" is 26 characters: t ends at 27; "t?" puts the type after the question mark (28).
    expect(contractInserts(ts, 'export default (function (t) { return 1; });')).toEqual([{ at: 27, text: T }]);
    expect(contractInserts(ts, 'export default function r(t?) { return 1; }')).toEqual([{ at: 28, text: T }]);
    expect(contractInserts(ts, 'export default t => 1;')).toEqual([]);
    expect(contractInserts(ts, 'export default async t => 1;')).toEqual([]);
  });

  it('no default export, or a named one, or a default that is not written in place: nothing', () => {
    expect(contractInserts(ts, 'export function reward(t, ctx) { return 1; }')).toEqual([]);
    expect(contractInserts(ts, 'function reward(t, ctx) { return 1; }\nexport default reward;')).toEqual([]);
    expect(contractInserts(ts, '')).toEqual([]);
  });
});

describe('positions between the code and its checked copy', () => {
  // Inserts of 3 characters at 2 and 2 characters at 5: "ab|cde|fg" → "ab+++cde--fg".
  const ins = [
    { at: 2, text: '+++' },
    { at: 5, text: '--' },
  ];
  it('carets go to the copy: a caret at an insert stays before it', () => {
    expect(applyInserts('abcdefg', ins)).toBe('ab+++cde--fg');
    expect([0, 1, 2, 3, 5, 6, 7].map((p) => toCopy(ins, p))).toEqual([0, 1, 2, 6, 8, 11, 12]);
  });
  it('offsets come back; inside written text they land where it was written', () => {
    // copy: a0 b1 +2 +3 +4 c5 d6 e7 -8 -9 f10 g11 (end 12)
    expect([0, 2, 3, 4, 5, 7, 8, 9, 10, 12].map((p) => fromCopy(ins, p))).toEqual([0, 2, 2, 2, 2, 4, 5, 5, 5, 7]);
  });
  it('spans come back whole; a span over written text shrinks to the user code it covers', () => {
    expect(spanFromCopy(ins, { start: 5, length: 3, code: 1 })).toEqual({ start: 2, length: 3, code: 1 }); // "cde"
    expect(spanFromCopy(ins, { start: 1, length: 5 })).toEqual({ start: 1, length: 2 }); // "b+++c" → "bc"
    expect(touchesInsert(ins, { start: 5, length: 3 })).toBe(false);
    expect(touchesInsert(ins, { start: 4, length: 1 })).toBe(true);
    expect(touchesInsert(ins, { start: 7, length: 2 })).toBe(true);
    expect(touchesInsert(ins, { start: 10, length: 2 })).toBe(false);
  });
  it('the copy type-checks clean where the code had implicit-any parameters', () => {
    // No standard library in this little program: the body uses only what the declared module gives.
    const code = 'export default function reward(t, ctx) {\n  return ctx.tokenCount(t.completion);\n}\n';
    const dts =
      "declare module 'reward-studio' { export interface Trajectory { completion: string } export interface RewardContext { tokenCount(s: string): number } }";
    const check = (text: string) => {
      const files: Record<string, string> = { '/r.ts': text, '/d.d.ts': dts };
      const host = ts.createCompilerHost({ strict: true, noEmit: true, target: ts.ScriptTarget.ES2022 });
      host.getSourceFile = (name, lang) => (files[name] !== undefined ? ts.createSourceFile(name, files[name], lang) : undefined);
      host.fileExists = (name) => files[name] !== undefined;
      host.readFile = (name) => files[name];
      const program = ts.createProgram(['/r.ts', '/d.d.ts'], { strict: true, noEmit: true, noLib: true, types: [] }, host);
      return program.getSemanticDiagnostics(program.getSourceFile('/r.ts')).map((d) => d.code);
    };
    // 7006: "Parameter 't' implicitly has an 'any' type" (twice) on the code as written; none on the copy.
    expect(check(code).filter((c) => c === 7006)).toHaveLength(2);
    expect(check(applyInserts(code, contractInserts(ts, code)))).toEqual([]);
  });
});
