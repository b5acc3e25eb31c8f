/**
 * The official `openai` SDK accepts what the Chat encoders write. A local 127.0.0.1 server answers
 * POST /v1/chat/completions: for streams it decodes a recorded upstream stream fixture (named by
 * the request's model) into hub events and writes the encoder's bytes; the SDK's own stream
 * parser and its ChatCompletionStream accumulator must rebuild the text and tool calls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent, HubResponse } from '../../../src/protocols/hub.js';
import { chatCodec, wantsStreamUsage } from '../../../src/protocols/chat/index.js';
import { startAnswerServer, type AnswerServer } from '../shared/answer-server.js';
import { decodePieces, FIXTURES } from './helpers.js';

function upstreamEvents(fixture: string): HubEvent[] {
  return decodePieces([readFileSync(join(FIXTURES, 'streams', `${fixture}.sse`))]);
}

const WHOLE: HubResponse = {
  id: 'msg_whole',
  model: 'claude',
  output: [
    { type: 'reasoning', text: 'Thinking.', origin: { kind: 'anthropic', signature: 'sig' } },
    { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'world' }] },
    { type: 'function_call', callId: 'toolu_1', name: 'f', arguments: '{"x":1}' },
  ],
  stopReason: 'tool_use',
  usage: { inputTokens: 7, outputTokens: 9, cacheReadTokens: 2 },
};

let server: AnswerServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startAnswerServer(({ body }) => {
    const model = body.model as string;
    const ctx = { model: `test/${model}`, created: 1750000000, includeUsage: wantsStreamUsage(body) };
    if (!body.stream) return { json: chatCodec.encodeResponse(WHOLE, ctx) };
    // One write per event, as the relay flushes them.
    const enc = chatCodec.createStreamEncoder(ctx);
    return { sse: upstreamEvents(model).map((ev) => enc.encode(ev)) };
  });
  client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: 'x', maxRetries: 0, timeout: 10_000 });
});

afterAll(() => server.close());

const messages = [{ role: 'user' as const, content: 'hi' }];

describe('openai SDK reads the Chat encoder output', () => {
  it('raw stream: text, reasoning fields, tool call on index 0, usage chunk last', async () => {
    const stream = await client.chat.completions.create({
      model: 'openrouter-claude-reasoning-details',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let reasoning = '';
    const calls = new Map<number, { id?: string; name?: string; args: string }>();
    const finishes: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices) {
        text += choice.delta.content ?? '';
        reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? '';
        if (choice.finish_reason) finishes.push(choice.finish_reason);
        for (const tc of choice.delta.tool_calls ?? []) {
          const c = calls.get(tc.index) ?? { args: '' };
          if (tc.id) c.id = tc.id;
          if (tc.function?.name) c.name = tc.function.name;
          c.args += tc.function?.arguments ?? '';
          calls.set(tc.index, c);
        }
      }
    }
    expect(text).toBe('Ich sehe nach.');
    expect(reasoning).toBe('Das Wetter prüfen — 天气.');
    expect([...calls.entries()]).toEqual([[0, { id: 'toolu_01Abc', name: 'get_weather', args: '{"city": "Köln"}' }]]);
    expect(finishes).toEqual(['tool_calls']);
    expect(usage).toMatchObject({ prompt_tokens: 1520, completion_tokens: 88, prompt_tokens_details: { cached_tokens: 1024 } });
  });

  it('ChatCompletionStream accumulates interleaved parallel calls (SDK checks indexes and ids)', async () => {
    const runner = client.chat.completions.stream({ model: 'parallel-interleaved-robust', messages });
    const final = await runner.finalChatCompletion();
    const choice = final.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : []))).toEqual([
      ['call_a', 'lookup', '{"q":"a"}'],
      ['call_b', 'lookup', '{"q":"b"}'],
      ['call_chatcmplpar_2', 'no_id', '{"x":1}'],
      ['call_dup', 'second_on_zero', '{}'],
      ['call_chatcmplpar_4', 'reused_id', '{}'],
    ]);
  });

  it('ChatCompletionStream: Gemini calls keep the thought signature on the wire; no usage chunk unless asked', async () => {
    const stream = await client.chat.completions.create({ model: 'gemini-thought-signature', messages, stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true);
    const first = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []).find((tc) => tc.id === 'function-call-8127');
    expect((first as unknown as { extra_content: unknown }).extra_content).toEqual({ google: { thought_signature: 'CiQB0e2Kb3+/sigA==' } });
    const final = await client.chat.completions.stream({ model: 'gemini-thought-signature', messages }).finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe("I'll look that up.");
    expect(final.choices[0]!.message.tool_calls).toHaveLength(2);
  });

  it('a mid-stream upstream error surfaces as an APIError with the upstream message', async () => {
    const stream = await client.chat.completions.create({ model: 'openai-mid-stream-error', messages, stream: true });
    let text = '';
    const consume = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    };
    await expect(consume()).rejects.toThrow(/The server had an error while processing your request/);
    expect(text).toBe('Partial');
  });

  it('a stream cut short upstream surfaces as an error, not a silent end', async () => {
    const stream = await client.chat.completions.create({ model: 'truncated', messages, stream: true });
    const consume = async () => {
      for await (const chunk of stream) void chunk;
    };
    await expect(consume()).rejects.toThrow(/ended before the answer was complete/);
  });

  it('non-streamed completion: content, tool call, reasoning fields, usage', async () => {
    const res = await client.chat.completions.create({ model: 'whole', messages });
    expect(res.id).toBe('chatcmpl-whole');
    const msg = res.choices[0]!.message;
    expect(msg.content).toBe('Hello world');
    expect(msg.tool_calls).toEqual([{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }]);
    expect((msg as unknown as { reasoning_content: string }).reasoning_content).toBe('Thinking.');
    expect(res.choices[0]!.finish_reason).toBe('tool_calls');
    expect(res.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 });
  });
});
