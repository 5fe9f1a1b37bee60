// searchLines (raw lines tested first, only candidates parsed) against searchTrajectories over the rows importStream
// gives: every needle, on files written every way JSON allows, must find the same rows.
import { describe, expect, it, vi } from 'vitest';
import type { FormatId } from '../formats/types';
import { indexed } from './fixtures/indexed';
import { LineRows } from './lineRows';
import { searchTrajectories } from './search';
import { lineFilter } from './searchFilter';
import { searchLines } from './searchLines';

/** A small deterministic generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

// Units that case-fold oddly (ß, dotted/dotless i, the Kelvin sign, final sigma), need escapes, or are what the
// normalizer adds around the record's strings (": ", "(", "→", new lines).
const ASCII_UNITS = [...'abcxyzABCXYZ019 .-+e/:(){}[],"\\\n\t'];
const WIDE_UNITS = [...ASCII_UNITS, 'é', 'É', 'ß', 'ẞ', 'İ', 'ı', 'K', 'k', 'σ', 'ς', 'Σ', '→', '😀', '\u0001', '\u2028'];

function text(r: Rng, units: readonly string[], max = 12): string {
  let s = '';
  for (let n = r.int(max) + 1; n > 0; n--) s += r.pick(units);
  return s;
}

/** A JSON string as a writer may spell it: escapes where required, and \uXXXX (either case) or \/ where allowed. */
function spell(r: Rng, s: string, ascii: boolean): string {
  let out = '"';
  for (const ch of s) {
    for (let i = 0; i < ch.length; i++) {
      const u = ch.charCodeAt(i);
      const hex = () => {
        const h = u.toString(16).padStart(4, '0');
        return '\\u' + (r.next() < 0.5 ? h : h.toUpperCase());
      };
      const wide = u > 0x7e;
      if (u === 0x22) out += r.next() < 0.8 ? '\\"' : hex();
      else if (u === 0x5c) out += r.next() < 0.8 ? '\\\\' : hex();
      else if (u < 0x20) out += r.next() < 0.5 ? JSON.stringify(String.fromCharCode(u)).slice(1, -1) : hex();
      else if (u === 0x2f && r.next() < 0.3) out += '\\/';
      else if ((wide && ascii) || r.next() < 0.08) out += hex();
      else out += String.fromCharCode(u);
    }
  }
  return out + '"';
}

/** A number as a writer may spell it (exponents, trailing zeros, -0). */
function number(r: Rng): string {
  return r.pick(['1e3', '1000', '1.50', '-0', '2E+2', '0.1', '12345678901234567890', '1e400', '-3.25e-2', '7']);
}

/** Any JSON value, spelled by `spell`, nested a little. */
function value(r: Rng, units: readonly string[], ascii: boolean, depth = 0): string {
  const k = r.int(depth > 1 ? 4 : 6);
  if (k === 0) return number(r);
  if (k === 1) return r.pick(['true', 'false', 'null']);
  if (k <= 3) return spell(r, text(r, units), ascii);
  if (k === 4) return `[${Array.from({ length: r.int(3) }, () => value(r, units, ascii, depth + 1)).join(',')}]`;
  return `{${Array.from({ length: r.int(3) }, () => `${spell(r, text(r, units, 4), ascii)}: ${value(r, units, ascii, depth + 1)}`).join(', ')}}`;
}

const message = (r: Rng, units: readonly string[], ascii: boolean, role: string, openai: boolean): string => {
  const parts = [`"role": ${spell(r, role, ascii)}`];
  const c = r.int(4);
  parts.push(
    `"content": ${c === 0 ? 'null' : c === 1 ? `[{"type": "text", "text": ${spell(r, text(r, units), ascii)}}, {"type": "text", "text": ${spell(r, text(r, units), ascii)}}]` : spell(r, text(r, units), ascii)}`,
  );
  if (r.next() < 0.3) parts.push(`"name": ${spell(r, text(r, units, 5), ascii)}`);
  if (role === 'assistant' && r.next() < 0.5) {
    const args = `{${spell(r, text(r, units, 4), ascii)}: ${value(r, units, ascii, 1)}}`;
    // OpenAI: arguments as a JSON string (itself spelled); TRL: as an object.
    parts.push(
      `"tool_calls": [{"type": "function", "function": {"name": ${spell(r, text(r, units, 6), ascii)}, "arguments": ${openai ? spell(r, args, ascii) : args}}}]`,
    );
  }
  return `{${parts.join(', ')}}`;
};

