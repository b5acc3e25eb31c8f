/**
 * A Chat client of the deprecated `functions` (older LangChain, scripts written before `tools`):
 * OpenAI answers it with one `message.function_call` and `finish_reason: "function_call"`, streamed
 * as `delta.function_call` pieces. A converted answer must come in that shape, not as `tool_calls`
 * the client never asked for and does not read.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../fixtures/mock-upstream/index.js';
import { useHarness } from './harness.js';

const t = useHarness();
const client = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });

const functions: OpenAI.Chat.ChatCompletionCreateParams.Function[] = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'get_time', parameters: { type: 'object', properties: {} } },
];
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
// two calls although the request asked for one: an upstream that ignored the request's setting
const twoCalls: Reply = { kind: 'turn', turn: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_time', arguments: {} }] } };

describe('a `functions` client on a converted model gets its call as function_call', () => {
  for (const [model, mock] of [['anthropic/claude-sonnet-4-5', 'anthropic'], ['openai/gpt-5', 'openai']] as const) {
    it(`${model}: whole and streamed, one call, finish_reason function_call; the upstream was asked for one call`, async () => {
      t.h.mocks[mock].next(twoCalls);
      const whole = await client().chat.completions.create({ model, messages, functions, function_call: 'auto' });
      const choice = whole.choices[0]!;
      expect(choice.finish_reason).toBe('function_call');
      expect(choice.message.function_call).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
      expect(choice.message.tool_calls).toBeUndefined();
      const body = t.h.mocks[mock].lastGeneration().body;
      if (mock === 'anthropic') expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
      else expect(body.parallel_tool_calls).toBe(false);

      t.h.mocks[mock].next(twoCalls);
      const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
      const stream = client().chat.completions.stream({ model, messages, functions });
      stream.on('chunk', (c) => chunks.push(c));
      const final = await stream.finalChatCompletion();
      expect(final.choices[0]!.finish_reason).toBe('function_call');
      expect(final.choices[0]!.message.function_call).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
      expect(final.choices[0]!.message.tool_calls ?? []).toEqual([]);
      expect(chunks.some((c) => c.choices[0]?.delta.tool_calls !== undefined)).toBe(false);
    });
  }

  it('a call without arguments comes as "{}", whole and streamed', async () => {
    const call: Reply = { kind: 'turn', turn: { toolCalls: [{ name: 'get_time', arguments: {} }] } };
    t.h.mocks.anthropic.next(call);
    const whole = await client().chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages, functions });
    expect(whole.choices[0]!.message.function_call).toEqual({ name: 'get_time', arguments: '{}' });
    t.h.mocks.anthropic.next(call);
    const final = await client().chat.completions.stream({ model: 'anthropic/claude-sonnet-4-5', messages, functions }).finalChatCompletion();
    expect(final.choices[0]!.message.function_call).toEqual({ name: 'get_time', arguments: '{}' });
  });

  it('a client of tools still gets tool_calls (both calls) and finish_reason tool_calls', async () => {
    t.h.mocks.anthropic.next(twoCalls);
    const tools = functions.map((f) => ({ type: 'function' as const, function: f }));
    const final = await client().chat.completions.stream({ model: 'anthropic/claude-sonnet-4-5', messages, tools }).finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(final.choices[0]!.message.tool_calls?.map((c) => (c.type === 'function' ? c.function.name : ''))).toEqual(['get_weather', 'get_time']);
    expect(final.choices[0]!.message.function_call).toBeUndefined();
  });
});
