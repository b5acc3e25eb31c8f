/** Non-streamed answers: rendering, answered-by headers, and upstream errors in the client's shape. */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEYS, post, startHarness, type Harness } from './harness.js';
import { MAX_PAUSE_CONTINUATIONS } from '../../src/routing/pause-continue.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('successful answers', () => {
  it('passthrough keeps the body, rewrites model, names the provider and the reported model', async () => {
    h.mocks.openrouter.next({ kind: 'turn', turn: { model: 'anthropic/claude-4.5-sonnet-20250929', text: 'ok' } });
    const r = await post(`${h.a}/chat/completions`, { ...chat('openrouter/anthropic/claude-sonnet-4.5'), temperature: 0.5, seed: 12345678901234 });
    expect(r.status).toBe(200);
    expect(r.headers['x-svc-upstream-provider']).toBe('openrouter');
    expect(r.headers['x-svc-upstream-model']).toBe('anthropic/claude-4.5-sonnet-20250929');
    expect(r.json.model).toBe('openrouter/anthropic/claude-4.5-sonnet-20250929');
    expect(r.json.provider).toBe('Anthropic'); // OpenRouter's own field survives passthrough
    const sent = h.mocks.openrouter.lastGeneration();
    expect(sent.body).toMatchObject({ model: 'anthropic/claude-sonnet-4.5', temperature: 0.5, seed: 12345678901234 });
    expect(sent.headers.authorization).toBe(`Bearer ${KEYS.openrouter}`);
    expect(sent.headers['x-svc-request-id']).toBeUndefined();
  });

  it('a large passthrough answer keeps its bytes: only model is replaced (spliced, not re-serialised)', async () => {
    // a 64-bit number JSON.parse would round, and spacing JSON.stringify would drop: both survive
    const content = 'z'.repeat(40 * 1024);
    const members = [
      '"id": "chatcmpl-big"',
      '"object": "chat.completion"',
      '"created": 1730000000',
      '"model": "anthropic/claude-4.5-sonnet-20250929"',
      '"x_trace": 18446744073709551615',
      `"choices": [{"index": 0, "message": {"role": "assistant", "content": "${content}"}, "finish_reason": "stop"}]`,
      '"usage": {"prompt_tokens": 9, "completion_tokens": 10000, "total_tokens": 10009}',
    ];
    h.mocks.openrouter.next({ kind: 'raw', body: `{${members.join(', ')}}`, contentType: 'application/json' });
    const r = await post(`${h.a}/chat/completions`, chat('openrouter/anthropic/claude-sonnet-4.5'));
    expect(r.status).toBe(200);
    // each member's bytes as the upstream wrote them (joined by plain commas), model replaced
    const spliced = members.map((m) => (m.startsWith('"model"') ? '"model":"openrouter/anthropic/claude-4.5-sonnet-20250929"' : m));
    expect(r.text).toBe(`{${spliced.join(',')}}`);
    expect(r.text).toContain('"x_trace": 18446744073709551615');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
    const [entry] = await h.waitForLogs(1);
    expect(entry?.usage).toMatchObject({ input: 9, output: 10000 });
  });

  it('a large converted answer reaches the client whole, its text written as the upstream spelled it', async () => {
    // \u00e9 and \/ are spellings JSON.stringify would not use: seeing them proves the bytes were kept
    const unit = 'caf\\u00e9 \\/ "q" \\"esc\\" — ok\\n';
    const token = `"${unit.replaceAll('"q"', 'q').repeat(8_000)}"`;
    const text = JSON.parse(token) as string;
    h.mocks.anthropic.next({
      kind: 'raw',
      contentType: 'application/json',
      body: `{"id":"msg_big","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":${token}}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":60000}}`,
    });
    const r = await post(`${h.a}/chat/completions`, chat('anthropic/claude-sonnet-4-5'));
    expect(r.status).toBe(200);
    expect(r.json.choices[0].message.content).toBe(text);
    expect(r.text).toContain(`"content":${token}`);
    expect(r.json.model).toBe('anthropic/claude-sonnet-4-5');
    expect(r.json.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 60000 });
  });

  it('converted: a chat client talks to anthropic; the client sees provider/model and usage', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const { data, response } = await client.chat.completions
      .create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hello there' }] })
      .withResponse();
    expect(data.model).toBe('anthropic/claude-sonnet-4-5');
    expect(data.choices[0]!.message.content).toBe('Echo: hello there');
    expect(response.headers.get('x-svc-upstream-provider')).toBe('anthropic');
    const sent = h.mocks.anthropic.lastGeneration();
    expect(sent.headers['x-api-key']).toBe(KEYS.anthropic);
    expect(sent.body.model).toBe('claude-sonnet-4-5');
    expect(h.logs[0]).toMatchObject({ status: 200, provider: 'anthropic', model: 'claude-sonnet-4-5', streamed: false, fallback: false });
    expect(h.logs[0]!.usage?.input).toBe(data.usage!.prompt_tokens);
  });

  it('a Messages client reaches openai (Responses upstream) and back', async () => {
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const msg = await client.messages.create({ model: 'openai/gpt-5.4', max_tokens: 50, messages: [{ role: 'user', content: 'ping' }] });
    expect(msg.model).toBe('openai/gpt-5.4');
    expect(msg.content.find((b) => b.type === 'text')).toMatchObject({ text: 'Echo: ping' });
    expect(h.mocks.openai.lastGeneration().path).toBe('/v1/responses');
  });

  it('a Responses client reaches gemini (chat upstream)', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const res = await client.responses.create({ model: 'gemini/gemini-2.5-flash', input: 'yo' });
    expect(res.model).toBe('gemini/gemini-2.5-flash');
    expect(res.output_text).toBe('Echo: yo');
  });
});

