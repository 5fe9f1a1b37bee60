/**
 * Answer-extraction helpers offered to reward code on `ctx` (DESIGN.md, reward contract).
 * Pure string functions, each unit-tested with hand-worked cases.
 */

const NUMBER_RE = /[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\/\d+(?:\.\d+)?)?|[-+]?\.\d+/;

/**
 * The first number that follows the LAST occurrence of `marker` (default "A:"), as written (e.g. "1,000", "-3.5", "1/2").
 * Returns null when the marker is absent or no number follows it on the rest of the text.
 */
export function numberAfter(text: string, marker: string = 'A:'): string | null {
  const at = text.lastIndexOf(marker);
  if (at < 0) return null;
  const m = NUMBER_RE.exec(text.slice(at + marker.length));
  return m ? m[0] : null;
}

/** Parse a number as people write answers: "1,000" → 1000, "$5" → 5, "50%" → 50, "1/2" → 0.5, "3.0" → 3. */
export function parseNumber(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  if (typeof text === 'number') return Number.isFinite(text) ? text : null;
  let s = text
    .trim()
    .replace(/^\$/, '')
    .replace(/%$/, '')
    .replace(/\\!|\s/g, '');
  s = s.replace(/^\\\$/, '');
  if (/^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.test(s) || /^[-+]?\.\d+$/.test(s)) {
    return Number(s.replace(/,/g, ''));
  }
  const frac = /^([-+]?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(s);
  if (frac) {
    const den = Number(frac[2]);
    return den === 0 ? null : Number(frac[1]) / den;
  }
  const tex = /^([-+]?)\\[dt]?frac\{(\d+(?:\.\d+)?)\}\{(\d+(?:\.\d+)?)\}$/.exec(s);
  if (tex) {
    const den = Number(tex[3]);
    return den === 0 ? null : (tex[1] === '-' ? -1 : 1) * (Number(tex[2]) / den);
  }
  return null;
}

/**
 * Numeric equality with tolerance: `1,000` equals `1000.0`, `1/2` equals `0.5`.
 * |a − b| ≤ max(absTol, relTol·max(|a|,|b|)). Unparseable input is never equal.
 */
export function numbersEqual(
  a: string | number | null | undefined,
  b: string | number | null | undefined,
  { relTol = 1e-9, absTol = 1e-9 }: { relTol?: number; absTol?: number } = {},
): boolean {
  const x = parseNumber(a);
  const y = parseNumber(b);
  if (x === null || y === null) return false;
  return Math.abs(x - y) <= Math.max(absTol, relTol * Math.max(Math.abs(x), Math.abs(y)));
}
