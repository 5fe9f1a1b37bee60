import { describe, expect, it } from 'vitest';
import { defaultLabelColumn, isIdLike, labelRank } from './labelChoice';

// Column sets as the label collector offers them (numeric or boolean columns, in file order), from real files' schemas.
const col = (name: string, binary: boolean) => ({ name, binary });

describe('defaultLabelColumn', () => {
  it('GSM8K rollouts with ids first: is_correct, never question_id or sample_index', () => {
    // question_id 0..1318 and sample_index 0..3 are numbers; is_correct is a boolean.
    expect(defaultLabelColumn([col('question_id', false), col('sample_index', false), col('is_correct', true)])).toBe('is_correct');
  });
  it('the bundled demo: is_correct_openai', () => {
    expect(defaultLabelColumn([col('is_correct_openai', true)])).toBe('is_correct_openai');
  });
  it('an id column that happens to hold only 0/1 (two samples per question) is still never the default', () => {
    expect(defaultLabelColumn([col('sample_index', true), col('score', false)])).toBe('score');
    expect(defaultLabelColumn([col('sample_index', true)])).toBeNull();
  });
  it('MT-bench judgments: the judge score, not question_id, turn or tstamp', () => {
    expect(defaultLabelColumn([col('question_id', false), col('turn', false), col('score', false), col('tstamp', false)])).toBe('score');
  });
  it('TRL completions log: the accuracy reward before the format reward, never step or advantage', () => {
    // accuracy_reward: verdict word + 0/1 → rank 0; format_reward: grade word + 0/1 → rank 1.
    expect(defaultLabelColumn([col('step', false), col('format_reward', true), col('accuracy_reward', true), col('advantage', false)])).toBe('accuracy_reward');
  });
  it('verl rollout dump: acc (0/1) before score', () => {
    expect(defaultLabelColumn([col('score', false), col('step', false), col('acc', true)])).toBe('acc');
  });
  it('AlpacaEval annotations: preference, never annotator_index, time or price per example', () => {
    expect(defaultLabelColumn([col('annotator_index', false), col('preference', false), col('time_per_example', false), col('price_per_example', false)])).toBe(
      'preference',
    );
  });
  it('a boolean with no telling name beats a number with none', () => {
    expect(defaultLabelColumn([col('temperature_bucket', false), col('rating_count', false), col('flag', true)])).toBe('flag');
  });
  it('camelCase ids and labels', () => {
    expect(defaultLabelColumn([col('questionId', false), col('isCorrect', true)])).toBe('isCorrect');
  });
  it('nothing fits: null', () => {
    expect(defaultLabelColumn([])).toBeNull();
    expect(defaultLabelColumn([col('id', false), col('num_tokens', false), col('epoch', false)])).toBeNull();
  });
});

describe('isIdLike / labelRank', () => {
  it('names like ids', () => {
    for (const n of ['id', 'question_id', 'sample_index', 'row_idx', 'uuid', 'prompt_hash', 'sampleNum', 'id_question', 'item_no'])
      expect(isIdLike(n)).toBe(true);
    for (const n of ['is_correct', 'label', 'acc', 'score', 'no_answer', 'valid', 'identical']) expect(isIdLike(n)).toBe(false);
  });
  it('ranks: verdict 0/1 = 0, verdict or 0/1 grade = 1, other 0/1 = 2, grade = 3, other = 4', () => {
    expect(labelRank(col('correct', true))).toBe(0);
    expect(labelRank(col('label', false))).toBe(1);
    expect(labelRank(col('reward', true))).toBe(1);
    expect(labelRank(col('valid', true))).toBe(2);
    expect(labelRank(col('rating', false))).toBe(3);
    expect(labelRank(col('difficulty', false))).toBe(4);
    expect(labelRank(col('completion_length', false))).toBeNull();
  });
});