describe('a paused turn (pause_turn) answered as an event stream to a request for a whole answer', () => {
  type Block = { type: string; content?: Array<{ encrypted_content?: string }> };
  const lastAssistant = (body: unknown): Block[] => {
    const last = (body as { messages: Array<{ role: string; content: Block[] }> }).messages.at(-1)!;
    return last.role === 'assistant' ? last.content : [];
  };
  /** Every call streamed whatever `stream` says; part n searches and pauses until `pauses` have, then answers. */
  const scriptStreamedPauses = (pauses: number) => {
    const mock = h.mocks.anthropic;
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (r) => {
        const n = lastAssistant(r.body).filter((b) => b.type === 'server_tool_use').length + 1;
        const usage = { input: n * 100, output: n * 10 };
        const turn = n > pauses ? { text: `Done after ${n - 1} pauses.`, usage } : { webSearches: [{ query: `query ${n}`, pages: [{ url: `https://example.com/${n}`, title: `Part ${n}` }] }], finish: 'pause' as const, usage };
        return mock.plugin.renderTurn(turn, { ...r, body: { ...(r.body as object), stream: true } });
      },
    );
  };
  const ask = { model: 'anthropic/claude-sonnet-4-5', input: 'Search the web.', tools: [{ type: 'web_search' as const }] };

  it('is continued as a whole one is: the streamed blocks sent back verbatim, one answer, usage summed', async () => {
    scriptStreamedPauses(2);
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const res = await client.responses.create(ask);
    expect(res.status).toBe('completed');
    expect(res.output.map((i) => i.type)).toEqual(['web_search_call', 'web_search_call', 'message']);
    expect(res.output_text).toBe('Done after 2 pauses.');
    expect(res.usage).toMatchObject({ input_tokens: 600, output_tokens: 60 });
    const gens = h.mocks.anthropic.generations();
    expect(gens.map((g) => g.body.stream ?? false)).toEqual([false, false, false]);
    // the first part's blocks, rebuilt from its events, went back with the encrypted results the mock issued
    const part1 = lastAssistant(gens[1]!.body);
    expect(part1.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result']);
    expect(h.mocks.anthropic.searchResults.has(part1[1]!.content![0]!.encrypted_content!)).toBe(true);
    expect(lastAssistant(gens[2]!.body).map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'server_tool_use', 'web_search_tool_result']);
    const [entry] = await h.waitForLogs(1);
    expect(entry!.attempts.map((a) => [a.status, a.continued ?? false])).toEqual([[200, false], [200, true], [200, true]]);
  });

  it('stops after MAX_PAUSE_CONTINUATIONS: the answer goes out as it stands (incomplete)', async () => {
    scriptStreamedPauses(99);
    const r = await post(`${h.a}/responses`, ask);
    expect(r.status).toBe(200);
    expect(r.json.status).toBe('incomplete');
    expect(h.mocks.anthropic.generations()).toHaveLength(1 + MAX_PAUSE_CONTINUATIONS);
    expect((r.json.output as Array<{ type: string }>).filter((i) => i.type === 'web_search_call')).toHaveLength(1 + MAX_PAUSE_CONTINUATIONS);
  });
});