/** One line of `format`: a record with extra fields, or now and then a line the import does not take as a row. */
function line(r: Rng, format: FormatId, units: readonly string[], ascii: boolean, first: boolean): string {
  const roll = first ? 1 : r.next(); // the second line of the file: a record (after a blank or broken first line)
  if (roll < 0.03) return '';
  if (roll < 0.06) return '{"prompt": "broken';
  const extras = Array.from({ length: r.int(3) }, (_, i) => `"x${i}": ${value(r, units, ascii)}`);
  const s = (u: string) => spell(r, text(r, units), ascii) + u;
  let fields: string[];
  if (format === 'openai-messages') {
    // Earlier assistant turns' tool calls are in the prompt's text, as JSON.
    const ms = ['system', 'user', 'assistant', 'user', 'assistant'].map((role) => message(r, units, ascii, role, true));
    fields = [`"messages": [${ms.slice(r.int(2)).join(', ')}]`];
  } else if (format === 'trl-conversational') {
    const prompt = ['user', 'assistant', 'user'].map((role) => message(r, units, ascii, role, false));
    fields = [`"prompt": [${prompt.join(', ')}]`, `"completion": [${message(r, units, ascii, 'assistant', false)}]`];
  } else if (format === 'preference') {
    fields = [`"prompt": ${s('')}`, `"chosen": ${s('')}`, `"rejected": ${s('')}`];
  } else {
    fields = [`"prompt": ${s('')}`, `"completion": ${s('')}`];
  }
  return `{${[...fields, ...extras].join(', ')}}`;
}

/** Needles: pieces of the rows' own text in other cases, and short random strings. */
function needles(r: Rng, rows: { prompt: string; completion: string }[], units: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = r.pick(rows);
    const source = r.next() < 0.5 ? t.prompt : t.completion;
    const roll = r.next();
    if (source.length > 0 && roll < 0.7) {
      const a = r.int(source.length);
      let piece = source.slice(a, a + 1 + r.int(6));
      // Often without the characters that make the raw line unable to tell (so that its test is what is checked).
      if (roll < 0.4) piece = piece.replace(/[^\p{L}\p{N}/ .+-]|^ | $/gu, '') || 'x';
      out.push(r.next() < 0.5 ? piece.toUpperCase() : piece);
    } else out.push(text(r, roll < 0.85 ? units.filter((u) => /[\p{L}/]/u.test(u)) : units, 4));
  }
  return out;
}

async function expectSameHits(format: FormatId, seed: number, ascii: boolean, readBytes: number) {
  const r = rng(seed);
  const units = ascii ? ASCII_UNITS : WIDE_UNITS;
  const lines = Array.from({ length: 60 }, (_, i) => line(r, format, units, ascii, i === 0));
  const eol = r.next() < 0.5 ? '\n' : '\r\n';
  const lead = ['', '', '\n', '{"prompt": "broken' + eol][seed % 4];
  const blob = new Blob([(seed % 3 === 0 ? '\ufeff' : '') + lead + lines.join(eol) + eol]);
  const { index, rows } = await indexed(blob, format);
  expect(rows.length).toBeGreaterThan(20);
  const lr = new LineRows(index, { format });
  let filtered = 0;
  for (const needle of needles(r, rows, units, 60)) {
    if (lineFilter(needle)) filtered++;
    const got = await searchLines({ name: 't.jsonl', blob }, lr, needle, undefined, readBytes);
    expect(Array.from(got ?? []), `${format} seed ${seed}: ${JSON.stringify(needle)}`).toEqual(Array.from(searchTrajectories(rows, needle)));
  }
  // The raw-line test decided most needles (the rest are parsed line by line).
  expect(filtered).toBeGreaterThan(20);
}

