// One fixture per record format, imported end to end; expected values worked out by hand from the fixtures.
import { describe, expect, it } from 'vitest';
import { fixture, importAll } from './fixtures/load-fixture';

describe('importStream: record formats', () => {
  it('TRL standard', async () => {
    const { detection, rows, issues, done } = await importAll(fixture('trl-standard.jsonl'));
    expect(detection).toEqual({
      container: 'jsonl',
      format: 'trl-standard',
      detected: 'trl-standard',
      reason: 'has prompt/completion',
      columns: ['prompt', 'completion', 'answer', 'step'],
      gzip: false,
    });
    expect(issues).toEqual([]);
    expect(done).toEqual({ type: 'done', rowCount: 3, issueCount: 0, lineCount: 3 });
    expect(rows[0]).toStrictEqual({
      id: '1',
      index: 0,
      line: 1,
      group: 'What is 2+2?',
      prompt: 'What is 2+2?',
      completion: '4',
      messages: [
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: '4' },
      ],
      fields: { prompt: 'What is 2+2?', completion: '4', answer: '4' },
      groundTruth: '4',
    });
    expect(rows[1]).toMatchObject({ id: '2', index: 1, line: 2, group: 'What is 2+2?', completion: '5', groundTruth: '4' });
    expect(rows[2]).toStrictEqual({
      id: '3',
      index: 2,
      line: 3,
      group: 'Name a colour.',
      prompt: 'Name a colour.',
      completion: '',
      messages: [
        { role: 'user', content: 'Name a colour.' },
        { role: 'assistant', content: '' },
      ],
      fields: { prompt: 'Name a colour.', completion: '', step: 3 },
      step: 3,
    });
  });

  it('TRL conversational with tool calls (arguments as objects)', async () => {
    const { detection, rows, issues } = await importAll(fixture('trl-conversational-tools.jsonl'));
    expect(detection.format).toBe('trl-conversational');
    expect(detection.reason).toBe('has prompt/completion as message lists');
    expect(issues).toEqual([]);
    expect(rows).toHaveLength(2);
    expect(rows[0].messages).toEqual([
      { role: 'system', content: 'You can call tools.' },
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: '', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'C' } }] },
      { role: 'tool', content: '18', name: 'get_weather' },
      { role: 'assistant', content: 'It is 18 °C in Paris.' },
    ]);
    expect(rows[0].prompt).toBe(
      'system: You can call tools.\n\nuser: Weather in Paris?\n\nassistant: \n→ get_weather({"city":"Paris","unit":"C"})\n\ntool (get_weather): 18',
    );
    expect(rows[0].completion).toBe('It is 18 °C in Paris.');
    expect(rows[0].group).toBe('7'); // group_id 7, stringified
    expect(rows[1]).toMatchObject({ prompt: 'Hi', completion: 'Hello!', group: 'Hi', line: 2, index: 1 });
    expect(rows[1].messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
  });

  it('OpenAI messages with tool calls (arguments as JSON strings) and tool replies', async () => {
    const { detection, rows, issues } = await importAll(fixture('openai-tools.jsonl'));
    expect(detection.format).toBe('openai-messages');
    expect(detection.reason).toBe('has a "messages" list');
    expect(rows).toHaveLength(2);
    expect(rows[0].messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'What is\n17 * 23?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'calc', arguments: { expr: '17 * 23' } }] },
      { role: 'tool', content: '391', toolCallId: 'call_1' },
      { role: 'assistant', content: '17 * 23 = 391' },
    ]);
    expect(rows[0].prompt).toBe('system: Use tools.\n\nuser: What is\n17 * 23?\n\nassistant: \n→ calc({"expr":"17 * 23"})\n\ntool: 391');
    expect(rows[0].completion).toBe('17 * 23 = 391');
    expect(rows[0].group).toBe('a');
    expect(rows[1].messages[1].toolCalls).toEqual([{ id: 'c2', name: 'ping', arguments: 'not json' }]);
    expect(rows[1]).toMatchObject({ prompt: 'Ping', completion: '', group: 'b', line: 2, index: 1 });
    // the third record has a number where text belongs: an issue naming the place, the rest loads
    expect(issues).toEqual([{ line: 3, reason: 'messages.1.content: expected string, got number' }]);
  });

  it('verl rollout dump: input → prompt, output → completion, gts → ground truth, grouped by input', async () => {
    const { detection, rows } = await importAll(fixture('verl-dump.jsonl'));
    expect(detection.format).toBe('verl-dump');
    expect(detection.reason).toBe('has input/output');
    const input1 = '<|im_start|>user\nSolve 1+1<|im_end|>\n<|im_start|>assistant\n';
    const input2 = '<|im_start|>user\nSolve 2+3<|im_end|>\n<|im_start|>assistant\n';
    expect(rows.map((r) => [r.prompt, r.completion, r.groundTruth, r.step, r.group])).toEqual([
      [input1, '2', '2', 5, input1],
      [input1, '3', '2', 5, input1],
      [input2, '5', '5', 5, input2],
    ]);
    expect(rows[1].fields).toEqual({ input: input1, output: '3', gts: '2', score: 0, step: 5, acc: false });
  });

  it('TRL completions parquet: step, prompt, completion, reward columns, advantage (two row groups)', async () => {
    const { detection, rows } = await importAll(fixture('trl-completions.parquet'));
    expect(detection).toEqual({
      container: 'parquet',
      format: 'trl-completions',
      detected: 'trl-completions',
      reason: 'has prompt/completion/advantage',
      columns: ['step', 'prompt', 'completion', 'accuracy_reward', 'format_reward', 'advantage'],
      gzip: false,
    });
    expect(rows.map((r) => [r.line, r.index, r.group, r.completion, r.step])).toEqual([
      [1, 0, 'What is 6*7?', '42', 10],
      [2, 1, 'What is 6*7?', '36', 10],
      [3, 2, 'Spell cat.', 'c-a-t', 10],
      [4, 3, 'Spell cat.', 'k-a-t', 10],
    ]);
    // INT64 step arrives as a number, reward columns stay in fields
    expect(rows[3].fields).toEqual({ step: 10, prompt: 'Spell cat.', completion: 'k-a-t', accuracy_reward: 0, format_reward: 0.5, advantage: -0.7071 });
  });

  it('TRL completions parquet written with the GZIP codec', async () => {
    const { rows } = await importAll(fixture('trl-completions-gzip.parquet'));
    expect(rows.map((r) => r.completion)).toEqual(['42', '36', 'c-a-t', 'k-a-t']);
  });

  it('verl training parquet: nested prompt list and reward_model struct, no completion', async () => {
    const { detection, rows } = await importAll(fixture('verl-dataset.parquet'));
    expect(detection.format).toBe('verl-dataset');
    expect(detection.reason).toBe('has a prompt message list and reward_model/data_source, no completion');
    const natalia = 'Natalia sold 48 clips. How many? Let\'s think step by step and output the final answer after "####".';
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ id: '1', line: 1, prompt: natalia, completion: '', groundTruth: '72', group: natalia });
    expect(rows[0].messages).toEqual([{ role: 'user', content: natalia }]);
    expect(rows[0].fields.extra_info).toEqual({ index: 0, split: 'train' });
    expect(rows[0].fields.reward_model).toEqual({ ground_truth: '72', style: 'rule' });
    expect(rows[1]).toMatchObject({
      prompt: 'system: You are a careful solver.\n\nuser: Weng earns $12 an hour. How much for 50 minutes?',
      completion: '',
      groundTruth: '10',
    });
    expect(rows[2].group).toBe(rows[0].group);
  });

  it('RewardBench v1: two trajectories per record, paired by id', async () => {
    const { detection, rows } = await importAll(fixture('rewardbench-v1.jsonl'));
    expect(detection.format).toBe('preference');
    expect(detection.reason).toBe('has chosen/rejected');
    expect(rows.map((r) => [r.id, r.index, r.line, r.pairId, r.preference, r.prompt, r.completion, r.group])).toEqual([
      ['1:chosen', 0, 1, '42', 'chosen', 'Say hi', 'Hi!', 'Say hi'],
      ['1:rejected', 1, 1, '42', 'rejected', 'Say hi', 'Go away.', 'Say hi'],
      ['2:chosen', 2, 2, '43', 'chosen', 'Add 2 and 2', '4', 'Add 2 and 2'],
      ['2:rejected', 3, 2, '43', 'rejected', 'Add 2 and 2', '22', 'Add 2 and 2'],
    ]);
    expect(rows[0].fields).toEqual({ prompt: 'Say hi', chosen: 'Hi!', rejected: 'Go away.', subset: 'alpacaeval-easy', id: 42 });
  });

  it('TRL preference (conversational and plain, no id): paired by line', async () => {
    const { detection, rows } = await importAll(fixture('trl-preference.jsonl'));
    expect(detection.format).toBe('preference');
    expect(rows.map((r) => [r.id, r.pairId, r.preference, r.prompt, r.completion, r.group])).toEqual([
      ['1:chosen', '1', 'chosen', 'Best fruit?', 'Mango.', 'Best fruit?'],
      ['1:rejected', '1', 'rejected', 'Best fruit?', 'Rocks.', 'Best fruit?'],
      ['2:chosen', '2', 'chosen', 'Capital of France?', 'Paris', 'Capital of France?'],
      ['2:rejected', '2', 'rejected', 'Capital of France?', 'Lyon', 'Capital of France?'],
    ]);
    expect(rows[1].messages).toEqual([
      { role: 'user', content: 'Best fruit?' },
      { role: 'assistant', content: 'Rocks.' },
    ]);
  });

  it('RewardBench 2: one trajectory per listed completion, all sharing the pair id', async () => {
    const { detection, rows } = await importAll(fixture('rewardbench2.jsonl'));
    expect(detection.format).toBe('rewardbench2');
    expect(detection.reason).toBe('has prompt with lists of chosen/rejected completions');
    expect(rows.map((r) => [r.id, r.index, r.line, r.pairId, r.preference, r.completion])).toEqual([
      ['1:chosen:0', 0, 1, 'rb2-1', 'chosen', 'Old pond / frog jumps in / splash'],
      ['1:rejected:0', 1, 1, 'rb2-1', 'rejected', 'A haiku.'],
      ['1:rejected:1', 2, 1, 'rb2-1', 'rejected', 'Haiku haiku haiku'],
      ['1:rejected:2', 3, 1, 'rb2-1', 'rejected', 'No.'],
      ['2:chosen:0', 4, 2, 'rb2-2', 'chosen', '4'],
      ['2:chosen:1', 5, 2, 'rb2-2', 'chosen', 'four'],
      ['2:rejected:0', 6, 2, 'rb2-2', 'rejected', '5'],
    ]);
    expect(rows[6]).toMatchObject({ prompt: '2+2?', group: '2+2?' });
  });

  it('group keys: group, uid, group_id, prompt_id in order, numbers stringified, else the prompt', async () => {
    const { rows } = await importAll(fixture('group-keys.jsonl'));
    expect(rows.map((r) => r.group)).toEqual(['G', 'U', '1', '2.5', 'p', '0']);
  });

  it('the demo data set (GSM8K, 200 questions × 4 solutions)', async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(new URL('../../../public/demo/gsm8k-rollouts.jsonl', import.meta.url));
    const { detection, rows, issues } = await importAll({ name: 'gsm8k-rollouts.jsonl', blob: new Blob([bytes]) });
    expect(detection.format).toBe('trl-standard');
    expect(issues).toEqual([]);
    expect(rows).toHaveLength(800);
    expect(new Set(rows.map((r) => r.group)).size).toBe(200);
    expect(rows[0].group).toBe('0');
    expect(rows[0].groundTruth).toBe('18');
    expect(rows[799].index).toBe(799);
    expect(rows[799].line).toBe(800);
  });
});
