import { describe, expect, it } from 'vitest';
import { continueAfterPrefill, refusesPrefill } from '../../src/routing/prefill-continue.js';

describe('prefill-continue', () => {
  it('reads the refusal', () => {
    expect(refusesPrefill('anthropic: This model does not support assistant message prefill. The conversation must end with a user message.')).toBe(true);
    expect(refusesPrefill('messages: text content blocks must contain non-whitespace text')).toBe(false);
  });

  it('adds a user turn after a trailing assistant turn only', () => {
    const body = { messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'text', text: 'a' }] }] };
    expect(continueAfterPrefill(body)).toBe(true);
    expect(body.messages).toHaveLength(3);
    expect(body.messages[2]).toEqual({ role: 'user', content: [{ type: 'text', text: '(continue)' }] });
    expect(continueAfterPrefill(body), 'ends with a user turn now').toBe(false);
    expect(continueAfterPrefill({ messages: [] })).toBe(false);
    expect(continueAfterPrefill({})).toBe(false);
  });
});
