import { describe, expect, it } from 'vitest';
import type { Detection } from '../core/formats/types';
import { createStudioStore } from './index';

const detection: Detection = {
  container: 'jsonl',
  format: 'trl-standard',
  detected: 'trl-standard',
  reason: 'prompt and completion',
  columns: ['prompt', 'completion'],
  gzip: false,
};

describe('dataset slice', () => {
  it('starts with no dataset and no import', () => {
    const s = createStudioStore().getState();
    expect([s.datasetId, s.datasetName, s.rowCount, s.groupCount, s.detection, s.issues, s.importing, s.importError]).toEqual([
      null,
      '',
      0,
      0,
      null,
      [],
      null,
      null,
    ]);
  });

  it('setDataset puts the handle and summaries in place and clears the last import error', () => {
    const store = createStudioStore();
    store.getState().setImportError({ code: 'unreadable', message: 'bad', fileName: 'a.jsonl' });
    const issues = [{ line: 3, reason: 'messages.0.content: expected string' }];
    store.getState().setDataset({ id: 'd1', name: 'a.jsonl', rowCount: 10, groupCount: 4, detection, issues });
    const s = store.getState();
    expect([s.datasetId, s.datasetName, s.rowCount, s.groupCount, s.detection, s.issues, s.importError]).toEqual([
      'd1',
      'a.jsonl',
      10,
      4,
      detection,
      issues,
      null,
    ]);
  });

  it('setImporting and setImportError hold and clear the import state', () => {
    const store = createStudioStore();
    const p = { fileName: 'a.jsonl', bytesRead: 5, totalBytes: 10, rows: 2, issues: 0 };
    store.getState().setImporting(p);
    expect(store.getState().importing).toEqual(p);
    store.getState().setImporting(null);
    expect(store.getState().importing).toBeNull();
    store.getState().setImportError({ code: 'needs-mapping', message: 'map the columns', fileName: 'b.csv' });
    expect(store.getState().importError?.code).toBe('needs-mapping');
    // A failed import leaves the loaded dataset as it was.
    expect(store.getState().datasetId).toBeNull();
  });
});