describe('searchLines finds what searchTrajectories finds in the imported rows', () => {
  const formats: FormatId[] = ['trl-standard', 'openai-messages', 'trl-conversational', 'preference'];
  for (const format of formats) {
    it(`${format}: ASCII files (offsets carried over) and files with any text, escapes of every kind`, async () => {
      // SEARCH_SEEDS=150 looks much further (72,000 needles, ~70 s): run it after a change to the filter.
      for (let seed = 1; seed <= Number(process.env.SEARCH_SEEDS ?? 6); seed++) {
        await expectSameHits(format, seed * 7 + formats.indexOf(format), true, seed % 2 ? 200 : 1 << 20);
        await expectSameHits(format, seed * 11 + formats.indexOf(format), false, seed % 2 ? 1 : 700);
      }
    });
  }

  it('worked by hand: case, \\u escapes, escaped slashes, a record of two rows, lines that are not rows', async () => {
    const lines = [
      '{"prompt": "Where is PARIS?", "completion": "In France."}',
      '{"prompt": "caf\\u00E9", "completion": "a\\/b"}',
      'not json',
      '{"prompt": "q", "chosen": "yes paris", "rejected": "no"}',
      '{"prompt": "q", "completion": "\\u0050aris"}',
    ];
    const blob = new Blob([lines.join('\n')]);
    const { index } = await indexed(blob, 'trl-standard');
    const lr = new LineRows(index, { format: 'trl-standard' });
    const hits = async (needle: string) => Array.from((await searchLines({ name: 't.jsonl', blob }, lr, needle)) ?? []);
    // Rows: 0 (line 1), 1 (line 2), 2 (line 4: trl-standard has no completion there, so it is not a row), …
    expect(lr.size).toBe(3);
    expect(await hits('paris')).toEqual([0, 2]);
    expect(await hits('CAFÉ')).toEqual([1]);
    expect(await hits('a/b')).toEqual([1]);
    expect(await hits('zebra')).toEqual([]);
    expect(await hits('')).toEqual([0, 1, 2]);
  });

  it("finds text that a tool call's arguments only show once written again as JSON (a \\u escape of a tab)", async () => {
    const turn = (args: string) =>
      `{"prompt": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": ${args}}}]}], "completion": [{"role": "assistant", "content": "done"}]}`;
    const blob = new Blob([[turn('{"q": "a\\u0009b"}'), turn('{"q": "a\\u0041b"}')].join('\n')]);
    const { index, rows } = await indexed(blob, 'trl-conversational');
    // The prompt shows the arguments as JSON.stringify writes them: the tab as \t, so "tb" is in it.
    expect(rows[0].prompt).toContain('→ f({"q":"a\\tb"})');
    const lr = new LineRows(index, { format: 'trl-conversational' });
    expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, 'tb')) ?? [])).toEqual([0]);
    expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, 'AB')) ?? [])).toEqual([1]);
    // Text only the flattened turns hold ("user: hi", "assistant: \n→ f("): the lines hold lists, so they are parsed.
    expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, 'USER: HI')) ?? [])).toEqual([0, 1]);
    expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, '→ f(')) ?? [])).toEqual([0, 1]);
  });

  it('parses no line when no line can hold the needle, and only those that may', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ prompt: `question ${i}`, completion: `answer ${i % 7}` }));
    const blob = new Blob([lines.join('\n')]);
    const { index } = await indexed(blob, 'trl-standard');
    const lr = new LineRows(index, { format: 'trl-standard' });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, 'zebra')) ?? [])).toEqual([]);
      expect(parse).not.toHaveBeenCalled();
      expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, 'answer 3')) ?? [])).toEqual([3, 10, 17, 24, 31, 38, 45]);
      expect(parse).toHaveBeenCalledTimes(7);
      parse.mockClear();
      // Digits could be in a number's text (String(1.2e1) is "12"): lines that hold the digits, or a number that may
      // be written otherwise than String() writes it, are parsed; here the integers are written as String() does.
      expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, '12')) ?? [])).toEqual([12]);
      expect(parse).toHaveBeenCalledTimes(1);
      parse.mockClear();
      // A colon could be the one of a flattened turn ("user: …"), but these records hold no list, so no turns.
      expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, 'r: 3')) ?? [])).toEqual([]);
      expect(parse).not.toHaveBeenCalled();
      // A quote, as these lines must write it (\"), is in none of them.
      expect(Array.from((await searchLines({ name: 't.jsonl', blob }, lr, 'r "3')) ?? [])).toEqual([]);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('finds text with quotes, backslashes and new lines as JSON writes them (LaTeX in math answers)', async () => {
    const lines = [
      JSON.stringify({ prompt: 'Solve', completion: 'So \\boxed{42}.\nDone' }),
      JSON.stringify({ prompt: 'Say "hi"', completion: 'C:\\x' }),
      String.raw`{"prompt": "\u005cboxed{7}", "completion": "c"}`,
      JSON.stringify({ prompt: 'p', completion: 'boxed{42}' }),
    ];
    const blob = new Blob([lines.join('\n')]);
    const { index, rows } = await indexed(blob, 'trl-standard');
    const lr = new LineRows(index, { format: 'trl-standard' });
    const hits = async (needle: string) => Array.from((await searchLines({ name: 't.jsonl', blob }, lr, needle)) ?? []);
    for (const needle of ['\\BOXED{', '}.\nD', '"hi"', 'c:\\', '\\', '\\\\', '"'])
      expect(await hits(needle), needle).toEqual(Array.from(searchTrajectories(rows, needle)));
    expect(await hits('\\boxed{')).toEqual([0, 2]);
    expect(await hits('"hi"')).toEqual([1]);
  });

  it('finds digits in numbers written otherwise than String() writes them (worked by hand)', async () => {
    const lines = ['1.2e1', '1.50', '-0', '12345678901234567890', '1e400', '7', '-0.5'].map((n, i) => `{"prompt": "p${i}", "completion": "c", "n": ${n}}`);
    const blob = new Blob([lines.join('\n')]);
    const { index, rows } = await indexed(blob, 'trl-standard');
    const lr = new LineRows(index, { format: 'trl-standard' });
    // String(): "12", "1.5", "0", "12345678901234567000", "Infinity", "7", "-0.5".
    expect(rows.map((t) => String(t.fields.n))).toEqual(['12', '1.5', '0', '12345678901234567000', 'Infinity', '7', '-0.5']);
    const hits = async (needle: string) => Array.from((await searchLines({ name: 't.jsonl', blob }, lr, needle)) ?? []);
    expect(await hits('12')).toEqual([0, 3]);
    expect(await hits('1.5')).toEqual([1]);
    expect(await hits('567000')).toEqual([3]);
    expect(await hits('INF')).toEqual([4]);
    expect(await hits('-')).toEqual([6]);
    expect(await hits('0')).toEqual([0, 2, 3, 6]); // p0; 0; …67000; -0.5
  });

  it('stops when aborted, and says the file changed when a line is no longer there', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => JSON.stringify({ prompt: `q${i}`, completion: 'c' }));
    const blob = new Blob([lines.join('\n')]);
    const { index } = await indexed(blob, 'trl-standard');
    const lr = new LineRows(index, { format: 'trl-standard' });
    const abort = new AbortController();
    abort.abort();
    expect(await searchLines({ name: 't.jsonl', blob }, lr, 'q1', abort.signal)).toBeNull();
    const shorter = new Blob([lines.slice(0, 10).join('\n')]);
    await expect(searchLines({ name: 't.jsonl', blob: shorter }, lr, 'q1')).rejects.toThrow(/t.jsonl could not be read again/);
    const changed = new Blob([lines.join('\n').replaceAll('"q', '"Q').replaceAll('{"', '["')]);
    await expect(searchLines({ name: 't.jsonl', blob: changed }, lr, 'q1')).rejects.toThrow(/could not be read again/);
  });
});

