import { describe, expect, it } from 'vitest';
import { sniffBytes } from './sniff';

const bytes = (...xs: (number | string)[]) => new Uint8Array(xs.flatMap((x) => (typeof x === 'string' ? [...new TextEncoder().encode(x)] : [x])));

describe('sniffBytes', () => {
  it('recognises gzip and Parquet by their magic numbers', () => {
    expect(sniffBytes(bytes(0x1f, 0x8b, 8, 0), false)).toEqual({ kind: 'gzip' });
    expect(sniffBytes(bytes('PAR1', 0, 0, 0), false)).toEqual({ kind: 'parquet' });
  });

  it('reports the first non-whitespace character of text, skipping a BOM', () => {
    expect(sniffBytes(bytes(' \n\t{"a":1}'), true)).toEqual({ kind: 'text', first: '{' });
    expect(sniffBytes(bytes(0xef, 0xbb, 0xbf, '[1]'), true)).toEqual({ kind: 'text', first: '[' });
    expect(sniffBytes(bytes('prompt,completion\n'), true)).toEqual({ kind: 'text', first: 'p' });
  });

  it('calls empty and whitespace-only input empty, at the end of the stream only', () => {
    expect(sniffBytes(bytes(), true)).toEqual({ kind: 'empty' });
    expect(sniffBytes(bytes(' \r\n\t  '), true)).toEqual({ kind: 'empty' });
    expect(sniffBytes(bytes(0xef, 0xbb, 0xbf, '\n'), true)).toEqual({ kind: 'empty' });
    expect(sniffBytes(bytes('   '), false)).toEqual({ kind: 'need-more' });
  });

  it('calls NUL bytes or many control characters binary', () => {
    expect(sniffBytes(bytes('{"a": 1}', 0, 'x'), true)).toEqual({ kind: 'binary' });
    const controls = new Uint8Array(100).fill(0x41);
    for (let i = 0; i < 11; i++) controls[i * 9] = 0x01;
    expect(sniffBytes(controls, true)).toEqual({ kind: 'binary' });
    // a few escape characters (e.g. ANSI colours in a log) are still text
    expect(sniffBytes(bytes('a\x1b[31mred\x1b[0m and a long enough line of text around it'), true)).toEqual({ kind: 'text', first: 'a' });
  });

  it('names UTF-16 and ZIP files', () => {
    expect(sniffBytes(bytes(0xff, 0xfe, 0x7b, 0), true)).toEqual({ kind: 'binary', hint: 'It is UTF-16 text: save it as UTF-8 and try again.' });
    expect(sniffBytes(bytes('PK', 3, 4, 'rest'), true)).toEqual({ kind: 'binary', hint: 'It is a ZIP archive: unzip it first.' });
  });
});
