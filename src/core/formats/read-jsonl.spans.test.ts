import { describe, expect, it } from 'vitest';
import { streamOf } from './fixtures/load-fixture';
import { ByteReader } from './byte-reader';
import { readJsonl } from './read-jsonl';
import type { RecordBatch } from './record-batch';
import { textChunksWithBytes } from './text-chunks';

async function read(
  bytes: Uint8Array,
  sizes: number[],
): Promise<{ records: unknown[]; lines: number[]; spans: number[]; issues: number[]; lineCount: number }> {
  const out = { records: [] as unknown[], lines: [] as number[], spans: [] as number[], issues: [] as number[], lineCount: -1 };
  const ctx = { name: 't.jsonl', bytesRead: () => 0, onEnd: (n: number) => (out.lineCount = n) };
  for await (const b of readJsonl(textChunksWithBytes(new ByteReader(streamOf(bytes, sizes))), ctx) as AsyncGenerator<RecordBatch>) {
    out.records.push(...b.records);
    out.lines.push(...b.lines);
    out.spans.push(...(b.spans ?? []));
    out.issues.push(...b.issues.map((i) => i.line));
  }
  return out;
}

const enc = (s: string) => new TextEncoder().encode(s);

describe('readJsonl: byte spans of lines', () => {
  it('gives each record the byte range of its line (worked by hand)', async () => {
    // bytes: {"a":1}\n = 0..7 (newline at 7); "\n" blank at 8; {"é":2}\r\n: 9..18 (é is 2 bytes; \r at 17, \n at 18);
    // bad\n at 19..22; {"b":"日"} at 23..33, no final newline (日 is 3 bytes): end of file at 34.
    const bytes = enc('{"a":1}\n\n{"é":2}\r\nbad\n{"b":"日"}');
    expect(bytes.length).toBe(34);
    for (const sizes of [[1000], [1], [2, 3], [5]]) {
      const r = await read(bytes, sizes);
      expect(r.records).toEqual([{ a: 1 }, { é: 2 }, { b: '日' }]);
      expect(r.lines).toEqual([1, 3, 5]);
      expect(r.spans).toEqual([0, 7, 9, 18, 23, 34]);
      expect(r.issues).toEqual([4]);
      expect(r.lineCount).toBe(5);
    }
  });

  it('skips a byte-order mark: the first line starts after it', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{"x":1}\n{"y":2}\n')]);
    for (const sizes of [[1000], [1], [2]]) {
      const r = await read(bytes, sizes);
      expect(r.spans).toEqual([3, 10, 11, 18]);
      expect(r.lineCount).toBe(2);
    }
  });

  it('every span decodes back to its record, whatever the chunk boundaries (unicode, CRLF, long lines, invalid bytes)', async () => {
    const words = ['plain', 'café', '日本語のテキスト', '👍🏽 emoji', 'tab\there', 'quote " and \\ backslash', 'x'.repeat(300)];
    const lines: string[] = [];
    for (let i = 0; i < 120; i++) {
      const rec = { i, text: words[i % words.length].repeat(1 + (i % 4)), group: `g${i % 7}` };
      lines.push(i % 11 === 5 ? '{"broken": ' : JSON.stringify(rec) + (i % 3 === 0 ? '\r' : ''));
      if (i % 17 === 0) lines.push('');
    }
    const text = lines.join('\n');
    // An invalid byte (0xff) inside one line's string: it decodes to U+FFFD in that line only.
    const bytes = new Uint8Array([...enc(text.slice(0, 40)), 0xff, ...enc(text.slice(40))]);
    const decode = new TextDecoder();
    for (const sizes of [[7], [1, 2, 3, 5, 8, 13], [64], [4096]]) {
      const r = await read(bytes, sizes);
      expect(r.records.length).toBeGreaterThan(100);
      expect(r.spans.length).toBe(2 * r.records.length);
      for (let k = 0; k < r.records.length; k++) {
        const again = JSON.parse(decode.decode(bytes.subarray(r.spans[2 * k], r.spans[2 * k + 1])));
        expect(again).toEqual(r.records[k]);
      }
      // Physical lines: the newlines, plus a last line when the text does not end with one.
      expect(r.lineCount).toBe(lines.length - 1 + (text.endsWith('\n') ? 0 : 1));
    }
  });
});
