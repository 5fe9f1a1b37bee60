// CSV quotes (issue 20): an unterminated or badly closed quote costs its own line, never the rows after it.
import { describe, expect, it } from 'vitest';
import { CsvRecordSplitter, type CsvPiece } from './csv-records';
import { chunkedSource, importAll, textSource } from './fixtures/load-fixture';

const SKIP = '; the line is skipped and the next one read as a new row';

/** Split `text` fed in chunks of `size` characters (0: at once). */
function split(text: string, size = 0, crlf = false): CsvPiece[] {
  const s = new CsvRecordSplitter(',', crlf);
  const out: CsvPiece[] = [];
  if (size === 0) out.push(...s.push(text));
  else for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
  out.push(...s.end());
  return out;
}

/** The pieces with the records' text joined: what does not depend on where chunks were cut. */
function normalized(pieces: CsvPiece[]): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (p.kind === 'rows' && last?.[0] === 'rows') last[2] += p.text;
    else out.push(p.kind === 'rows' ? ['rows', p.line, p.text] : ['bad', p.line, p.reason]);
  }
  return out;
}

describe('CsvRecordSplitter', () => {
  it('an unterminated quote on line 3: line 3 is reported, lines 4 and 5 are read', () => {
    const text = 'prompt,completion\na,b\n"c,d\ne,f\ng,h\n';
    expect(split(text)).toEqual([
      { kind: 'rows', line: 1, text: 'prompt,completion\na,b\n' },
      { kind: 'bad', line: 3, reason: `unterminated quote: the quoted field opened on this line never closes${SKIP}` },
      { kind: 'rows', line: 4, text: 'e,f\ng,h\n' },
    ]);
  });

  it('a quote opened on line 2 and "closed" on line 4 by a quote followed by a letter: line 2 is reported, 3 to 5 are read', () => {
    const text = 'prompt,completion\n"x,1\ny,2\nz,"3"\nw,4\n';
    expect(split(text)).toEqual([
      { kind: 'rows', line: 1, text: 'prompt,completion\n' },
      {
        kind: 'bad',
        line: 2,
        reason: `broken quote: the quoted field opened on this line is closed on line 4 by a quote followed by "3", not by the delimiter or the end of the line${SKIP}`,
      },
      { kind: 'rows', line: 3, text: 'y,2\nz,"3"\nw,4\n' },
    ]);
  });

  it('a good multi-line quoted field, doubled quotes and a quote inside an unquoted field are kept whole', () => {
    const text = 'p,c\n"one\ntwo, ""2""",ok\n5\'11",x\n"a"  ,b\n';
    expect(split(text)).toEqual([{ kind: 'rows', line: 1, text }]);
  });

  it('a quote closed on its own line by a quote followed by a letter: only that line goes', () => {
    expect(normalized(split('p,c\n"ab"c,1\nd,2\n'))).toEqual([
      ['rows', 1, 'p,c\n'],
      [
        'bad',
        2,
        `broken quote: the quoted field opened on this line is closed on the same line by a quote followed by "c", not by the delimiter or the end of the line${SKIP}`,
      ],
      ['rows', 3, 'd,2\n'],
    ]);
  });

  it('a quote opened in the second line of a record is named by its line; reading goes on from the record’s second line', () => {
    // Line 2 starts a record whose good quoted field ends on line 3, where another field opens a quote that never closes.
    expect(normalized(split('p,c,d\na,"multi\nline",b,"bad\nx,y,z\n'))).toEqual([
      ['rows', 1, 'p,c,d\n'],
      ['bad', 2, `unterminated quote: the quoted field opened on line 3 never closes${SKIP}`],
      ['bad', 3, `unterminated quote: the quoted field opened on this line never closes${SKIP}`],
      ['rows', 4, 'x,y,z\n'],
    ]);
  });

  it('an unterminated quote on the last line, without a newline; a quote closed by the end of the file is fine', () => {
    expect(normalized(split('p,c\na,b\n"c,d'))).toEqual([
      ['rows', 1, 'p,c\na,b\n'],
      ['bad', 3, `unterminated quote: the quoted field opened on this line never closes${SKIP}`],
    ]);
    expect(normalized(split('p,c\na,"b"'))).toEqual([['rows', 1, 'p,c\na,"b"']]);
  });

  it('CRLF lines: a lone \\n is inside a field; the bad line is reported and the next read', () => {
    expect(normalized(split('p,c\r\n"c,d\r\ne,f\r\ng,h\nstill g\r\n', 0, true))).toEqual([
      ['rows', 1, 'p,c\r\n'],
      ['bad', 2, `unterminated quote: the quoted field opened on this line never closes${SKIP}`],
      ['rows', 3, 'e,f\r\ng,h\nstill g\r\n'],
    ]);
  });

  it('gives the same pieces wherever the chunks are cut', () => {
    const texts = [
      'prompt,completion\na,b\n"c,d\ne,f\ng,h\n',
      'prompt,completion\n"x,1\ny,2\nz,"3"\nw,4\n',
      'p,c\n"one\ntwo, ""2""",ok\n5\'11",x\n"a"  ,b\n',
      'p,c,d\na,"multi\nline",b,"bad\nx,y,z\n',
      'p,c\n"ab"c,1\nd,2\n"e"\n',
    ];
    for (const text of texts) {
      const whole = normalized(split(text));
      for (const size of [1, 2, 3, 5, 7]) expect(normalized(split(text, size)), `${JSON.stringify(text)} in chunks of ${size}`).toEqual(whole);
    }
  });
});

