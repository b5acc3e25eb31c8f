/**
 * A refusal from a Chat or Responses upstream reaches a Messages client with Anthropic's
 * `stop_details` (PROTOCOLS.md §4.2): `{type: "refusal", category, explanation}`, the category
 * unknown (null) and the explanation the refusal's text, in whole answers and in the
 * message_delta of streams.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';
import { unnamed } from '../fixtures/mock-upstream/sse.js';

const t = useHarness();
const REFUSAL = "I can't help with that.";

function client(): Anthropic {
  return new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
}

function responsesRefusal(): Record<string, unknown> {
  return {
    id: 'resp_r1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'gpt-5',
    output: [{ type: 'message', id: 'msg_r1', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: REFUSAL }] }],
    usage: { input_tokens: 5, output_tokens: 4, total_tokens: 9, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
}

function chatChunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return { id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'openai/gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] };
}

describe('stop_details of a converted refusal', () => {
  it('Responses upstream, whole answer: the refusal with its text as the explanation', async () => {
    t.h.mocks.openai.next({ kind: 'json', body: responsesRefusal() });
    const res = await client().messages.create({ model: 'openai/gpt-5', max_tokens: 100, messages: [{ role: 'user', content: 'Bad thing.' }] });
    expect(res.stop_reason).toBe('refusal');
    expect(res.stop_details).toEqual({ type: 'refusal', category: null, explanation: REFUSAL });
  });

  it('Chat upstream, stream: message_delta carries it', async () => {
    t.h.mocks.openrouter.next({
      kind: 'sse',
      events: [
        unnamed(chatChunk({ role: 'assistant', content: '' })),
        unnamed(chatChunk({ refusal: "I can't " })),
        unnamed(chatChunk({ refusal: 'help with that.' })),
        unnamed(chatChunk({}, 'content_filter')),
        unnamed({ ...chatChunk({}), choices: [], usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } }),
        unnamed('[DONE]'),
      ],
    });
    const stream = client().messages.stream({ model: 'openrouter/openai/gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'Bad thing.' }] });
    const deltas: Anthropic.RawMessageDeltaEvent[] = [];
    stream.on('streamEvent', (ev) => {
      if (ev.type === 'message_delta') deltas.push(ev);
    });
    const res = await stream.finalMessage();
    expect(deltas).toHaveLength(1);
    expect(deltas[0]!.delta.stop_details).toEqual({ type: 'refusal', category: null, explanation: REFUSAL });
    expect(res.stop_reason).toBe('refusal');
  });

  it('a refusal without text (Chat content_filter alone): no explanation', async () => {
    t.h.mocks.openrouter.next({
      kind: 'json',
      body: { id: 'gen-2', object: 'chat.completion', created: 1, model: 'openai/gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter' }], usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 } },
    });
    const res = await client().messages.create({ model: 'openrouter/openai/gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'Bad thing.' }] });
    expect(res.stop_reason).toBe('refusal');
    expect(res.stop_details).toEqual({ type: 'refusal', category: null, explanation: null });
  });

  it('an answer that is no refusal: stop_details null', async () => {
    const res = await client().messages.create({ model: 'openrouter/openai/gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'Hi.' }] });
    expect(res.stop_reason).toBe('end_turn');
    expect(res.stop_details).toBeNull();
  });
});
