import { describe, expect, it } from 'vitest';
import { responseEvents } from '../../src/protocols/response-events.js';
import { ANSWER_OF_EVERY_KIND } from '../fixtures/hub-answers.js';

describe('responseEvents', () => {
  it('gives each output item the events a stream decoder gives it, in order, with usage at start (input) and finish (all)', () => {
    const res = ANSWER_OF_EVERY_KIND;
    expect(responseEvents(res)).toEqual([
      { type: 'start', id: 'msg_1', model: 'm', usage: { inputTokens: 10, cacheReadTokens: 4 }, serviceTier: 'flex' },
      { type: 'block_start', index: 0, block: { type: 'reasoning', origin: { kind: 'anthropic_redacted', data: 'opaque' } } },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'reasoning' } },
      { type: 'reasoning_delta', index: 1, text: 'Think.' },
      { type: 'reasoning_origin', index: 1, origin: { kind: 'anthropic', signature: 'sig' } },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'web_search', search: res.output[2] } },
      { type: 'block_stop', index: 2 },
      { type: 'block_start', index: 3, block: { type: 'text' } },
      { type: 'citation', index: 3, citation: { url: 'https://a.example', title: 'A', startIndex: 0, endIndex: 6 } },
      { type: 'text_delta', index: 3, text: 'Cited.', logprobs: [{ token: 'Cited', logprob: -0.1, topLogprobs: [] }] },
      { type: 'block_stop', index: 3 },
      { type: 'block_start', index: 4, block: { type: 'refusal' } },
      { type: 'refusal_delta', index: 4, text: 'No.' },
      { type: 'block_stop', index: 4 },
      { type: 'block_start', index: 5, block: { type: 'text' } },
      { type: 'block_stop', index: 5 },
      { type: 'block_start', index: 6, block: { type: 'function_call', callId: 'call_1', name: 'ls', namespace: 'fs', thoughtSignature: 'ts' } },
      { type: 'arguments_delta', index: 6, json: '{"d":"."}' },
      { type: 'block_stop', index: 6 },
      { type: 'block_start', index: 7, block: { type: 'function_call', callId: 'call_2', name: 'patch', freeform: true } },
      { type: 'arguments_delta', index: 7, json: '*** Begin' },
      { type: 'block_stop', index: 7 },
      { type: 'block_start', index: 8, block: { type: 'function_call', callId: 'call_3', name: 'now' } },
      { type: 'block_stop', index: 8 },
      { type: 'finish', stopReason: 'tool_use', stopSequence: 'END', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, reasoningTokens: 2 }, serviceTier: 'flex' },
    ]);
  });

  it('an answer without usage or output is a start and a finish', () => {
    expect(responseEvents({ id: 'r', model: 'm', output: [], stopReason: 'end_turn' })).toEqual([
      { type: 'start', id: 'r', model: 'm' },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
  });
});
