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

/**
 * The demo's default reward (the number after the last "A:" equals ground_truth, numerically), written in Python
 * the way ../reward/answers.ts computes it, once per framework convention.
 */
const GSM8K_PY = String.raw`
import re

NUMBER_RE = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:/\d+(?:\.\d+)?)?|[-+]?\.\d+", re.ASCII)
PLAIN_RE = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+", re.ASCII)
FRAC_RE = re.compile(r"([-+]?\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", re.ASCII)
TEX_RE = re.compile(r"([-+]?)\\[dt]?frac\{(\d+(?:\.\d+)?)\}\{(\d+(?:\.\d+)?)\}", re.ASCII)


def number_after(text, marker="A:"):
    at = text.rfind(marker)
    if at < 0:
        return None
    m = NUMBER_RE.search(text, at + len(marker))
    return m.group(0) if m else None


def parse_number(text):
    if text is None:
        return None
    s = text.strip()
    s = re.sub(r"^\$", "", s)
    s = re.sub(r"%\Z", "", s)
    s = re.sub(r"\\!|\s", "", s)
    s = re.sub(r"^\\\$", "", s)
    if PLAIN_RE.fullmatch(s):
        return float(s.replace(",", ""))
    m = FRAC_RE.fullmatch(s)
    if m:
        den = float(m.group(2))
        return None if den == 0 else float(m.group(1)) / den
    m = TEX_RE.fullmatch(s)
    if m:
        den = float(m.group(3))
        return None if den == 0 else (-1 if m.group(1) == "-" else 1) * (float(m.group(2)) / den)
    return None


def numbers_equal(a, b, rel_tol=1e-9, abs_tol=1e-9):
    x, y = parse_number(a), parse_number(b)
    if x is None or y is None:
        return False
    return abs(x - y) <= max(abs_tol, rel_tol * max(abs(x), abs(y)))


def correct(completion, ground_truth):
    return 1.0 if numbers_equal(number_after(completion), ground_truth) else 0.0


# TRL
def gsm8k_reward(completions, ground_truth, **kwargs):
    return [correct(c, gt) for c, gt in zip(completions, ground_truth)]


# verl
def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    return correct(solution_str, ground_truth)


# OpenRLHF
def reward_func(queries, prompts, labels, **kwargs):
    return {"rewards": [correct(q[len(p):], l) for q, p, l in zip(queries, prompts, labels)]}
`;

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
