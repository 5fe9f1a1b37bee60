import { describe, expect, it } from 'vitest';
import { asMessages, isMessageList, parseMessages } from './messages';

const reason = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'did not throw';
};

describe('parseMessages', () => {
  it('reads OpenAI tool calls with JSON-string arguments and tool replies', () => {
    expect(
      parseMessages(
        [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'search', arguments: '{"q": "rl", "k": 3}' } }],
          },
          { role: 'tool', tool_call_id: 'call_9', name: 'search', content: 'found' },
        ],
        'messages',
      ),
    ).toEqual([
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'search', arguments: { q: 'rl', k: 3 } }] },
      { role: 'tool', content: 'found', toolCallId: 'call_9', name: 'search' },
    ]);
  });

  it('reads TRL tool calls with object arguments, with or without the function wrapper', () => {
    expect(
      parseMessages(
        [
          { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'add', arguments: { a: 1, b: 2 } } }] },
          { role: 'assistant', tool_calls: [{ name: 'mul', arguments: { a: 3 } }, { name: 'noop' }] },
        ],
        'completion',
      ),
    ).toEqual([
      { role: 'assistant', content: '', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { name: 'mul', arguments: { a: 3 } },
          { name: 'noop', arguments: {} },
        ],
      },
    ]);
  });

  it('keeps arguments that are not valid JSON as the raw string', () => {
    const [m] = parseMessages([{ role: 'assistant', tool_calls: [{ function: { name: 'f', arguments: '{oops' } }] }], 'm');
    expect(m.toolCalls).toEqual([{ name: 'f', arguments: '{oops' }]);
  });

  it('joins multi-part text content with newlines and skips non-text parts', () => {
    const [m] = parseMessages(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image_url', image_url: { url: 'a.png' } },
            { type: 'image' },
            { type: 'text', text: 'what is it?' },
          ],
        },
      ],
      'messages',
    );
    expect(m).toEqual({ role: 'user', content: 'Look:\nwhat is it?' });
  });

  it('drops an empty tool_calls list', () => {
    expect(parseMessages([{ role: 'assistant', content: 'x', tool_calls: [] }], 'm')).toEqual([{ role: 'assistant', content: 'x' }]);
  });

  it('names the exact place of a wrong type', () => {
    expect(reason(() => parseMessages('hi', 'messages'))).toBe('messages: expected a list of messages, got string');
    expect(reason(() => parseMessages([{ role: 'user', content: 'a' }, 7], 'messages'))).toBe('messages.1: expected object, got number');
    expect(reason(() => parseMessages([{ content: 'a' }], 'messages'))).toBe('messages.0.role: expected string, got undefined');
    expect(
      reason(() =>
        parseMessages(
          [
            { role: 'user', content: 'a' },
            { role: 'user', content: '' },
            { role: 'user', content: '' },
            { role: 'user', content: 3 },
          ],
          'messages',
        ),
      ),
    ).toBe('messages.3.content: expected string, got number');
    expect(reason(() => parseMessages([{ role: 'user', content: [{ type: 'text', text: 1 }] }], 'prompt'))).toBe(
      'prompt.0.content.0.text: expected string, got number',
    );
    expect(reason(() => parseMessages([{ role: 'assistant', tool_calls: {} }], 'm'))).toBe('m.0.tool_calls: expected array, got object');
    expect(reason(() => parseMessages([{ role: 'assistant', tool_calls: [{ function: { arguments: '{}' } }] }], 'm'))).toBe(
      'm.0.tool_calls.0.function.name: expected string, got undefined',
    );
    expect(reason(() => parseMessages([{ role: 'tool', tool_call_id: 5, content: '' }], 'm'))).toBe('m.0.tool_call_id: expected string, got number');
  });
});

describe('asMessages / isMessageList', () => {
  it('turns a string into one message with the given role', () => {
    expect(asMessages('hello', 'prompt', 'user')).toEqual([{ role: 'user', content: 'hello' }]);
    expect(reason(() => asMessages(3, 'prompt', 'user'))).toBe('prompt: expected string or a list of messages, got number');
  });

  it('recognises message lists by a role on the first element', () => {
    expect(isMessageList([{ role: 'user', content: 'x' }])).toBe(true);
    expect(isMessageList([])).toBe(false);
    expect(isMessageList(['a', 'b'])).toBe(false);
    expect(isMessageList('text')).toBe(false);
  });
});
