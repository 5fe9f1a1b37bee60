/**
 * A JSON document: an array of records (row numbers 1-based), or a single object (one record, e.g. a
 * pretty-printed file). The whole text is parsed at once, so the file must fit in memory as a string.
 */
import type { RecordBatch } from './record-batch';
import { isPlainObject, typeName } from './record-error';

const ROWS_PER_BATCH = 5000;

export function* jsonBatches(document: unknown, bytesRead: number): Generator<RecordBatch> {
  const items = Array.isArray(document) ? document : [document];
  for (let start = 0; start < items.length; start += ROWS_PER_BATCH) {
    const batch: RecordBatch = { records: [], lines: [], issues: [], bytesRead };
    const end = Math.min(items.length, start + ROWS_PER_BATCH);
    for (let i = start; i < end; i++) {
      const item = items[i];
      if (isPlainObject(item)) {
        batch.records.push(item);
        batch.lines.push(i + 1);
      } else {
        batch.issues.push({ line: i + 1, reason: `expected a JSON object, got ${typeName(item)}` });
      }
    }
    yield batch;
  }
}
