import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter';

function split(chunks: string[]): [string, number][] {
  const out: [string, number][] = [];
  const s = new LineSplitter((line, n) => out.push([line, n]));
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}

/** A tiny deterministic PRNG (mulberry32), so failures reproduce. */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('LineSplitter', () => {
  it('numbers every physical line, blank ones too', () => {
    expect(split(['a\n\nb\n'])).toEqual([
      ['a', 1],
      ['', 2],
      ['b', 3],
    ]);
  });

  it('strips \\r of \\r\\n endings, also when \\r and \\n arrive in different chunks', () => {
    expect(split(['x\r\ny\r', '\nz'])).toEqual([
      ['x', 1],
      ['y', 2],
      ['z', 3],
    ]);
  });

  it('flushes a last line without newline, and emits nothing more after a final newline', () => {
    expect(split(['one\ntwo'])).toEqual([
      ['one', 1],
      ['two', 2],
    ]);
    expect(split(['one\n'])).toEqual([['one', 1]]);
    expect(split([])).toEqual([]);
  });

  it('joins a line spread over many chunks', () => {
    expect(split(['ab', 'cd', '', 'e\nf', 'g'])).toEqual([
      ['abcde', 1],
      ['fg', 2],
    ]);
  });

  it('handles a multi-megabyte line', () => {
    const big = 'x'.repeat(5_000_000);
    const chunks: string[] = [];
    const text = `a\n${big}\nb`;
    for (let i = 0; i < text.length; i += 65536) chunks.push(text.slice(i, i + 65536));
    const out = split(chunks);
    expect(out.map(([l, n]) => [l.length, n])).toEqual([
      [1, 1],
      [5_000_000, 2],
      [1, 3],
    ]);
    expect(out[1][0] === big).toBe(true);
  });

  it('fuzz: random chunk boundaries give the same lines as a one-shot split', () => {
    const alphabet = ['a', 'b', ' ', '\n', '\r\n', '\n\n', 'é', '日', '👍🏽', '{"k":1}', '\r'];
    for (let seed = 1; seed <= 300; seed++) {
      const rand = rng(seed);
      let text = '';
      const len = Math.floor(rand() * 80);
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
      const expected = split([text]);
      const chunks: string[] = [];
      for (let i = 0; i < text.length;) {
        const n = Math.floor(rand() * 6); // 0-length chunks too
        chunks.push(text.slice(i, i + n));
        i += n;
      }
      expect(split(chunks), `seed ${seed}: ${JSON.stringify(text)}`).toEqual(expected);
    }
  });

  it('one-shot split agrees with String.split on \\n (minus trailing \\r, minus a final empty line)', () => {
    const text = 'a\r\nb\n\nc\r\n';
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    lines.pop(); // the text ends with a newline
    expect(split([text]).map(([l]) => l)).toEqual(lines);
  });
});
