import { describe, expect, it } from 'vitest';
import { refusesReasoningFields, stripReasoningFields } from '../../src/routing/reasoning-fields.js';

describe('refusesReasoningFields', () => {
  it.each([
    ["'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]", true],
    ["property 'reasoning' is unsupported", true],
    ["messages.2.assistant.reasoning_content: property 'messages.2.assistant.reasoning_content' is unsupported", true],
    ['messages.1.assistant.reasoning: Extra inputs are not permitted', true],
    ["property 'store' is unsupported, did you mean 'stop'?", false],
    ['Invalid max_tokens value, the valid range of max_tokens is [1, 8192]', false],
  ])('%s → %s', (message, expected) => {
    expect(refusesReasoningFields(message)).toBe(expected);
  });
});

describe('stripReasoningFields', () => {
  it('removes plain reasoning from assistant messages only, and says whether it did', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q', reasoning: 'not ours to touch' },
        { role: 'assistant', content: 'a', reasoning: 'r', reasoning_content: 'r' },
        { role: 'assistant', content: 'b' },
      ],
    };
    expect(stripReasoningFields(body)).toBe(true);
    expect(body.messages).toEqual([{ role: 'user', content: 'q', reasoning: 'not ours to touch' }, { role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }]);
    expect(stripReasoningFields(body)).toBe(false);
  });
});
