/**
 * Import a dataset of several files (core/dataset/parts.ts) as one: each part is read by `importPacked` in turn (the
 * first decides the format, the others are read with it), and its batches are renumbered into the dataset's by a
 * PartsJoiner. A part that cannot be read at all is reported as an issue naming its file, and the rest load.
 */
import { importPacked, type PackedEvent, type Parallelism } from './importPacked';
import type { CategoryColumn } from './categories';
import { LabelCollector, type LabelColumn } from './labelColumns';
import { PartsJoiner, unreadablePart } from './parts';
import type { ByteSource, ImportOptions } from '../formats/types';
import type { ParseIssue } from '../trajectory';

/** A part to read: its file and the step its name gives. */
export interface PartSource extends ByteSource {
  step: number | null;
}

export type PartsEvent =
  | PackedEvent
  /** A part starts (`index` in the order given): its batches follow. */
  | { kind: 'part'; index: number }
  /** A part is read: `rows` rows (0 when it failed; `failure` then says why, as an issue naming the file). */
  | { kind: 'part-end'; index: number; rows: number; failure?: ParseIssue };

export async function* importParts(parts: readonly PartSource[], opts: ImportOptions, par?: Parallelism): AsyncGenerator<PartsEvent> {
  const joiner = new PartsJoiner();
  const labels = new LabelCollector();
  let format = opts.format;
  let first: unknown = null;
  let rowsSoFar = 0;
  for (let index = 0; index < parts.length; index++) {
    const p = parts[index];
    opts.signal?.throwIfAborted();
    yield { kind: 'part', index };
    joiner.startPart(p.name, p.step);
    let rows = 0;
    let columns: LabelColumn[] = [];
    let categories: CategoryColumn[] | null = null;
    try {
      for await (const e of importPacked({ name: p.name, blob: p.blob }, { ...opts, format }, par)) {
        if (e.kind === 'meta') {
          if (format === undefined) {
            format = e.detection.format;
            yield e;
          }
        } else if (e.kind === 'labels') {
          columns = e.columns;
          categories = e.categories;
        } else if (e.kind === 'decompressed' || e.kind === 'progress') {
          yield e;
        } else {
          rows += e.batch.line.length;
          yield { ...e, batch: joiner.adopt(e.batch) };
        }
      }
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      first ??= e;
      const failure = unreadablePart(p.name, e);
      // Rows already sent stay; a part that failed part-way keeps them (its issues say where it stopped).
      yield { kind: 'part-end', index, rows, failure };
      labels.merge({ rows, fields: [] });
      rowsSoFar += rows;
      continue;
    }
    // A part's label columns join the dataset's; a field the part lacks is missing (NaN) on its rows.
    const fields = columns.map((c) => ({ name: c.name, binary: c.binary, values: c.values }));
    const cats = categories && { rows, columns: categories.map((c) => ({ name: c.name, codes: c.categories.codes, values: c.categories.values })) };
    labels.merge({ rows, fields, ...(cats ? { categories: cats } : {}) });
    rowsSoFar += rows;
    yield { kind: 'part-end', index, rows };
  }
  if (rowsSoFar === 0) throw first ?? new Error('no file gave a row');
  yield { kind: 'labels', columns: labels.finish(), categories: labels.categoryColumns() };
}
