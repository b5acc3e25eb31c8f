import { describe, expect, it } from 'vitest';
import { placeSystemMessages, systemPlacementFrom, templateRefusedAs500 } from '../../src/routing/system-placement.js';

describe('systemPlacementFrom', () => {
  it.each([
    ['System message must be at the beginning.', 'first'],
    ["Jinja Exception: System message must be at the beginning.", 'first'],
    ['System role not supported', 'none'],
    ["Unexpected role 'system' after role 'assistant'", 'joined'],
    ["Unexpected role 'system' after role 'tool'", 'joined'],
    ['After the optional system message, conversation roles must alternate user/assistant/user/assistant/...', 'joined'],
    ['Jinja Exception: After the optional system message, conversation roles must alternate user and assistant roles except for tool calls and results.', 'joined'],
    ["Unexpected role 'user' after role 'tool'", undefined],
    ['Conversation roles must alternate user/assistant/user/assistant/...', undefined],
  ])('%s → %s', (message, expected) => {
    expect(systemPlacementFrom(message)).toBe(expected);
  });
});

describe('templateRefusedAs500', () => {
  const alternate = 'After the optional system message, conversation roles must alternate user and assistant roles except for tool calls and results.';
  it.each([
    [500, alternate, true], // llama.cpp (mistral-vibe#1006)
    [500, 'System message must be at the beginning.', true],
    [500, 'Internal server error', false], // a plain 500 stays the upstream's error
    [500, "Unexpected role 'user' after role 'tool'", false],
    [502, alternate, false],
    [undefined, alternate, false],
  ])('%s %s → %s', (status, message, expected) => {
    expect(templateRefusedAs500(status, message)).toBe(expected);
  });
});

describe('placeSystemMessages', () => {
  it("'first': leading system messages merged (parts kept as parts), later ones become user turns in place", () => {
    const body = {
      messages: [
        { role: 'system', content: 'A' },
        { role: 'system', content: [{ type: 'text', text: 'B', cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: 'q' },
        { role: 'system', content: 'R' },
      ],
    };
    expect(placeSystemMessages(body, 'first')).toBe(true);
    expect(body.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'q' },
      { role: 'user', content: 'R' },
    ]);
  });

  it("'joined': every system text in the leading message, in order; the other turns as they were", () => {
    const body = {
      messages: [
        { role: 'system', content: 'A' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
        { role: 'system', content: 'R' },
        { role: 'assistant', content: 'a' },
      ],
    };
    expect(placeSystemMessages(body, 'joined')).toBe(true);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'A\n\nR' });
    const late = { messages: [{ role: 'user', content: 'q' }, { role: 'system', content: 'R' }] };
    expect(placeSystemMessages(late, 'joined')).toBe(true);
    expect(late.messages).toEqual([{ role: 'system', content: 'R' }, { role: 'user', content: 'q' }]);
    expect(placeSystemMessages({ messages: [{ role: 'system', content: 'A' }, { role: 'user', content: 'q' }] }, 'joined')).toBe(false);
    // two user messages it stood between are one again (the template wants roles to alternate); others stay
    const between = { messages: [{ role: 'system', content: 'A' }, { role: 'user', content: 'q' }, { role: 'system', content: 'R' }, { role: 'user', content: [{ type: 'text', text: 'r' }] }, { role: 'user', content: 's' }] };
    expect(placeSystemMessages(between, 'joined')).toBe(true);
    expect(between.messages).toEqual([
      { role: 'system', content: 'A\n\nR' },
      { role: 'user', content: [{ type: 'text', text: 'q' }, { type: 'text', text: 'r' }] },
      { role: 'user', content: 's' },
    ]);
  });

  it("'first': nothing to do for one leading system message, or none", () => {
    expect(placeSystemMessages({ messages: [{ role: 'system', content: 'A' }, { role: 'user', content: 'q' }] }, 'first')).toBe(false);
    expect(placeSystemMessages({ messages: [{ role: 'user', content: 'q' }] }, 'first')).toBe(false);
  });

  it("'none': every system text opens the first user turn; without a user turn it becomes one", () => {
    const body = { messages: [{ role: 'system', content: 'S' }, { role: 'assistant', content: 'a' }, { role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] };
    expect(placeSystemMessages(body, 'none')).toBe(true);
    expect(body.messages).toEqual([
      { role: 'assistant', content: 'a' },
      { role: 'user', content: [{ type: 'text', text: 'S' }, { type: 'image_url', image_url: { url: 'x' } }] },
    ]);
    const lone = { messages: [{ role: 'system', content: 'S' }] };
    placeSystemMessages(lone, 'none');
    expect(lone.messages).toEqual([{ role: 'user', content: 'S' }]);
    expect(placeSystemMessages({ messages: [{ role: 'user', content: 'q' }] }, 'none')).toBe(false);
  });

  it('every result has at most one system message, first (random role sequences)', () => {
    const roles = ['system', 'user', 'assistant'] as const;
    for (let seed = 1; seed < 400; seed++) {
      let x = seed;
      const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) % 3;
      const messages = Array.from({ length: 1 + (seed % 7) }, (_, i) => ({ role: roles[next()]!, content: `m${i}` }));
      const first = { messages: messages.map((m) => ({ ...m })) };
      placeSystemMessages(first, 'first');
      expect(first.messages.filter((m, i) => m.role === 'system' && i > 0)).toEqual([]);
      const none = { messages: messages.map((m) => ({ ...m })) };
      placeSystemMessages(none, 'none');
      expect(none.messages.some((m) => m.role === 'system')).toBe(false);
      const joined = { messages: messages.map((m) => ({ ...m })) };
      placeSystemMessages(joined, 'joined');
      expect(joined.messages.filter((m, i) => m.role === 'system' && i > 0)).toEqual([]);
      expect(joined.messages.filter((m) => m.role === 'assistant'), 'assistant turns kept, in order').toEqual(messages.filter((m) => m.role === 'assistant'));
      // the user messages a system message stood between are one, others as they were
      expect(joined.messages.filter((m) => m.role === 'user').length).toBe(messages.filter((m, i) => m.role === 'user' && !(messages[i - 1]?.role === 'system' && lastKeptIsUser(messages, i))).length);
      for (const m of messages) {
        expect(JSON.stringify(first.messages), 'no text lost').toContain(m.content);
        expect(JSON.stringify(none.messages), 'no text lost').toContain(m.content);
        expect(JSON.stringify(joined.messages), 'no text lost').toContain(m.content);
      }
    }
  });
});

/** Whether the last message before `at` that is not a system one is a user message (and a system one stands between). */
function lastKeptIsUser(messages: ReadonlyArray<{ role: string }>, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && messages[i]!.role === 'system') i--;
  return i >= 0 && messages[i]!.role === 'user';
}
