/**
 * Text-extraction helpers offered to reward code on `ctx`: the last `\boxed{…}` answer (nested braces), the content
 * of a tag such as `<answer>…</answer>`, and a simple string similarity. Each is unit-tested with hand-worked cases.
 */

/**
 * Content of the LAST `\boxed{…}` (also `\fbox{…}`), with nested braces balanced: `\boxed{\frac{1}{2}}` → `\frac{1}{2}`.
 * Null when there is none or its braces never close.
 */
export function lastBoxed(text: string): string | null {
  let at = -1;
  for (const macro of ['\\boxed', '\\fbox']) at = Math.max(at, text.lastIndexOf(macro + '{'));
  if (at < 0) {
    // `\boxed 5` (no braces): the token after a space.
    const m = /\\boxed ([^\s$]+)\s*$/.exec(text) ?? /\\boxed ([^\s$]+)/.exec(text);
    return m ? m[1] : null;
  }
  const open = text.indexOf('{', at);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return null;
}

/**
 * Content of `<tag>…</tag>`: the last complete occurrence by default, or all of them with `{ all: true }`.
 * Null when there is no complete pair.
 */
export function extractTag(text: string, tag: string): string | null;
export function extractTag(text: string, tag: string, opts: { all: true }): string[];
export function extractTag(text: string, tag: string, opts?: { all?: boolean }): string | null | string[] {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const found: string[] = [];
  let from = 0;
  for (;;) {
    const s = text.indexOf(open, from);
    if (s < 0) break;
    const e = text.indexOf(close, s + open.length);
    if (e < 0) break;
    found.push(text.slice(s + open.length, e));
    from = e + close.length;
  }
  if (opts?.all) return found;
  return found.length ? found[found.length - 1] : null;
}

/** Levenshtein edit distance (insertions, deletions, substitutions each cost 1), over UTF-16 code units. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Similarity in [0, 1]: 1 − editDistance / max(length); two empty strings are identical (1). */
export function similarity(a: string, b: string): number {
  const n = Math.max(a.length, b.length);
  return n === 0 ? 1 : 1 - editDistance(a, b) / n;
}
