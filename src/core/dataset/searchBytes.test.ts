// The WebAssembly line test (find.as.ts) on rows worked by hand: the needle in either case, the escapes it reports,
// bytes past a row's end never read as the row's.
import { describe, expect, it } from 'vitest';
import { BACKSLASH, ByteFinder, byteNeedle, MATCH, NUMBER, SLASH, U } from './searchBytes';

/** Flags of each line of `lines` (joined by newlines) for `needle`. */
async function flagsOf(lines: string[], needle: string, numbers = false): Promise<number[]> {
  const bytes = new TextEncoder().encode(lines.join('\n'));
  const starts = new Int32Array(lines.length);
  const ends = new Int32Array(lines.length);
  let at = 0;
  lines.forEach((l, k) => {
    starts[k] = at;
    ends[k] = at + new TextEncoder().encode(l).length;
    at = ends[k] + 1;
  });
  return Array.from((await ByteFinder.create()).flags(bytes, starts, ends, byteNeedle(needle)!, { numbers }));
}

describe('ByteFinder', () => {
  it('finds the needle in either case, anywhere in a line longer than one 16-byte load', async () => {
    const long = 'x'.repeat(40);
    expect(await flagsOf(['a ZeBrA b', long + 'zebra', 'zebr', 'zebr\na', long, 'é zebra é'], 'Zebra')).toEqual([MATCH, MATCH, 0, 0, 0, MATCH]);
  });

  it('does not read a row past its end: a needle split by the newline is in neither row', async () => {
    expect(await flagsOf(['abc zeb', 'ra', 'zebra'], 'zebra')).toEqual([0, 0, MATCH]);
  });

  it('reports \\u, \\/ and escaped backslashes; the second backslash of \\\\ starts nothing', async () => {
    expect(await flagsOf(['"caf\\u00e9"', '"a\\/b"', '"C:\\\\x"', '"\\\\u0041"', '"\\n\\t\\""', '"\\\\\\u0041"'], 'zebra')).toEqual([
      U,
      SLASH,
      BACKSLASH,
      BACKSLASH,
      0,
      BACKSLASH | U,
    ]);
  });

  it('looks at an escape letter as text (the raw line holds it), and picks the rarest byte first', async () => {
    expect(byteNeedle('Nz')!.anchor).toBe(1);
    expect(await flagsOf(['"a\\nz"', '"anz"', '"a z"'], 'nz')).toEqual([MATCH, MATCH, 0]);
  });

  it('gives the rows of one line (a preference record) the same flags', async () => {
    const bytes = new TextEncoder().encode('zebra here\nnothing');
    const f = (await ByteFinder.create()).flags(bytes, Int32Array.from([0, 0, 11]), Int32Array.from([10, 10, 18]), byteNeedle('zebra')!);
    expect(Array.from(f)).toEqual([MATCH, MATCH, 0]);
  });

  it('with numbers, flags a line holding a number-like run other than an integer String() writes back as it is', async () => {
    const lines = ['{"n": 12}', '{"n": 0}', '{"n": -7}', '{"n": 1.5}', '{"n": 1e3}', '{"n": -0}', '{"n": 1234567890123456}', '"x 007"', '"2024-01-05"'];
    const flags = await flagsOf([...lines, '"q12-"', '"a-b e-5"', '{"n": 999999999999999}'], 'zebra', true);
    expect(flags).toEqual([0, 0, 0, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER, 0, 0]);
    // "q12-": the run 12- has a sign after its digits; "e-5": the run starts at e, which no number does.
    expect(await flagsOf(lines, 'zebra')).toEqual(lines.map(() => 0));
  });
});
