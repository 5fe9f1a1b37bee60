/**
 * Columns' categories read from a plain JSONL file's bytes by the import's scanner (scanJsonl), no row built: Group
 * by on a column the import did not collect, without parsing a million rows into objects and keeping them.
 */
import type { FormatId } from '../formats/types';
import { CategoryCollector, MAX_COLLECTED_VALUES, type Categories } from './categories';
import { LabelCollector } from './labelColumns';
import { Packer } from './packed';
import { scanJsonl, scansFlat } from './scanJsonl';

/**
 * The categories of the top-level columns of `blob` (a whole plain JSONL file in `format`), as `categories()` gives
 * them from its rows: `column` with all its values, each other column with at most MAX_COLLECTED_VALUES (so that the
 * next one asked for is there already). A column left out cannot be told by the scan: a list or object value (which
 * `categories()` writes as JSON), or, for another column, more values. Null for a format read otherwise. Throws when
 * the file no longer gives the `rows` rows it was imported with.
 */
export async function scanCategories(blob: Blob, name: string, format: FormatId, column: string, rows: number): Promise<Map<string, Categories> | null> {
  if (!scansFlat(format)) return null;
  const cats = new CategoryCollector((c) => (c === column ? Infinity : MAX_COLLECTED_VALUES));
  cats.column(column); // a column no row has: every row without a value
  const scan = scanJsonl(blob, { name, format, fileOffset: 0, fileStart: true, packer: new Packer(), labels: new LabelCollector(cats) });
  let n = 0;
  for (let r = await scan.next(); !r.done; r = await scan.next()) n += r.value.batch.line.length;
  if (n !== rows) throw new Error(`${name} gives ${n} rows now, ${rows} when it was imported: has the file changed?`);
  return new Map(cats.finish(rows).map((c) => [c.name, c.categories]));
}
