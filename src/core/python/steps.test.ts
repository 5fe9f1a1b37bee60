/** A verl dict's `steps` (step rewards for the Shaping step transforms) through the Python harness. */
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import type { Trajectory } from '../trajectory';
import { runPython } from './runPython';

let py: PyodideAPI;
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

const row = (index: number, completion: string): Trajectory => ({
  id: String(index),
  index,
  line: index + 1,
  group: 'g',
  prompt: 'Q?',
  completion,
  messages: [],
  groundTruth: '1',
  fields: { prompt: 'Q?', completion },
});

const CODE = [
  'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
  '    if solution_str == "bad":',
  '        return {"score": 1.0, "steps": [0.5, "x"]}',
  '    if solution_str == "none":',
  '        return 0.25',
  '    return {"score": 1.0, "steps": [float(c) / 10 for c in solution_str]}',
  '',
].join('\n');

describe('verl dict results: steps', () => {
  it('become the range’s ragged step column; a row without them has none; bad ones fail the row', () => {
    const rows = [row(0, '123'), row(1, 'none'), row(2, 'bad'), row(3, '9')];
    const r = runPython(py, CODE, { name: 'compute_score', kind: 'verl' }, (i) => rows[i], 0, rows.length, {});
    expect(Array.from(r.status)).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Error, RowStatus.Ok]);
    expect([...r.steps!.offsets]).toEqual([0, 3, 3, 3, 4]);
    expect([...r.steps!.values]).toEqual([0.1, 0.2, 0.3, 0.9]);
    expect(r.errors[0].message).toContain("compute_score() returned 'steps' that is not a list of at most 4096 finite numbers");
    // `steps` is not a component.
    expect(Object.keys(r.components)).toEqual([]);
  });
});