describe('upstream errors', () => {
  it('OpenAI error → client shape, status kept, slug prefix, retry-after passed on 429', async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for gpt-5.4', { retryAfter: 7, code: 'rate_limit_exceeded' }));
    const r = await post(`${h.a}/responses`, { model: 'openai/gpt-5.4', input: 'x' });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('7');
    expect(r.json.error).toMatchObject({ code: 'upstream_rate_limited', message: 'openai: Rate limit reached for gpt-5.4' });
    expect(r.headers['x-svc-upstream-provider']).toBe('openai');
  });

  it('retry advice goes on for every status a client may retry (529 and a 503 page included), with retry-after-ms and x-should-retry', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(529, 'Overloaded', { retryAfter: 5 }));
    const overloaded = await post(`${h.a}/chat/completions`, chat('anthropic/claude-sonnet-4-5'));
    expect([overloaded.status, overloaded.headers['retry-after']]).toEqual([529, '5']);
    h.mocks.ca.next({ kind: 'raw', status: 503, contentType: 'text/html', body: '<html><title>Maintenance</title></html>', headers: { 'retry-after': '30' } });
    const page = await post(`${h.a}/chat/completions`, chat('ca/qwen3-coder'));
    expect([page.status, page.headers['retry-after']]).toEqual([502, '30']);
    h.mocks.openai.next({ kind: 'json', status: 500, body: { error: { message: 'do not retry this', type: 'server_error' } }, headers: { 'x-should-retry': 'false', 'retry-after-ms': '1500' } });
    const marked = await post(`${h.b}/v1/messages`, { model: 'openai/gpt-5.4', max_tokens: 20, messages: [{ role: 'user', content: 'x' }] });
    expect(marked.status).toBe(500);
    expect([marked.headers['x-should-retry'], marked.headers['retry-after-ms']]).toEqual(['false', '1500']);
    // a 400 has nothing to retry: no advice on it
    h.mocks.anthropic.next({ kind: 'json', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }, headers: { 'retry-after': '9' } });
    expect((await post(`${h.a}/chat/completions`, chat('anthropic/claude-sonnet-4-5'))).headers['retry-after']).toBeUndefined();
  });

  it('Anthropic error to a protocol B client', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(529, 'Overloaded'));
    const r = await post(`${h.b}/v1/messages`, { model: 'anthropic/claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(529);
    expect(r.json).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'anthropic: Overloaded', code: 'upstream_overloaded' } });
  });

  it('OpenRouter numeric code and Google array-wrapped errors are read', async () => {
    h.mocks.openrouter.next(h.mocks.openrouter.error(402, 'Insufficient credits'));
    const or = await post(`${h.a}/chat/completions`, chat('openrouter/openai/gpt-5'));
    expect(or.status).toBe(402);
    expect(or.json.error.message).toBe('openrouter: Insufficient credits');
    h.mocks.gemini.next(h.mocks.gemini.error(400, 'API key not valid. Please pass a valid API key.', { wrapped: true }));
    const gm = await post(`${h.a}/chat/completions`, chat('gemini/gemini-2.5-flash'));
    expect(gm.status).toBe(400);
    expect(gm.json.error.message).toBe('gemini: API key not valid. Please pass a valid API key.');
  });

  it('an error echoing the credential or its tail is redacted', async () => {
    const tail = KEYS.openai.slice(-6);
    h.mocks.openai.next(h.mocks.openai.error(401, `Incorrect API key provided: sk-proj-****${tail}. Full: ${KEYS.openai}`, { code: 'invalid_api_key' }));
    const r = await post(`${h.a}/responses`, { model: 'openai/gpt-5.4', input: 'x' });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('upstream_auth_failed');
    expect(r.text).not.toContain(tail.slice(-4));
    expect(r.text).not.toContain(KEYS.openai);
    expect(r.json.error.message).toContain('[REDACTED]');
    expect(JSON.stringify(h.logs)).not.toContain(tail.slice(-4));
  });

  it('an HTML error page → 502 upstream_invalid_response naming the page', async () => {
    h.mocks.anthropic.next({ kind: 'raw', status: 503, contentType: 'text/html', body: '<html><head><title>503 Service Temporarily Unavailable</title></head></html>' });
    const r = await post(`${h.a}/chat/completions`, chat('anthropic/claude-sonnet-4-5'));
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('upstream_invalid_response');
    expect(r.json.error.message).toContain('503 Service Temporarily Unavailable');
  });

  it('a 200 whose body is an error is an error', async () => {
    h.mocks.openrouter.next({ kind: 'json', status: 200, body: { error: { code: 502, message: 'Provider returned error', metadata: { raw: 'upstream boom', provider_name: 'Foo' } } } });
    const r = await post(`${h.a}/chat/completions`, chat('openrouter/openai/gpt-5'));
    expect(r.status).toBe(502);
    expect(r.json.error.message).toBe('openrouter: Provider returned error (Foo): upstream boom');
  });

  it('a 200 whose body is an error is read once: the error is described from the parse that found it', async () => {
    const text = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    h.mocks.anthropic.next({ kind: 'raw', status: 200, contentType: 'application/json', body: text });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const r = await post(`${h.a}/chat/completions`, chat('anthropic/claude-sonnet-4-5'));
      expect(r.status).toBe(529);
      expect(r.json.error).toMatchObject({ code: 'upstream_overloaded', message: 'anthropic: Overloaded' });
      expect(parse.mock.calls.filter(([arg]) => arg === text)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('a 200 with invalid JSON → 502', async () => {
    h.mocks.ca.next({ kind: 'raw', status: 200, contentType: 'application/json', body: '{"choices": [' });
    const r = await post(`${h.a}/chat/completions`, chat('ca/qwen3-coder'));
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('upstream_invalid_response');
  });

  it('a model id a header cannot hold (non-Latin-1, control characters) is percent-encoded in x-svc-upstream-model, not a 500 after the answer', async () => {
    for (const [model, shown] of [
      ['ca/xİ', 'x%C4%B0'],
      ['ca/a\u0007b', 'a%07b'],
    ]) {
      const r = await post(`${h.a}/chat/completions`, chat(model!));
      expect(r.status, model).toBe(200);
      expect(r.headers['x-svc-upstream-model']).toBe(shown);
    }
  });

  it('a body nested thousands of levels deep is a 400 where it must be converted, not a 500', async () => {
    const depth = 20_000;
    const schema = '{"type":"object","properties":{"a":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
    const body = `{"model":"anthropic/claude-sonnet-4-5","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${schema}}}]}`;
    const r = await post(`${h.a}/chat/completions`, body);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('nested too deeply') });
  });

  it('connection refused → 502 upstream_unreachable, logged as an attempt with status 0', async () => {
    const saved = h.config.endpoints.ca!.url;
    h.config.endpoints.ca!.url = 'http://127.0.0.1:9/v1';
    try {
      const r = await post(`${h.a}/chat/completions`, chat('ca/qwen3-coder'));
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('upstream_unreachable');
      expect(h.logs[0]!.attempts).toEqual([expect.objectContaining({ target: 'ca/qwen3-coder', status: 0, errorCode: 'upstream_unreachable' })]);
    } finally {
      h.config.endpoints.ca!.url = saved;
    }
  });
});