describe('CsvRecordSplitter: fuzz', () => {
  it('random texts of a, comma, quote, space and newlines: every line is in a record or reported, however chunked', () => {
    let x = 20;
    const rnd = (n: number) => ((x = (x * 1103515245 + 12345) & 0x7fffffff), x % n);
    const alphabet = ['a', ',', '"', ' ', '\n', 'b'];
    for (let round = 0; round < 400; round++) {
      const text = Array.from({ length: 1 + rnd(40) }, () => alphabet[rnd(alphabet.length)]).join('');
      const whole = split(text);
      expect(normalized(split(text, 1 + rnd(6))), JSON.stringify(text)).toEqual(normalized(whole));
      // Lines are accounted for in order: a record block starts on the line after the last one it or an issue covered.
      let next = 1;
      for (const p of whole) {
        expect(p.line, JSON.stringify(text)).toBeGreaterThanOrEqual(next);
        if (p.kind === 'bad') next = p.line + 1;
        else {
          expect(p.line, JSON.stringify(text)).toBe(next);
          next = p.line + (p.text.match(/\n/g)?.length ?? 0);
        }
      }
      // The text of the records plus the reported lines is the whole text, line for line.
      const lines = text.split('\n');
      const kept = whole.flatMap((p) =>
        p.kind === 'rows'
          ? p.text
              .replace(/\n$/, '')
              .split('\n')
              .map((l, i) => [p.line + i, l])
          : [[p.line, lines[p.line - 1]]],
      );
      expect(
        kept.map(([l]) => l),
        JSON.stringify(text),
      ).toEqual(Array.from({ length: kept.length }, (_, i) => i + 1));
      for (const [l, t] of kept) expect(t).toBe(lines[(l as number) - 1]);
      expect(kept.length, JSON.stringify(text)).toBe(text.endsWith('\n') ? lines.length - 1 : lines.length);
    }
  });
});

describe('importStream: CSV quotes', () => {
  it('a quote that never closes on line 3 (no quote after it): line 3 is reported, lines 4 and 5 load', async () => {
    const { rows, issues } = await importAll(textSource('open.csv', 'prompt,completion\na,b\nc,"never closed\nd,e\nf,g\n'));
    expect(rows.map((r) => [r.line, r.prompt, r.completion])).toEqual([
      [2, 'a', 'b'],
      [4, 'd', 'e'],
      [5, 'f', 'g'],
    ]);
    expect(issues).toEqual([{ line: 3, reason: `unterminated quote: the quoted field opened on this line never closes${SKIP}` }]);
  });

  const file = [
    'prompt,completion,ground_truth', // 1
    'q1,"A: 1",1', // 2
    'q1,"A: 2, said ""he""",1', // 3
    'q2,"unterminated answer,2', // 4: the quote is never closed where it should be: the next quote (line 6) is followed by "t"
    'q2,A: 3,2', // 5
    'q3,"two', // 6: a good field over two lines
    'lines",3', // 7
    'q3,A: 4,3', // 8
  ].join('\n');

  it('a quote left open on line 4: line 4 is reported, the rows on lines 2, 3, 5, 6 (two lines) and 8 load', async () => {
    const { rows, issues } = await importAll(textSource('quotes.csv', file + '\n'));
    expect(rows.map((r) => [r.line, r.prompt, r.completion, r.groundTruth])).toEqual([
      [2, 'q1', 'A: 1', '1'],
      [3, 'q1', 'A: 2, said "he"', '1'],
      [5, 'q2', 'A: 3', '2'],
      [6, 'q3', 'two\nlines', '3'],
      [8, 'q3', 'A: 4', '3'],
    ]);
    expect(issues).toEqual([
      {
        line: 4,
        reason: `broken quote: the quoted field opened on this line is closed on line 6 by a quote followed by "t", not by the delimiter or the end of the line${SKIP}`,
      },
    ]);
  });

  it('the same rows and issues whatever the chunk boundaries, and without a final newline', async () => {
    const expected = await importAll(textSource('quotes.csv', file + '\n'));
    const bytes = new TextEncoder().encode(file);
    for (const sizes of [[1], [2], [5], [3, 11, 1]]) {
      const got = await importAll(chunkedSource('quotes.csv', bytes, sizes));
      expect([got.rows, got.issues], `chunks ${sizes}`).toEqual([expected.rows, expected.issues]);
    }
  });

  it('a broken quote in the header line: it is reported and the next line is the header', async () => {
    const { rows, issues, detection } = await importAll(textSource('h.csv', '"prompt"x,completion\nprompt,completion\na,b\n'));
    expect(detection.columns).toEqual(['prompt', 'completion']);
    expect(rows.map((r) => [r.line, r.prompt, r.completion])).toEqual([[3, 'a', 'b']]);
    expect(issues.map((i) => i.line)).toEqual([1]);
  });
});
