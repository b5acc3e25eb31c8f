import { describe, expect, it } from 'vitest';
import { restoreNativeReasoning } from '../../../src/protocols/responses/index.js';
import { mayHoldEnvelopes, packOrigin } from '../../../src/protocols/reasoning-envelope.js';

describe('restoreNativeReasoning (Responses passthrough to OpenAI after a provider switch)', () => {
  it('leaves a body without envelopes untouched', () => {
    const body = {
      input: [
        { role: 'user', content: 'q' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA-native' },
        { type: 'reasoning', id: 'rs_2', summary: [{ type: 'summary_text', text: 'no proof' }] },
      ],
    };
    const before = JSON.stringify(body);
    expect(mayHoldEnvelopes(Buffer.from(before))).toBe(false);
    expect(restoreNativeReasoning(body)).toBe(false);
    expect(JSON.stringify(body)).toBe(before);
  });

  it('restores OpenAI proof, drops every foreign or damaged envelope, keeps the rest in order', () => {
    const openai = packOrigin({ kind: 'openai', id: 'rs_real', encryptedContent: 'gAAAA-E' });
    const anthropic = packOrigin({ kind: 'anthropic', signature: 'EqQBCkgIARAB' });
    const openrouter = packOrigin({ kind: 'openrouter', details: [{ type: 'reasoning.text', text: 't' }] });
    const body = {
      model: 'gpt-5.4',
      input: [
        { role: 'user', content: 'q' },
        { type: 'reasoning', id: 'rs_ours_0', summary: [{ type: 'summary_text', text: 'gpt' }], encrypted_content: openai },
        { type: 'reasoning', id: 'rs_ours_1', summary: [{ type: 'summary_text', text: 'claude thought' }], encrypted_content: anthropic },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
        { type: 'reasoning', id: 'rs_ours_2', summary: [], encrypted_content: openrouter },
        { type: 'reasoning', id: 'rs_ours_3', summary: [], encrypted_content: openai.slice(0, 14) },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'plain text: svcp1. is no envelope here' }] },
      ],
    };
    expect(mayHoldEnvelopes(Buffer.from(JSON.stringify(body)))).toBe(true);
    expect(restoreNativeReasoning(body)).toBe(true);
    expect(body.input).toEqual([
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_real', summary: [{ type: 'summary_text', text: 'gpt' }], encrypted_content: 'gAAAA-E' },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'plain text: svcp1. is no envelope here' }] },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/"svcp1\.|claude thought/);
  });

  it('ignores a body whose input is a string or absent', () => {
    expect(restoreNativeReasoning({ input: 'hello' })).toBe(false);
    expect(restoreNativeReasoning({})).toBe(false);
  });
});
