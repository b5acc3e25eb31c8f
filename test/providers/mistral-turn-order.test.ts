import { describe, expect, it } from 'vitest';
import { bridgeToolToUser, TOOL_RESULTS_RECEIVED } from '../../src/providers/mistral-turn-order.js';

const roles = (body: { messages: Array<{ role: string }> }): string[] => body.messages.map((m) => m.role);

describe('bridgeToolToUser', () => {
  it('puts an assistant turn between tool results and a user message, everywhere in the history', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a' }, { id: 'b' }] },
        { role: 'tool', tool_call_id: 'a', content: '1' },
        { role: 'tool', tool_call_id: 'b', content: '2' },
        { role: 'user', content: 'reminder' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c' }] },
        { role: 'tool', tool_call_id: 'c', content: '3' },
        { role: 'user', content: 'next' },
      ],
    };
    bridgeToolToUser(body, 'devstral-small-2');
    expect(roles(body)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(body.messages[4]).toEqual({ role: 'assistant', content: TOOL_RESULTS_RECEIVED });
  });

  it('leaves a tool loop that goes on, and other models, as they are', () => {
    const going = { messages: [{ role: 'user' }, { role: 'assistant' }, { role: 'tool' }] };
    bridgeToolToUser(going, 'mistral-large-latest');
    expect(roles(going)).toEqual(['user', 'assistant', 'tool']);
    const other = { messages: [{ role: 'tool' }, { role: 'user' }] };
    bridgeToolToUser(other, 'qwen3-coder');
    expect(roles(other)).toEqual(['tool', 'user']);
  });
});
