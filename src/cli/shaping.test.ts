/** shapeRun with the rows --model already read: the data file is not read a second time. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAll } from '../core/dataset/loadAll';
import { datasetMeta } from '../core/dataset/meta';
import { parseArgs } from './args';
import { shapeRun } from './shaping';

const dir = mkdtempSync(join(tmpdir(), 'reward-studio-shaping-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function options(dataPath: string) {
  const a = parseArgs(['score', dataPath, '--reward', join(dir, 'r.ts'), '--shape', 'kimi-length']);
  if (a.kind !== 'score') throw new Error(JSON.stringify(a));
  return a.options;
}

describe('shapeRun', () => {
  it('uses the rows it is given instead of reading the file again (token lengths for kimi-length)', async () => {
    const data = join(dir, 'd.jsonl');
    const rows = [10, 40, 25, 5].map((n, i) => ({ prompt: `q${i >> 1}`, completion: 'y'.repeat(n) }));
    writeFileSync(data, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const loaded = await loadAll({ name: 'd.jsonl', blob: new Blob([rows.map((r) => JSON.stringify(r)).join('\n') + '\n']) });
    const read = loaded.rows;
    const meta = datasetMeta(read, loaded.issues, loaded.detection, null);
    const scores = Float64Array.of(1, 0, 1, 1);
    const status = Uint8Array.of(1, 1, 1, 1);
    const fromFile = await shapeRun(options(data), meta, scores, status, null);
    if (!fromFile.ok) throw new Error(fromFile.message);
    // A path that no longer exists: only the rows given can give the lengths.
    const gone = join(dir, 'gone.jsonl');
    const given = await shapeRun(options(gone), meta, scores, status, null, read);
    if (!given.ok) throw new Error(given.message);
    expect(Array.from(given.shaped.scores)).toEqual(Array.from(fromFile.shaped.scores));
    const none = await shapeRun(options(gone), meta, scores, status, null);
    expect(none).toMatchObject({ ok: false, message: expect.stringContaining('cannot read the data file') });
  });
});