describe('lineFilter', () => {
  it('tests every needle but the empty one; text the normalizer adds and the text of numbers widen the test', () => {
    expect(lineFilter('')).toBeNull();
    // Text flattened turns and tool calls add, and escapes the arguments written again may spell otherwise: a line
    // holding a list is parsed.
    for (const needle of ['user: hi', 'f(x', '{', ' x', 'x ', '→', 'a,b', 'a\nb', '"q"', 'a\\b'])
      expect(lineFilter(needle), needle).toMatchObject({ arrays: true });
    // As a line without \u or \/ writes the needle: JSON's required escapes.
    expect(lineFilter('say "\\boxed"\n')!.plain.source).toBe(String.raw`say \\"\\\\boxed\\"\\n`);
    expect(lineFilter('paris')).toMatchObject({ arrays: false });
    // Text a number's String() could hold (-Infinity is a number too large for a double) also tests the numbers.
    for (const needle of ['1000', '1e', 'E+2', '-', 'inf', 'NITY']) expect(lineFilter(needle)).toMatchObject({ numbers: true });
    expect(lineFilter('x1')).toMatchObject({ numbers: false });
    for (const needle of ['paris', 'a b', 'é', 'x1', 'e-mail', '😀', 'a/b']) expect(lineFilter(needle), needle).not.toBeNull();
    // ASCII needles are looked for in the bytes (their letters in lower case; the rarest byte first).
    expect(lineFilter('Zebra X')!.ascii).toEqual({ bytes: new TextEncoder().encode('zebra x'), anchor: 0 });
    expect(lineFilter('a/B')!.ascii).toEqual({ bytes: new TextEncoder().encode('a/b'), anchor: 1 });
    expect(lineFilter('café')!.ascii).toBeNull();
  });

  it('spells each character every way a JSON string may, in every case the search matches', () => {
    const f = lineFilter('éa/')!;
    for (const raw of ['éA/', '\\u00e9a/', '\\u00C9\\u0041\\/', 'É\\u0061\\u002F']) expect(f.spelled.test(raw), raw).toBe(true);
    expect(f.spelled.test('ea/')).toBe(false);
    // The Kelvin sign is not a case of k in the search's regex (no u flag), so it is not a spelling of it either.
    expect(lineFilter('k')!.spelled.test('\\u212a')).toBe(new RegExp('k', 'i').test('\u212a'));
  });
});
