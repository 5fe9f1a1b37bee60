import { describe, expect, it } from 'vitest';
import { flattenMessages, fromMessages, fromPromptCompletion } from './conversation';

describe('flattenMessages', () => {
  it('returns the content of a single message unchanged', () => {
    expect(flattenMessages([{ role: 'user', content: 'Just this.' }])).toBe('Just this.');
    expect(flattenMessages([])).toBe('');
  });

  it('writes role: content blocks separated by blank lines, with tool calls and tool names', () => {
    expect(
      flattenMessages([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Add 2 and 3.' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { name: 'add', arguments: { a: 2, b: 3 } },
            { name: 'log', arguments: 'raw' },
          ],
        },
        { role: 'tool', content: '5', name: 'add' },
      ]),
    ).toBe('system: Be brief.\n\nuser: Add 2 and 3.\n\nassistant: \n→ add({"a":2,"b":3})\n→ log(raw)\n\ntool (add): 5');
  });

  it('flattens only the first `end` messages when asked', () => {
    const ms = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ];
    expect(flattenMessages(ms, 1)).toBe('a');
  });
});

describe('fromPromptCompletion', () => {
  it('plain strings: prompt and completion as they are, a two-turn conversation', () => {
    expect(fromPromptCompletion('Q', 'A', 'prompt', 'completion')).toEqual({
      prompt: 'Q',
      completion: 'A',
      messages: [
        { role: 'user', content: 'Q' },
        { role: 'assistant', content: 'A' },
      ],
      promptKey: 'Q',
    });
  });

  it('a conversational prompt with a string completion', () => {
    const c = fromPromptCompletion(
      [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U' },
      ],
      'A',
      'prompt',
      'completion',
    );
    expect(c.prompt).toBe('system: S\n\nuser: U');
    expect(c.promptKey).toBe('system: S\n\nuser: U');
    expect(c.completion).toBe('A');
    expect(c.messages).toHaveLength(3);
  });

  it('the completion is the final assistant turn; the group key stays the prompt column', () => {
    const c = fromPromptCompletion(
      [{ role: 'user', content: 'U' }],
      [
        { role: 'assistant', content: 'thinking', tool_calls: [{ function: { name: 't', arguments: '{}' } }] },
        { role: 'tool', content: 'r' },
        { role: 'assistant', content: 'final' },
      ],
      'prompt',
      'completion',
    );
    expect(c.completion).toBe('final');
    expect(c.prompt).toBe('user: U\n\nassistant: thinking\n→ t({})\n\ntool: r');
    expect(c.promptKey).toBe('U');
  });

  it('fails when the completion side has no assistant turn', () => {
    expect(() => fromPromptCompletion('Q', [{ role: 'tool', content: 'x' }], 'prompt', 'completion')).toThrow('completion: no assistant turn');
  });
});

describe('fromMessages', () => {
  it('splits at the final assistant turn; the group key is the turns before the first one', () => {
    const c = fromMessages(
      [
        { role: 'user', content: 'U1' },
        { role: 'assistant', content: 'A1' },
        { role: 'user', content: 'U2' },
        { role: 'assistant', content: 'A2' },
      ],
      'messages',
    );
    expect(c.prompt).toBe('user: U1\n\nassistant: A1\n\nuser: U2');
    expect(c.completion).toBe('A2');
    expect(c.promptKey).toBe('U1');
  });

  it('fails without an assistant turn', () => {
    expect(() => fromMessages([{ role: 'user', content: 'U' }], 'messages')).toThrow('messages: no assistant turn');
  });
});
