import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAll } from '../dataset/loadAll';
import { compileReward } from '../reward/compile';
import { RowStatus } from '../reward/contract';
import { DEFAULT_REWARD_TS } from '../reward/defaultReward';
import { runRows, type RangeResult } from '../reward/runRows';
import type { Trajectory } from '../trajectory';
import { runPython } from './runPython';
import { findRewardFunctions } from './signatures';
import { GSM8K_PY } from './testing/gsm8k';

let py: PyodideAPI;
let rows: Trajectory[];
let ts: RangeResult;
beforeAll(async () => {
  const [pyodide, loaded] = await Promise.all([
    loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} }),
    loadAll({ name: 'gsm8k-rollouts.jsonl', blob: new Blob([readFileSync(join(__dirname, '../../../public/demo/gsm8k-rollouts.jsonl'))]) }),
  ]);
  py = pyodide;
  rows = loaded.rows;
  const c = compileReward(DEFAULT_REWARD_TS);
  if (!c.ok) throw new Error(c.message);
  ts = runRows(c.fn, (i) => rows[i], 0, rows.length);
}, 60_000);

describe('the GSM8K demo reward in Python gives the TypeScript default reward’s scores on all 800 demo rows', () => {
  it('finds the three conventions in the file', () => {
    const scan = findRewardFunctions(py, GSM8K_PY);
    expect(scan.ok && scan.candidates.map((c) => [c.name, c.kind])).toEqual([
      ['gsm8k_reward', 'trl'],
      ['compute_score', 'verl'],
      ['reward_func', 'openrlhf'],
    ]);
  });

  it.each([
    ['gsm8k_reward', 'trl'],
    ['compute_score', 'verl'],
    ['reward_func', 'openrlhf'],
  ] as const)('%s (%s)', (name, kind) => {
    expect(rows.length).toBe(800);
    expect(ts.status.every((s) => s === RowStatus.Ok)).toBe(true);
    const r = runPython(py, GSM8K_PY, { name, kind }, (i) => rows[i], 0, rows.length, { batchSize: 16 });
    expect(r.errors).toEqual([]);
    expect(Array.from(r.status)).toEqual(Array.from(ts.status));
    expect(Array.from(r.scores)).toEqual(Array.from(ts.scores));
    // README: the demo's mean reward is 0.36875.
    expect(r.scores.reduce((a, b) => a + b, 0) / 800).toBe(0.36875);
  });
});
