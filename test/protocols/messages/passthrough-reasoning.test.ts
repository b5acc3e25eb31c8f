import { describe, expect, it } from 'vitest';
import { restoreNativeThinking } from '../../../src/protocols/messages/index.js';
import { mayHoldEnvelopes, packOrigin } from '../../../src/protocols/reasoning-envelope.js';

describe('restoreNativeThinking (Messages passthrough after a provider switch)', () => {
  it('leaves a body without envelopes untouched', () => {
    const body = { messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 'native' }, { type: 'text', text: 'a' }] }] };
    const before = JSON.stringify(body);
    expect(restoreNativeThinking(body)).toBe(false);
    expect(JSON.stringify(body)).toBe(before);
    expect(mayHoldEnvelopes(Buffer.from(before))).toBe(false);
  });

  it('restores Anthropic proof, drops foreign reasoning, removes turns left empty', () => {
    const redacted = packOrigin({ kind: 'anthropic_redacted', data: 'R' });
    const openai = packOrigin({ kind: 'openai', id: 'rs_1', encryptedContent: 'E' });
    const unsigned = packOrigin({ kind: 'unsigned' });
    const body = {
      model: 'claude',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: '', signature: redacted }, { type: 'thinking', thinking: 'gpt summary', signature: openai }, { type: 'text', text: 'a' }] },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'local', signature: unsigned }] },
        { role: 'user', content: 'q3' },
      ],
    };
    expect(mayHoldEnvelopes(Buffer.from(JSON.stringify(body)))).toBe(true);
    expect(restoreNativeThinking(body)).toBe(true);
    expect(body.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'R' }, { type: 'text', text: 'a' }] },
      { role: 'user', content: 'q2' },
      { role: 'user', content: 'q3' },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/svcp1\.|gpt summary|local/);
  });

  it('drops a damaged envelope rather than passing it to Anthropic as a signature', () => {
    const cut = packOrigin({ kind: 'anthropic', signature: 'EqQBCkgIARAB' }).slice(0, 12);
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'kept?', signature: cut }, { type: 'text', text: 'a' }] },
      ],
    };
    expect(restoreNativeThinking(body)).toBe(true);
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    expect(JSON.stringify(body)).not.toContain('svcp1.');
  });
});
