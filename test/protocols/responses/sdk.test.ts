/**
 * Proves the official `openai` SDK accepts what the encoders write: a local 127.0.0.1 server
 * answers POST /v1/responses with encoder output for a scenario named by the request's model.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent, HubResponse } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { startAnswerServer, type AnswerServer } from '../shared/answer-server.js';
import { jsonFixture } from './fixtures.js';

const toolTurn = jsonFixture<{ events: HubEvent[] }>('stream-encode', 'anthropic-tool-turn.json').events;

const SCENARIOS: Record<string, HubEvent[]> = {
  'tool-turn': toolTurn,
  parallel: [
    { type: 'start', id: 'chatcmpl-par' },
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'call_a', name: 'a' } },
    { type: 'block_start', index: 2, block: { type: 'function_call', callId: 'call_b', name: 'b' } },
    { type: 'text_delta', index: 0, text: 'Both… ' },
    { type: 'arguments_delta', index: 2, json: '{"b":' },
    { type: 'arguments_delta', index: 1, json: '{"a":1}' },
    { type: 'arguments_delta', index: 2, json: '2}' },
    { type: 'text_delta', index: 0, text: 'calling 🛠' },
    { type: 'block_stop', index: 2 },
    { type: 'block_stop', index: 1 },
    { type: 'block_stop', index: 0 },
    { type: 'finish', stopReason: 'tool_use', usage: { inputTokens: 10, outputTokens: 20, reasoningTokens: 5 } },
  ],
  incomplete: [
    { type: 'start' },
    { type: 'block_start', index: 0, block: { type: 'reasoning' } },
    { type: 'reasoning_delta', index: 0, text: 'hmm' },
    { type: 'block_start', index: 1, block: { type: 'text' } },
    { type: 'text_delta', index: 1, text: 'Once' },
    { type: 'finish', stopReason: 'max_tokens', usage: { inputTokens: 1, outputTokens: 2 } },
  ],
  refusal: [
    { type: 'start' },
    { type: 'block_start', index: 0, block: { type: 'refusal' } },
    { type: 'refusal_delta', index: 0, text: "I can't." },
    { type: 'block_stop', index: 0 },
    { type: 'finish', stopReason: 'refusal' },
  ],
  failure: [
    { type: 'start' },
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'text_delta', index: 0, text: 'Hal' },
    { type: 'error', error: { status: 529, code: 'upstream_error', message: 'anthropic: Overloaded' } },
  ],
};

const WHOLE: HubResponse = {
  id: 'msg_whole',
  model: 'claude',
  output: [
    { type: 'reasoning', text: 'Thinking.', origin: { kind: 'anthropic', signature: 'sig' } },
    { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'world' }] },
    { type: 'function_call', callId: 'toolu_1', name: 'f', arguments: '{}' },
  ],
  stopReason: 'tool_use',
  usage: { inputTokens: 7, outputTokens: 9, cacheReadTokens: 2 },
};

let server: AnswerServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startAnswerServer(({ body }) => {
    const model = body.model as string;
    const ctx = { model: `test/${model}`, created: 1750000000 };
    if (!body.stream) return { json: responsesCodec.encodeResponse(WHOLE, ctx) };
    // One write per event, as the proxy flushes them.
    const enc = responsesCodec.createStreamEncoder(ctx);
    return { sse: (SCENARIOS[model] ?? []).map((ev) => enc.encode(ev)) };
  });
  client = new OpenAI({ apiKey: 'sk-svc-proxy-test', baseURL: `${server.origin}/v1`, maxRetries: 0, timeout: 10_000 });
});

afterAll(() => server.close());

describe('the openai SDK accepts the Responses encoders', () => {
  it('responses.create({stream:true}) iterates the whole event sequence', async () => {
    const stream = await client.responses.create({ model: 'tool-turn', input: 'hi', stream: true });
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(server.received.at(-1)).toMatchObject({ url: '/v1/responses', body: { model: 'tool-turn', stream: true } });
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(completed?.output.map((o) => o.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(completed?.usage?.input_tokens_details.cached_tokens).toBe(1000);
  });

  it('responses.stream().finalResponse() accumulates reasoning, text and a call', async () => {
    const final = await client.responses.stream({ model: 'tool-turn', input: 'hi' }).finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('Checking ☀');
    const [reasoning, message, call] = final.output;
    expect(reasoning).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Let me check.' }] });
    expect(message).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'Checking ☀' }] });
    expect(call).toMatchObject({ type: 'function_call', call_id: 'toolu_01A', name: 'get_weather', arguments: '{"city":"Paris"}' });
  });

  it('interleaved text and parallel calls accumulate on the right items (deltas carry snapshots)', async () => {
    const snapshots: string[] = [];
    const stream = client.responses.stream({ model: 'parallel', input: 'hi' });
    stream.on('response.function_call_arguments.delta', (e) => snapshots.push(`${e.output_index}:${e.snapshot}`));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Both… calling 🛠');
    expect(final.output.map((o) => (o.type === 'function_call' ? `${o.call_id}=${o.arguments}` : o.type))).toEqual([
      'message',
      'call_a={"a":1}',
      'call_b={"b":2}',
    ]);
    expect(snapshots).toEqual(['2:{"b":', '1:{"a":1}', '2:{"b":2}']);
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(5);
  });

  it('an incomplete answer finishes with status incomplete', async () => {
    const final = await client.responses.stream({ model: 'incomplete', input: 'hi' }).finalResponse();
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(final.output_text).toBe('Once');
  });

  it('a refusal arrives as a refusal part', async () => {
    const final = await client.responses.stream({ model: 'refusal', input: 'hi' }).finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output[0]).toMatchObject({ type: 'message', content: [{ type: 'refusal', refusal: "I can't." }] });
  });

  it('an upstream failure reaches the client: an error event while iterating, a rejection from finalResponse', async () => {
    const stream = await client.responses.create({ model: 'failure', input: 'hi', stream: true });
    const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) seen.push(event);
    expect(seen.map((e) => e.type).slice(-2)).toEqual(['error', 'response.failed']);
    expect(seen.at(-2)).toMatchObject({ code: 'upstream_error', message: 'anthropic: Overloaded' });
    await expect(client.responses.stream({ model: 'failure', input: 'hi' }).finalResponse()).rejects.toBeTruthy();
  });

  it('non-stream responses.create returns the response object', async () => {
    const res = await client.responses.create({ model: 'whole', input: 'hi' });
    expect(res.object).toBe('response');
    expect(res.id).toBe('resp_whole');
    expect(res.model).toBe('test/whole');
    expect(res.output_text).toBe('Hello world');
    expect(res.output.map((o) => o.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(res.usage).toMatchObject({ input_tokens: 7, output_tokens: 9, total_tokens: 16, input_tokens_details: { cached_tokens: 2 } });
  });
});
