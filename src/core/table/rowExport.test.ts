import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import { textColumn } from './columns';
import { csvCell, exportBytes, toCsv, toJsonl, toParquet, type ExportInput } from './rowExport';

const NaN_ = Number.NaN;
/**
 * Four rows in two groups, the file's own group values "200" and "9007199254740993" (an int64 above 2^53). Row 1
 * errored, row 3 returned null. Written out in the order 2, 0, 1 (row 3 filtered away). Every expected value below is
 * read off these inputs by hand.
 */
const input: ExportInput = {
  order: [2, 0, 1],
  groupOf: Int32Array.from([0, 0, 1, 1]),
  groupLabels: ['200', '9007199254740993'],
  length: Int32Array.from([5, 0, 12, 3]),
  scores: Float64Array.from([1, NaN_, 0.25, NaN_]),
  status: Uint8Array.from([RowStatus.Ok, RowStatus.Error, RowStatus.Ok, RowStatus.Null]),
  errors: new Map([[1, 'TypeError: x is undefined (line 3)']]),
  advantage: Float64Array.from([0.5, NaN_, -0.5, NaN_]),
  components: { format: Float64Array.from([1, NaN_, 0, NaN_]) },
  extra: [
    { key: 'tokens', values: { kind: 'number', values: Float64Array.from([2, 0, 4, 1]) } },
    { key: 'fields.model', values: textColumn(['6b, "fine"', null, '=HYPERLINK("x")', 'b']) },
  ],
};

const expected = [
  { index: 2, group: '9007199254740993', status: 'ok', reward: 0.25, advantage: -0.5, length: 12, error: null, tokens: 4, model: '=HYPERLINK("x")', format: 0 },
  { index: 0, group: '200', status: 'ok', reward: 1, advantage: 0.5, length: 5, error: null, tokens: 2, model: '6b, "fine"', format: 1 },
  {
    index: 1,
    group: '200',
    status: 'error',
    reward: null,
    advantage: null,
    length: 0,
    error: 'TypeError: x is undefined (line 3)',
    tokens: 0,
    model: null,
    format: null,
  },
];

describe('toJsonl', () => {
  it('writes one object per row in the given order, components and fields nested, groups as exact text', () => {
    const text = toJsonl(input);
    expect(text.endsWith('\n')).toBe(true);
    const rows = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toEqual(
      expected.map((e) => ({
        index: e.index,
        group: e.group,
        status: e.status,
        reward: e.reward,
        advantage: e.advantage,
        length: e.length,
        error: e.error,
        tokens: e.tokens,
        fields: { model: e.model },
        components: { format: e.format },
      })),
    );
  });
  it('keeps a component named __proto__ as a name', () => {
    const line = toJsonl({ ...input, order: [0], components: { ['__proto__']: Float64Array.from([7, 0, 0, 0]) }, extra: [] });
    expect(line).toContain('"components":{"__proto__":7}');
  });
  it('writes nothing for no rows, and "not run" before any run', () => {
    expect(toJsonl({ ...input, order: [] })).toBe('');
    const row = JSON.parse(toJsonl({ ...input, order: [0], scores: null, status: null, advantage: null, components: {}, extra: [] })) as Record<
      string,
      unknown
    >;
    expect(row).toEqual({ index: 0, group: '200', status: 'not run', reward: null, advantage: null, length: 5, error: null });
  });
});

describe('text values of the result (verl’s pred)', () => {
  // Rows 2, 0, 1 as above; pred is "72" on row 0, "=1+1" on row 2 (a formula in a spreadsheet), none on row 1.
  const withPred: ExportInput = { ...input, strings: { pred: ['72', null, '=1+1', '9'] } };
  it('JSONL nests them under strings, after the components', () => {
    const rows = toJsonl(withPred)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { strings: unknown });
    expect(rows.map((r) => r.strings)).toEqual([{ pred: '=1+1' }, { pred: '72' }, { pred: null }]);
  });
  it('CSV and Parquet name the column strings.pred, as text', async () => {
    const lines = toCsv(withPred).split('\r\n');
    expect(lines[0]).toBe('index,group,status,reward,advantage,length,error,tokens,fields.model,components.format,strings.pred');
    expect(lines[1].endsWith(",0,'=1+1")).toBe(true);
    expect(lines[2].endsWith(',1,72')).toBe(true);
    expect(lines[3].endsWith(',,')).toBe(true);
    const rows = (await parquetReadObjects({ file: toParquet(withPred) })) as Record<string, unknown>[];
    expect(rows.map((r) => r['strings.pred'])).toEqual(['=1+1', '72', null]);
  });
});

describe('toCsv', () => {
  it('writes a header and RFC 4180 rows; text that would run as a formula gets an apostrophe', () => {
    const lines = toCsv(input).split('\r\n');
    expect(lines[0]).toBe('index,group,status,reward,advantage,length,error,tokens,fields.model,components.format');
    expect(lines[1]).toBe(`2,9007199254740993,ok,0.25,-0.5,12,,4,"'=HYPERLINK(""x"")",0`);
    expect(lines[2]).toBe('0,200,ok,1,0.5,5,,2,"6b, ""fine""",1');
    expect(lines[3]).toBe('1,200,error,,,0,TypeError: x is undefined (line 3),0,,');
    expect(lines[4]).toBe('');
    expect(lines).toHaveLength(5);
  });
  it('leaves negative numbers and numeric text alone', () => {
    expect(csvCell(-0.5, true)).toBe('-0.5');
    expect(csvCell('-12', false)).toBe('-12');
    expect(csvCell('+1 more', false)).toBe("'+1 more");
    expect(csvCell('a\nb', false)).toBe('"a\nb"');
    expect(csvCell(' x', false)).toBe('" x"');
  });
});

describe('toParquet', () => {
  it('reads back with hyparquet to the same values, int64 group digits and the errored row included', async () => {
    const buf = toParquet(input);
    const rows = (await parquetReadObjects({ file: buf })) as Record<string, unknown>[];
    expect(rows).toEqual(
      expected.map((e) => ({
        index: BigInt(e.index),
        group: e.group,
        status: e.status,
        reward: e.reward,
        advantage: e.advantage,
        length: BigInt(e.length),
        error: e.error,
        tokens: e.tokens,
        'fields.model': e.model,
        'components.format': e.format,
      })),
    );
  });
});

describe('exportBytes', () => {
  it("holds the bytes a Blob of today's text or Parquet holds (the data worker builds the file, the page only wraps it)", async () => {
    // A lone surrogate: a Blob of a string and TextEncoder both write it as U+FFFD.
    const odd: ExportInput = { ...input, errors: new Map([[1, 'bad \ud800 half']]) };
    for (const [format, body] of [
      ['jsonl', toJsonl(odd)],
      ['csv', toCsv(odd)],
      ['parquet', toParquet(odd)],
    ] as const) {
      const blob = new Uint8Array(await new Blob([body]).arrayBuffer());
      expect(exportBytes(format, odd)).toEqual(blob);
    }
  });
  it('tells how many rows are written, up to all of them', () => {
    const many: ExportInput = { ...input, order: Int32Array.from({ length: 10_000 }, (_, k) => k % 4) };
    const heard: number[] = [];
    exportBytes('jsonl', many, (done, total) => {
      expect(total).toBe(10_000);
      heard.push(done);
    });
    expect(heard).toEqual([4096, 8192]);
    const cols: number[] = [];
    exportBytes('parquet', many, (done) => cols.push(done));
    expect(cols.at(-1)).toBe(10_000);
  });
});
