import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trajectory';
import { labelColumns } from './labelColumns';

const row = (fields: Record<string, unknown>) => ({ fields }) as unknown as Trajectory;

describe('labelColumns', () => {
  it('keeps boolean and numeric fields, in first-seen order, with NaN where missing', () => {
    const cols = labelColumns([
      row({ is_correct: true, score: 0.5, text: 'a', step: 3 }),
      row({ is_correct: false, score: 2, mixed: 1 }),
      row({ score: null, mixed: 'x', uid: 7 }),
    ]);
    expect(cols.map((c) => c.name)).toEqual(['is_correct', 'score']);
    expect([...cols[0].values]).toEqual([1, 0, Number.NaN]);
    expect(cols[0].binary).toBe(true);
    expect([...cols[1].values]).toEqual([0.5, 2, Number.NaN]);
    expect(cols[1].binary).toBe(false);
  });
  it('the GSM8K demo offers is_correct_openai', async () => {
    const { readFileSync } = await import('node:fs');
    const rows = readFileSync('public/demo/gsm8k-rollouts.jsonl', 'utf8')
      .trim()
      .split('\n')
      .map((l) => row(JSON.parse(l)));
    const cols = labelColumns(rows);
    const c = cols.find((x) => x.name === 'is_correct_openai')!;
    expect(c.binary).toBe(true);
    // 295 true in the file (counted with grep -c '"is_correct_openai": true').
    expect([...c.values].filter((x) => x === 1).length).toBe(295);
  });
});

describe('labelColumns leaves ids out', () => {
  it('question_id and sample_index are numbers but not offered as labels', () => {
    const cols = labelColumns([row({ question_id: 12, sample_index: 0, is_correct: true }), row({ question_id: 12, sample_index: 1, is_correct: false })]);
    expect(cols.map((c) => c.name)).toEqual(['is_correct']);
  });
});
