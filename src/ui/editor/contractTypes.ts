import type * as TS from 'typescript';

/**
 * An untyped default export `reward(t, ctx)` gets the contract's types in the editor (issue 21, item 12): the
 * TypeScript worker checks a copy of the code with `: Trajectory` / `: RewardContext` written after the parameters,
 * and every position crossing between the editor and that copy is mapped (docs/editor.md).
 */

/** Text written into the checked copy at `at` (an offset in the user's code). */
export interface Insert {
  at: number;
  text: string;
}

const CONTRACT = ["import('reward-studio').Trajectory", "import('reward-studio').RewardContext"];

/** The default-exported function of the module, if it is written in place (declaration, function or arrow). */
function defaultExport(ts: typeof TS, sf: TS.SourceFile): TS.SignatureDeclaration | null {
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st)) {
      const mods = ts.getModifiers(st) ?? [];
      const isDefault = mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (isDefault) return st;
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      let e: TS.Expression = st.expression;
      while (ts.isParenthesizedExpression(e)) e = e.expression;
      if (ts.isFunctionExpression(e) || ts.isArrowFunction(e)) return e;
    }
  }
  return null;
}

/** Where the contract's types go: after the first two parameters of the default export that have no type. */
export function contractInserts(ts: typeof TS, text: string): Insert[] {
  const sf = ts.createSourceFile('reward.ts', text, ts.ScriptTarget.ESNext, false, ts.ScriptKind.TS);
  const fn = defaultExport(ts, sf);
  if (!fn) return [];
  // `t => …` has no parentheses to hold a type: left as written.
  const first = fn.parameters[0];
  if (ts.isArrowFunction(fn) && first && !text.slice(fn.getStart(sf), first.getStart(sf)).includes('(')) return [];
  const out: Insert[] = [];
  fn.parameters.slice(0, 2).forEach((p, k) => {
    if (p.type || p.dotDotDotToken) return;
    out.push({ at: (p.questionToken ?? p.name).end, text: `: ${CONTRACT[k]}` });
  });
  return out;
}

/** The checked copy of `text`. */
export function applyInserts(text: string, inserts: readonly Insert[]): string {
  let out = '';
  let from = 0;
  for (const i of inserts) {
    out += text.slice(from, i.at) + i.text;
    from = i.at;
  }
  return out + text.slice(from);
}

/** A caret in the user's code → the copy (a caret right after `t` stays before its type). */
export function toCopy(inserts: readonly Insert[], pos: number): number {
  let shift = 0;
  for (const i of inserts) if (i.at < pos) shift += i.text.length;
  return pos + shift;
}

/** An offset in the copy → the user's code; an offset inside written text lands where that text was written. */
export function fromCopy(inserts: readonly Insert[], pos: number): number {
  let shift = 0;
  for (const i of inserts) {
    const start = i.at + shift;
    if (pos <= start) break;
    if (pos < start + i.text.length) return i.at;
    shift += i.text.length;
  }
  return pos - shift;
}

/** A span {start, length} of the copy → the user's code. */
export function spanFromCopy<S extends { start: number; length: number }>(inserts: readonly Insert[], s: S): S {
  const start = fromCopy(inserts, s.start);
  return { ...s, start, length: fromCopy(inserts, s.start + s.length) - start };
}

/** True when the copy's span touches written text (an edit there would change the user's code where nothing is). */
export function touchesInsert(inserts: readonly Insert[], s: { start: number; length: number }): boolean {
  let shift = 0;
  for (const i of inserts) {
    const start = i.at + shift;
    if (s.start < start + i.text.length && s.start + s.length > start) return true;
    shift += i.text.length;
  }
  return false;
}
