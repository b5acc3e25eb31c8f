/** A whole answer cut at the first stop sequence its target could not take (stop-cut-answer.ts). */
import { describe, expect, it } from 'vitest';
import type { HubResponse } from '../../src/protocols/hub.js';
import { cutAnswerAtStop } from '../../src/routing/stop-cut-answer.js';

function answer(): HubResponse {
  return {
    id: 'r',
    model: 'm',
    output: [
      { type: 'reasoning', text: 'Plan.', origin: { kind: 'openai', id: 'rs', encryptedContent: 'e' } },
      {
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: 'Sunny ## cloudy',
            citations: [
              { url: 'https://a.example', start: 0, end: 9 },
              { url: 'https://b.example', start: 9, end: 15 },
            ],
            logprobs: [
              { token: 'Sunny', logprob: -0.1, top: [] },
              { token: ' ##', logprob: -0.2, top: [] },
              { token: ' cloudy', logprob: -0.3, top: [] },
            ],
          },
          { type: 'text', text: 'More ## text.' },
        ],
      },
      { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' },
    ],
    stopReason: 'tool_use',
  };
}

describe('cutAnswerAtStop', () => {
  it('keeps what came before the stop, with its citations and tokens, and ends as a stop sequence', () => {
    const res = answer();
    expect(cutAnswerAtStop(res, ['##'])).toBe(true);
    expect(res.stopReason).toBe('stop_sequence');
    expect(res.stopSequence).toBe('##');
    expect(res.output).toEqual([
      answer().output[0],
      {
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: 'Sunny ',
            citations: [{ url: 'https://a.example', start: 0, end: 6 }],
            logprobs: [{ token: 'Sunny', logprob: -0.1, top: [] }, { token: ' ##', logprob: -0.2, top: [] }],
          },
        ],
      },
    ]);
  });

  it('an answer without the stop is left as it is', () => {
    const res = answer();
    expect(cutAnswerAtStop(res, ['STOP'])).toBe(false);
    expect(res).toEqual(answer());
  });
});