describe('other endpoints', () => {
  it('GET/DELETE /responses/{id} of an id nobody keeps → 404 response_not_found, after OpenAI was asked', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    await expect(client.responses.retrieve('resp_123')).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    await expect(client.responses.delete('resp_123')).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    expect(h.mocks.openai.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/responses/resp_123', 'DELETE /v1/responses/resp_123']);
    expect(h.logs.map((e) => [e.endpoint, e.status, e.errorCode, e.attempts[0]?.target])).toEqual([
      ['stored_response.retrieve', 404, 'response_not_found', 'openai'],
      ['stored_response.delete', 404, 'response_not_found', 'openai'],
    ]);
  });

  it('a rate limit on a call relayed to OpenAI (stored response, conversation, previous_response_id read) keeps its retry advice', async () => {
    const limited = () => ({
      kind: 'json' as const,
      status: 429,
      headers: { 'retry-after': '7', 'retry-after-ms': '6500', 'x-should-retry': 'true' },
      body: { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
    });
    const advice = (r: { headers: Record<string, string | string[] | undefined> }) => [r.headers['retry-after'], r.headers['retry-after-ms'], r.headers['x-should-retry']];
    h.mocks.openai.on('/v1/responses/resp_busy', limited());
    const stored = await fetch(`${h.a}/responses/resp_busy`, { headers: { authorization: 'Bearer k' } });
    expect(stored.status).toBe(429);
    expect([stored.headers.get('retry-after'), stored.headers.get('retry-after-ms'), stored.headers.get('x-should-retry')]).toEqual(['7', '6500', 'true']);
    expect(((await stored.json()) as { error: { code: string } }).error.code).toBe('upstream_rate_limited');
    h.mocks.openai.on('/v1/conversations', limited());
    const conversation = await post(`${h.a}/conversations`, {});
    expect([conversation.status, conversation.json.error.code]).toEqual([429, 'upstream_rate_limited']);
    expect(advice(conversation)).toEqual(['7', '6500', 'true']);
    h.mocks.openai.on('/v1/responses/resp_busy/input_items', limited());
    const chained = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', previous_response_id: 'resp_busy' });
    expect([chained.status, chained.json.error.code]).toEqual([429, 'upstream_rate_limited']);
    expect(advice(chained)).toEqual(['7', '6500', 'true']);
    expect(h.mocks.anthropic.generations()).toHaveLength(0);
  });

  it('a path that leaves /conversations or /responses/{id} (.., %2e%2e, more segments) is a 404 here, never relayed with the daemon\'s key', async () => {
    const { request } = await import('node:http');
    const base = new URL(h.a);
    // node:http sends the path as written (fetch would resolve the dot segments first)
    const raw = (method: string, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: base.hostname, port: base.port, method, path: `${base.pathname}${path}`, headers: { authorization: 'Bearer k', 'content-type': 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end(method === 'POST' ? '{}' : undefined);
      });
    const before = h.mocks.openai.requests.length;
    for (const [method, path] of [
      ['GET', '/conversations/../files?purpose=fine-tune'],
      ['POST', '/conversations/../fine_tuning/jobs'],
      ['POST', '/conversations/%2e%2e/embeddings'],
      ['DELETE', '/conversations/../../v1/files/file-123'],
      ['GET', '/conversations/conv_1/items/msg_1/extra'],
      ['GET', '/responses/%2E%2E/input_items'],
      ['DELETE', '/responses/..'],
      ['POST', '/responses/%2e%2e/cancel'],
    ]) {
      const res = await raw(method!, path!);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(JSON.parse(res.body).error.code).toBe('not_found');
    }
    expect(h.mocks.openai.requests.length).toBe(before);
  });

  it('GET /models on provider bases: live catalog in each base shape', async () => {
    const a = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of a.models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4', 'gemini/gemini-2.5-flash', 'ca/qwen3-coder']));
    const b = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const page = await b.models.list();
    expect(page.data[0]).toMatchObject({ type: 'model' });
    expect(page.data.map((m) => m.id)).toContain('openrouter/meta-llama/llama-4-maverick');
  });

  it('count_tokens via anthropic and via a local estimate', async () => {
    const b = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const viaAnthropic = await b.messages.countTokens({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'count me please' }] });
    expect(viaAnthropic.input_tokens).toBeGreaterThan(0);
    expect(h.mocks.anthropic.requests.some((r) => r.path === '/v1/messages/count_tokens')).toBe(true);
    const local = await b.messages.countTokens({ model: 'ca/qwen3-coder', messages: [{ role: 'user', content: 'count me please' }] });
    expect(local.input_tokens).toBeGreaterThan(0);
    expect(h.mocks.ca.requests).toHaveLength(0);
  });

  it('count_tokens takes what a generation takes: thinking on and a tool turn that lost its thinking block (Claude Code after a model switch)', async () => {
    const b = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const body = {
      thinking: { type: 'enabled' as const, budget_tokens: 2000 },
      tools: [{ name: 'f', input_schema: { type: 'object' as const, properties: {} } }],
      messages: [
        { role: 'user' as const, content: 'use f' },
        { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'f', input: {} }] },
        { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'done' }] },
      ],
    };
    for (const model of ['anthropic/claude-sonnet-4-5', 'cb/glm-4.6']) {
      const counted = await b.messages.countTokens({ model, ...body });
      expect(counted.input_tokens, model).toBeGreaterThan(0);
    }
    const sent = h.mocks.anthropic.requests.filter((r) => r.path === '/v1/messages/count_tokens').at(-1)!;
    expect(JSON.parse(sent.raw.toString()).thinking).toBeUndefined();
  });

  it('count_tokens failure → error in B shape', async () => {
    h.mocks.anthropic.on('/v1/messages/count_tokens', h.mocks.anthropic.error(500, 'boom'));
    const r = await post(`${h.b}/v1/messages/count_tokens`, { model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(r.json.type).toBe('error');
  });

  it('a refused count is classified as a generation is: rate limit with its Retry-After, overloaded kept, a prompt too long', async () => {
    const body = { model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] };
    h.mocks.anthropic.on('/v1/messages/count_tokens', h.mocks.anthropic.error(429, 'slow down', { retryAfter: 7 }));
    const limited = await post(`${h.b}/v1/messages/count_tokens`, body);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.json).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(JSON.stringify(limited.json)).toContain('counting tokens failed: slow down');

    h.mocks.anthropic.on('/v1/messages/count_tokens', h.mocks.anthropic.error(529, 'Overloaded'));
    const overloaded = await post(`${h.b}/v1/messages/count_tokens`, body);
    expect(overloaded.status).toBe(529);
    expect(overloaded.json).toMatchObject({ error: { type: 'overloaded_error' } });

    h.mocks.anthropic.on('/v1/messages/count_tokens', h.mocks.anthropic.error(400, 'prompt is too long: 250000 tokens > 200000 maximum'));
    const tooLong = await post(`${h.b}/v1/messages/count_tokens`, body);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(tooLong.headers['retry-after']).toBeUndefined();
  });

  it('transcriptions: custom endpoint a gets the upload with the model rewritten', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const file = new File([Buffer.alloc(5000, 3)], 'a.wav', { type: 'audio/wav' });
    const t = await client.audio.transcriptions.create({ model: 'ca/whisper-large-v3', file });
    expect(t).toBeTruthy();
    const sent = h.mocks.ca.requests.find((r) => r.path === '/v1/audio/transcriptions')!;
    expect(sent.raw.toString('latin1')).toContain('\r\n\r\nwhisper-large-v3\r\n');
    expect(sent.raw.toString('latin1')).not.toContain('ca/whisper-large-v3');
    expect(Number(sent.headers['content-length'] ?? sent.raw.length)).toBe(sent.raw.length);
  });

  it('transcriptions to any other provider → 400 unsupported_modality', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const file = new File([Buffer.alloc(100, 3)], 'a.wav', { type: 'audio/wav' });
    await expect(client.audio.transcriptions.create({ model: 'openai/whisper-1', file })).rejects.toMatchObject({ status: 400, code: 'unsupported_modality' });
  });
});
