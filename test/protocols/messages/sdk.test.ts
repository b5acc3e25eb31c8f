/**
 * The official @anthropic-ai/sdk reads what the encoders write: a local HTTP server on 127.0.0.1
 * answers the SDK with encoder output (streamed in small byte chunks) and the SDK's own
 * accumulator must produce the expected message.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent, HubResponse } from '../../../src/protocols/hub.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { unpackOrigin } from '../../../src/protocols/reasoning-envelope.js';
import { startAnswerServer, type Answer, type AnswerServer } from '../shared/answer-server.js';
import { decodeChunks } from '../shared/helpers.js';
import { fixtureBytes, fixtureJson } from './helpers.js';

let server: AnswerServer;
let client: Anthropic;
/** What the next request gets: SSE text sent in 7-byte chunks, or a JSON body. */
let answer: Answer;

beforeAll(async () => {
  server = await startAnswerServer(() => answer);
  client = new Anthropic({ apiKey: 'sk-test', baseURL: server.origin, maxRetries: 0, timeout: 10_000 });
});

afterAll(() => server.close());

const lastRequest = (): Record<string, unknown> | undefined => server.received.at(-1)?.body;

const params = { model: 'openrouter/qwen/qwen3-coder', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'weather?' }] };

function sse(events: HubEvent[], model = params.model): string {
  const enc = messagesCodec.createStreamEncoder({ model });
  return events.map((e) => enc.encode(e)).join('');
}

describe('@anthropic-ai/sdk accepts the Messages encoders', () => {
  it('messages.stream().finalMessage(): parallel tool calls serialised, inputs parsed, usage at the end', async () => {
    const { input } = fixtureJson<{ input: HubEvent[] }>('stream-encode/chat-upstream-parallel-tools.json');
    answer = { sse: sse(input), chunkBytes: 7 };
    const texts: string[] = [];
    const stream = client.messages.stream(params).on('text', (t) => texts.push(t));
    const msg = await stream.finalMessage();
    expect(lastRequest()?.stream).toBe(true);
    expect(msg.id).toBe('msg_xyz789');
    expect(msg.model).toBe(params.model);
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    const [thinking, text, t1, t2] = msg.content;
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'Let me think 🤔 more.' });
    expect(unpackOrigin((thinking as { signature: string }).signature)).toEqual({ kind: 'unsigned' });
    expect(text).toMatchObject({ type: 'text', text: 'Calling tools.' });
    expect(texts.join('')).toBe('Calling tools.');
    expect(t1).toMatchObject({ type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } });
    expect(t2).toMatchObject({ type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: '東京' } });
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.usage).toMatchObject({ input_tokens: 80, cache_read_input_tokens: 20, output_tokens: 50 });
  });

  it('messages.stream(): an Anthropic thinking signature survives decode → hub → encode intact', async () => {
    const upstream = fixtureBytes('streams/thinking-text-tool.sse');
    const hubEvents = decodeChunks(messagesCodec.createStreamDecoder(), [upstream]);
    answer = { sse: sse(hubEvents), chunkBytes: 7 };
    const msg = await client.messages.stream(params).finalMessage();
    expect(msg.content[0]).toEqual({ type: 'thinking', thinking: 'Need weather for 東京 🌧️ and Paris.', signature: 'EqQBCkgIARABGAIiQL+sig==' });
    expect(msg.content[1]).toMatchObject({ type: 'text', text: 'Let me check — 天気を確認します 🔎' });
    expect(msg.content[2]).toMatchObject({ type: 'tool_use', id: 'toolu_01', input: { city: '東京' } });
    // input_tokens in message_start already right (40 uncached), not 0.
    expect(msg.usage).toMatchObject({ input_tokens: 40, cache_read_input_tokens: 80, cache_creation_input_tokens: 10, output_tokens: 90 });
    expect(msg.usage.output_tokens_details).toEqual({ thinking_tokens: 50 });
  });

  it('messages.create(): full message with parsed tool input and thinking signatures', async () => {
    const { input, ctx } = fixtureJson<{ input: HubResponse; ctx: { model: string } }>('response-encode/mixed-origins-tool-use.json');
    answer = { json: messagesCodec.encodeResponse(input, ctx) };
    const msg = await client.messages.create({ ...params, stream: false });
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'thinking', 'thinking', 'redacted_thinking', 'thinking', 'text', 'text', 'tool_use', 'tool_use']);
    expect(msg.content[0]).toMatchObject({ type: 'thinking', signature: 'EqQB' });
    expect(unpackOrigin((msg.content[1] as { signature: string }).signature)).toEqual({ kind: 'openai', id: 'rs_9', encryptedContent: 'gAAAAenc' });
    expect(msg.content[7]).toMatchObject({ type: 'tool_use', id: 'call_1', input: { city: 'Paris' } });
    expect(msg.usage).toMatchObject({ input_tokens: 300, cache_read_input_tokens: 600, cache_creation_input_tokens: 100, output_tokens: 300 });
    expect(msg.stop_reason).toBe('tool_use');
  });

  it('messages.create({stream:true}) iterates the raw events in order', async () => {
    const { input } = fixtureJson<{ input: HubEvent[] }>('stream-encode/responses-upstream-usage-at-start.json');
    answer = { sse: sse(input), chunkBytes: 7 };
    const types: string[] = [];
    for await (const ev of await client.messages.create({ ...params, stream: true })) types.push(ev.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.filter((t) => t === 'content_block_start')).toHaveLength(3);
  });

  it('an upstream failure mid-stream makes the SDK throw with the mapped error type', async () => {
    const { input } = fixtureJson<{ input: HubEvent[] }>('stream-encode/error-after-start.json');
    answer = { sse: sse(input), chunkBytes: 7 };
    const err = await client.messages.stream(params).finalMessage().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(String((err as Error).message)).toMatch(/rate limited/);
    expect(String((err as Error).message)).toMatch(/rate_limit_error/);
  });
});
