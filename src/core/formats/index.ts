/**
 * Streaming import of rollout files (JSONL, JSON, CSV/TSV, Parquet, any of them gzipped) into normalized
 * Trajectory objects. Pure TypeScript over web-standard APIs: runs in Node and in a Web Worker.
 *
 * How the pieces fit:
 *   import-stream.ts   the entry point: open → detect → normalize → batches of events
 *   container.ts       bytes → record batches: sniff.ts (what the bytes are), byte-reader.ts, text-chunks.ts
 *                      (UTF-8 across chunks), and one reader per container: read-jsonl.ts (+ line-splitter.ts),
 *                      read-json.ts, read-csv.ts, read-parquet.ts
 *   detect.ts          which record format (labels.ts: names for the UI)
 *   normalize.ts       format → normalizer: format-trl.ts, format-openai.ts, format-verl.ts,
 *                      format-preference.ts, format-mapped.ts, all built on messages.ts (parse + validate message
 *                      lists), conversation.ts (prompt/completion text), build-trajectory.ts, group-key.ts,
 *                      record-fields.ts (ground truth, step), record-error.ts (path-precise messages)
 */
export { importStream, DETECTION_SAMPLE } from './import-stream';
export { detectFormat, type FormatGuess } from './detect';
export { groupKeyOf, GROUP_COLUMNS } from './group-key';
export { groundTruthOf, stepOf } from './record-fields';
export { flattenMessages } from './conversation';
export { FORMAT_LABELS } from './labels';
export * from './types';
