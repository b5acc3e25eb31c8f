/**
 * Upstream failures reach the client as clean errors in the client's own protocol: provider
 * error shapes (OpenRouter numeric codes, Google's array-wrapped errors), HTML error pages,
 * invalid JSON, connections reset mid-body, in-stream error events, streams that stop before
 * their terminal event or stall. No credential ever shows in an error.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_CREDENTIALS } from '../fixtures/daemon.js';
import { collect, errorCode, rejection } from '../fixtures/e2e-helpers.js';
import { MODELS, startWorld, type World } from '../fixtures/world.js';

let world: World;
let chat: OpenAI;
let ant: Anthropic;

beforeAll(async () => {
  world = await startWorld({ settings: { headersTimeoutMs: 1_500, idleTimeoutMs: 1_500 } });
  chat = world.daemon.openai();
  ant = world.daemon.anthropic();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

const hi = [{ role: 'user' as const, content: 'hi' }];

/** Iterate a stream to its end; return the error it threw (undefined when it ended cleanly). */
async function drain(stream: AsyncIterable<unknown>): Promise<Error | undefined> {
  try {
    await collect(stream);
  } catch (e) {
    return e as Error;
  }
  return undefined;
}

describe('provider error shapes', () => {
  it('OpenRouter numeric error code → status kept, message kept, a string code for protocol A', async () => {
    world.mocks.openrouter.next(world.mocks.openrouter.error(402, 'Insufficient credits. Add more using https://openrouter.ai/credits'));
    const e = await rejection(chat.chat.completions.create({ model: MODELS.openrouter, messages: hi }));
    expect(e.status).toBe(402);
    expect(e.message).toContain('Insufficient credits');
    expect(typeof errorCode(e)).toBe('string');

    world.mocks.openrouter.next(world.mocks.openrouter.error(402, 'Insufficient credits'));
    const b = await rejection(ant.messages.create({ model: MODELS.openrouter, max_tokens: 10, messages: hi }));
    expect(b.status).toBe(402);
    expect((b.error as { error?: { type?: string } }).error?.type).toBe('billing_error');
  });

  it("llama.cpp's context overflow (a 500, and its 400 wording) → 400 context_length_exceeded; Anthropic's wording for Messages clients", async () => {
    const overflow = { kind: 'json' as const, status: 500, body: { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } } };
    world.mocks.local.next(overflow);
    const b = await rejection(ant.messages.create({ model: MODELS.local, max_tokens: 10, messages: hi }));
    expect(b.status, 'not a 5xx the client would send again').toBe(400);
    expect(b.error).toMatchObject({ error: { type: 'invalid_request_error', code: 'context_length_exceeded' } });
    expect(b.message, 'what Claude Code compacts on').toContain('prompt is too long: lm: Context size has been exceeded.');

    world.mocks.local.next({
      kind: 'json',
      status: 400,
      body: { error: { code: 400, message: 'request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it', type: 'exceed_context_size_error' } },
    });
    const e = await rejection(chat.chat.completions.create({ model: MODELS.local, messages: hi }));
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('context_length_exceeded');
    expect(e.message).not.toContain('prompt is too long');
  });

  it('Gemini error wrapped in a JSON array → parsed: status and Google\'s message reach the client', async () => {
    world.mocks.gemini.next(world.mocks.gemini.error(429, 'Resource has been exhausted (e.g. check quota).', { wrapped: true }));
    const e = await rejection(chat.chat.completions.create({ model: MODELS.gemini, messages: hi }));
    expect(e.status).toBe(429);
    expect(e.message).toContain('Resource has been exhausted');
    world.mocks.gemini.next(world.mocks.gemini.error(400, 'Request contains an invalid argument.', { wrapped: true }));
    const b = await rejection(ant.messages.create({ model: MODELS.gemini, max_tokens: 10, messages: hi }));
    expect(b.status).toBe(400);
    expect(b.message).toContain('Request contains an invalid argument.');
  });

  it('an HTML error page → a JSON error in the client\'s shape', async () => {
    world.mocks.openai.next({ kind: 'raw', status: 502, contentType: 'text/html', body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>' });
    const e = await rejection(chat.chat.completions.create({ model: MODELS.openai, messages: hi }));
    expect(e.status).toBe(502);
    expect(typeof errorCode(e)).toBe('string');
    // Anthropic's 413 comes from Cloudflare as an HTML page (PROTOCOLS §4.4): the status must survive
    // (§6.11 "preserve the upstream status"), or clients retry a request that can never fit.
    world.mocks.anthropic.next({ kind: 'raw', status: 413, contentType: 'text/html', body: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>cloudflare</center></body></html>' });
    const b = await rejection(ant.messages.create({ model: MODELS.anthropic, max_tokens: 10, messages: hi }));
    expect((b.error as { type?: string }).type).toBe('error');
    expect(b.status).toBe(413);
    expect((b.error as { error?: { type?: string } }).error?.type).toBe('request_too_large');
  });

  it('invalid JSON with status 200 → 502 with a code, not a crash', async () => {
    world.mocks.customA.next({ kind: 'raw', status: 200, body: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,' });
    const e = await rejection(ant.messages.create({ model: MODELS.customA, max_tokens: 10, messages: hi }));
    expect(e.status).toBe(502);
    expect(typeof errorCode(e)).toBe('string');
  });

  it('connection reset in the middle of a JSON body → 502', async () => {
    world.mocks.anthropic.next({ kind: 'truncated', chunk: '{"id":"msg_01","type":"message","content":[{"type":"te', ending: 'reset' });
    const e = await rejection(chat.chat.completions.create({ model: MODELS.anthropic, messages: hi }));
    expect(e.status).toBe(502);
  });

  it('an upstream error that echoes the credential never shows it to the client', async () => {
    const key = TEST_CREDENTIALS.OPENAI_API_KEY;
    world.mocks.openai.next(world.mocks.openai.error(401, `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, { code: 'invalid_api_key' }));
    const e = await rejection(chat.responses.create({ model: MODELS.openai, input: 'hi' }));
    expect(e.status).toBe(401);
    expect(JSON.stringify({ m: e.message, b: e.error })).not.toContain(key);
  });
});

describe('a rate limit told only by reset headers (no retry-after)', () => {
  const advice = (e: { headers?: unknown }) => {
    const h = e.headers as Headers;
    return [h.get('retry-after'), h.get('retry-after-ms')];
  };

  it('the real daemon gives the SDKs retry-after and retry-after-ms: a streamed Messages request, a converted Chat one', async () => {
    const inMs = 30_000;
    world.mocks.anthropic.next(
      world.mocks.anthropic.error(429, 'Number of request tokens has exceeded your per-minute rate limit', {
        headers: { 'anthropic-ratelimit-tokens-remaining': '0', 'anthropic-ratelimit-tokens-reset': new Date(Date.now() + inMs).toISOString(), 'anthropic-ratelimit-requests-remaining': '49', 'anthropic-ratelimit-requests-reset': new Date(Date.now() + 1_000).toISOString() },
      }),
    );
    const streamed = await rejection(ant.messages.create({ model: MODELS.anthropic, max_tokens: 10, messages: hi, stream: true }));
    expect(streamed.status).toBe(429);
    const [after, afterMs] = advice(streamed);
    expect(after).toBe('30');
    expect(Number(afterMs)).toBeGreaterThan(inMs - 1_000);
    expect(Number(afterMs)).toBeLessThanOrEqual(inMs);

    world.mocks.openai.next(world.mocks.openai.error(429, 'Rate limit reached for requests', { headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6.5s', 'x-ratelimit-remaining-tokens': '9000', 'x-ratelimit-reset-tokens': '1m0s' } }));
    const converted = await rejection(chat.chat.completions.create({ model: MODELS.openai, messages: hi }));
    expect([converted.status, ...advice(converted)]).toEqual([429, '7', '6500']);
  });
});

describe('answers compressed although not asked for', () => {
  it('gzip: a Chat passthrough answer and a converted Messages stream arrive decoded', async () => {
    world.mocks.customA.encoding = 'gzip';
    world.mocks.customA.next({ kind: 'turn', turn: { text: 'Plain words, not gzip.' } });
    const whole = await chat.chat.completions.create({ model: MODELS.customA, messages: hi });
    expect(whole.choices[0]!.message.content).toBe('Plain words, not gzip.');

    // paced: each event must reach the client when it comes, not when the compressed body ends
    world.mocks.customA.next({ kind: 'turn', turn: { text: 'Streamed through gzip.', stream: { chunk: 4, delayMs: 60 } } });
    const started = performance.now();
    let firstTextAt = 0;
    let text = '';
    for await (const ev of await ant.messages.create({ model: MODELS.customA, max_tokens: 100, messages: hi, stream: true })) {
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
        if (!firstTextAt) firstTextAt = performance.now() - started;
        text += ev.delta.text;
      }
    }
    const total = performance.now() - started;
    expect(text).toBe('Streamed through gzip.');
    expect(total - firstTextAt).toBeGreaterThan(200);
  });

  it('br and deflate: a Messages passthrough stream and a converted Chat answer arrive decoded', async () => {
    world.mocks.anthropic.encoding = 'br';
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'Brotli is fine.' } });
    let text = '';
    for await (const ev of await ant.messages.create({ model: MODELS.anthropic, max_tokens: 100, messages: hi, stream: true })) {
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text;
    }
    expect(text).toBe('Brotli is fine.');
    world.mocks.anthropic.encoding = 'deflate';
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'Deflate too.' } });
    const converted = await chat.chat.completions.create({ model: MODELS.anthropic, messages: hi });
    expect(converted.choices[0]!.message.content).toBe('Deflate too.');
  });

  it('data that is not what its Content-Encoding says, or a coding svc-proxy cannot read → 502 upstream_invalid_response', async () => {
    world.mocks.customA.next({ kind: 'raw', body: '{"not":"gzip"}', headers: { 'content-encoding': 'gzip' } });
    const corrupt = await rejection(chat.chat.completions.create({ model: MODELS.customA, messages: hi }));
    expect(corrupt.status).toBe(502);
    expect(errorCode(corrupt)).toBe('upstream_invalid_response');
    expect(corrupt.message).toMatch(/gzip-compressed answer could not be decoded/);

    world.mocks.customA.next({ kind: 'raw', body: 'whatever', headers: { 'content-encoding': 'compress' } });
    const unknown = await rejection(ant.messages.create({ model: MODELS.customA, max_tokens: 10, messages: hi }));
    expect(unknown.status).toBe(502);
    expect(errorCode(unknown)).toBe('upstream_invalid_response');
    expect((unknown.error as { error: { message: string } }).error.message).toMatch(/Content-Encoding "compress", which svc-proxy cannot decode/);
  });
});

describe('a streaming request answered whole (an upstream that ignores `stream`)', () => {
  const completion = {
    id: 'chatcmpl-whole',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: 'qwen3-coder',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Reading it now.',
          reasoning_content: 'The user wants the file.',
          tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 41, completion_tokens: 12, total_tokens: 53 },
  };
  const tools = [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

  it('a Chat client of a Chat upstream gets its stream: text, the call, the finish reason and usage', async () => {
    world.mocks.customA.next({ kind: 'json', body: completion });
    const chunks = await collect(await chat.chat.completions.create({ model: MODELS.customA, messages: hi, tools, stream: true, stream_options: { include_usage: true } }));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    const call = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(text).toBe('Reading it now.');
    expect(call[0]).toMatchObject({ id: 'call_w1', function: { name: 'read_file' } });
    expect(call.map((c) => c.function?.arguments ?? '').join('')).toBe('{"path":"a.ts"}');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 41, completion_tokens: 12 });
    expect(world.mocks.customA.generations()[0]!.body).toMatchObject({ stream: true });
  });

  it('a Messages client gets its event stream (finalMessage has the thinking, text and tool_use) and a Responses client its events', async () => {
    world.mocks.customA.next({ kind: 'json', body: completion });
    const stream = ant.messages.stream({
      model: MODELS.customA,
      max_tokens: 200,
      messages: hi,
      tools: [{ name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(final.content[2]).toMatchObject({ id: 'call_w1', name: 'read_file', input: { path: 'a.ts' } });
    expect(final.usage).toMatchObject({ input_tokens: 41, output_tokens: 12 });

    world.mocks.customA.next({ kind: 'json', body: { ...completion, choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }] } });
    const events = await collect(await chat.responses.create({ model: MODELS.customA, input: 'hi', stream: true }));
    const completed = events.find((e) => e.type === 'response.completed');
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => (e as { delta: string }).delta).join('')).toBe('Done.');
    expect(completed && 'response' in completed ? completed.response.output_text : undefined).toBe('Done.');
    // kept as a streamed answer is: the next turn can go on from it
    const id = completed && 'response' in completed ? completed.response.id : '';
    expect((await chat.responses.retrieve(id)).output_text).toBe('Done.');
  });
});

describe('a request for a whole answer answered with an event stream (an upstream that always streams)', () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
    data: { id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 1_764_000_000, model: 'qwen3-coder', choices: [{ index: 0, delta, finish_reason: finish }], ...extra },
  });
  const streamed = [
    chunk({ role: 'assistant', reasoning_content: 'The user wants ' }),
    chunk({ reasoning_content: 'the file.' }),
    chunk({ content: 'Reading ' }),
    chunk({ content: 'it now.' }),
    chunk({ tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'read_file', arguments: '{"path":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.ts"}' } }] }),
    chunk({}, 'tool_calls'),
    { data: { id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 1_764_000_000, model: 'qwen3-coder', choices: [], usage: { prompt_tokens: 41, completion_tokens: 12, total_tokens: 53 } } },
    { data: '[DONE]' },
  ];
  const tools = [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

  it('a Chat client of a Chat upstream gets one completion: text, reasoning, the call, the finish reason and usage', async () => {
    world.mocks.customA.next({ kind: 'sse', events: streamed });
    const res = await chat.chat.completions.create({ model: MODELS.customA, messages: hi, tools });
    const choice = res.choices[0]!;
    expect(choice.message.content).toBe('Reading it now.');
    expect(choice.message.tool_calls?.[0]).toMatchObject({ id: 'call_s1', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } });
    expect(choice.finish_reason).toBe('tool_calls');
    expect(res.usage).toMatchObject({ prompt_tokens: 41, completion_tokens: 12 });
    expect(res.model).toBe(MODELS.customA.replace(/\/.*/, '/qwen3-coder'));
    expect(world.mocks.customA.generations()[0]!.body).not.toMatchObject({ stream: true });
  });

  it('a Messages client gets one message (thinking, text, tool_use) and a Responses client one response it can retrieve', async () => {
    world.mocks.customA.next({ kind: 'sse', events: streamed });
    const msg = await ant.messages.create({
      model: MODELS.customA,
      max_tokens: 200,
      messages: hi,
      tools: [{ name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
    });
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(msg.content[0]).toMatchObject({ thinking: 'The user wants the file.' });
    expect(msg.content[2]).toMatchObject({ id: 'call_s1', name: 'read_file', input: { path: 'a.ts' } });
    expect(msg.usage).toMatchObject({ input_tokens: 41, output_tokens: 12 });

    world.mocks.customA.next({ kind: 'sse', events: [chunk({ role: 'assistant', content: 'Do' }), chunk({ content: 'ne.' }), chunk({}, 'stop'), { data: '[DONE]' }] });
    const r = await chat.responses.create({ model: MODELS.customA, input: 'hi' });
    expect(r.output_text).toBe('Done.');
    expect(r.status).toBe('completed');
    expect((await chat.responses.retrieve(r.id)).output_text).toBe('Done.');
  });

  it('a stream that ends in an error event is that error, classified; one cut short is a 502 that says so', async () => {
    world.mocks.customA.next({
      kind: 'sse',
      events: [chunk({ role: 'assistant', content: 'Hel' }), { data: { error: { message: 'This model\'s maximum context length is 8192 tokens', type: 'invalid_request_error', code: 'context_length_exceeded' } } }],
    });
    const e = await rejection(chat.chat.completions.create({ model: MODELS.customA, messages: hi }));
    expect(e.message).toMatch(/maximum context length/);
    expect(errorCode(e)).toBe('context_length_exceeded');

    world.mocks.customA.next({ kind: 'sse', events: [chunk({ role: 'assistant', content: 'Hel' })] });
    const cut = await rejection(ant.messages.create({ model: MODELS.customA, max_tokens: 10, messages: hi }));
    expect(cut.status).toBe(502);
    expect((cut.error as { error?: { message?: string } }).error?.message).toMatch(/ended|cut|before/i);
  });
});

describe('failures after the stream started', () => {
  it('Anthropic `event: error` mid-stream → Chat client stream throws with the upstream message', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'partial text here', stream: { chunk: 3, errorAfter: 4 } } });
    const err = await drain(await chat.chat.completions.create({ model: MODELS.anthropic, messages: hi, stream: true }));
    expect(err).toBeDefined();
    expect(err!.message).toContain('Overloaded');
  });

  it('OpenRouter error chunk (finish_reason "error") → Messages client stream throws', async () => {
    world.mocks.openrouter.next({ kind: 'turn', turn: { text: 'partial text here', stream: { chunk: 3, errorAfter: 4 } } });
    const err = await drain(await ant.messages.create({ model: MODELS.openrouter, max_tokens: 100, messages: hi, stream: true }));
    expect(err).toBeDefined();
    expect(err!.message).toMatch(/Provider returned error|upstream/i);
  });

  it('Responses error event mid-stream → Messages client stream throws', async () => {
    world.mocks.openai.next({ kind: 'turn', turn: { text: 'partial text here', stream: { chunk: 3, errorAfter: 6 } } });
    const err = await drain(await ant.messages.create({ model: MODELS.openai, max_tokens: 100, messages: hi, stream: true }));
    expect(err).toBeDefined();
  });

  it.each([
    ['openai', 'responses upstream ends without response.completed'],
    ['anthropic', 'messages upstream ends without message_stop'],
    ['customA', 'chat upstream ends without [DONE]'],
  ] as const)('%s: %s → the client stream errors (never a silent clean end)', async (kind, _why) => {
    world.mock(kind).next({ kind: 'turn', turn: { text: 'cut short answer', stream: { chunk: 3, endAfter: 5 } } });
    const chatErr = await drain(await chat.chat.completions.create({ model: MODELS[kind], messages: hi, stream: true }));
    expect(chatErr, 'chat client').toBeDefined();
    world.mock(kind).next({ kind: 'turn', turn: { text: 'cut short answer', stream: { chunk: 3, endAfter: 5 } } });
    const msgErr = await drain(await ant.messages.create({ model: MODELS[kind], max_tokens: 100, messages: hi, stream: true }));
    expect(msgErr, 'messages client').toBeDefined();
  });

  it('OpenAI’s overload cut across socket reads → Responses client (passthrough): its error event and failed response both carry upstream_overloaded', async () => {
    const named = (e: Record<string, unknown>) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;
    const response = (status: string, error: unknown) => ({ id: 'resp_1', object: 'response', created_at: 1, status, model: 'gpt-5.4', output: [], error, usage: null });
    const overloaded = { code: 'server_is_overloaded', message: 'Our servers are currently overloaded. Please try again later.' };
    const body =
      named({ type: 'response.created', sequence_number: 0, response: response('in_progress', null) }) +
      named({ type: 'error', sequence_number: 1, error: { type: 'service_unavailable_error', ...overloaded, param: null } }) +
      named({ type: 'response.failed', sequence_number: 2, response: response('failed', overloaded) });
    // cut inside the error event's type line, then inside the failed response's: three reads
    const cuts = [body.indexOf('event: error') + 9, body.indexOf('event: response.failed') + 12];
    world.mocks.openai.next({ kind: 'sse', events: [{ raw: body.slice(0, cuts[0]) }, { raw: body.slice(cuts[0], cuts[1]), delayMs: 40 }, { raw: body.slice(cuts[1]), delayMs: 40 }] });
    const err = await drain(await chat.responses.create({ model: MODELS.openai, input: 'hi', stream: true }));
    // openai-node throws on the nested error event: APIError with its code
    expect({ code: (err as { code?: unknown } | undefined)?.code, message: err?.message }).toEqual({ code: 'upstream_overloaded', message: overloaded.message });
    world.mocks.openai.next({ kind: 'sse', events: [{ raw: body.slice(0, cuts[0]) }, { raw: body.slice(cuts[0], cuts[1]), delayMs: 40 }, { raw: body.slice(cuts[1]), delayMs: 40 }] });
    const raw = await (await fetch(`${world.daemon.baseA()}/responses`, { method: 'POST', headers: { authorization: `Bearer ${world.daemon.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODELS.openai, input: 'hi', stream: true }) })).text();
    expect(raw.match(/"code":"[a-z_]+"/g)).toEqual(['"code":"upstream_overloaded"', '"code":"upstream_overloaded"']);
  });

  it('a stalled stream ends with an error after the idle timeout', async () => {
    world.mocks.gemini.next({ kind: 'turn', turn: { text: 'stalls after a bit', stream: { chunk: 3, stallAfter: 3 } } });
    const err = await drain(await ant.messages.create({ model: MODELS.gemini, max_tokens: 100, messages: hi, stream: true }));
    // the daemon's idle timeout ended it, not the SDK's own (which would say nothing of silence)
    expect(err?.message).toContain('"code":"upstream_timeout"');
    expect(err?.message).toContain('went silent mid-stream (settings.idleTimeoutMs)');
  });
});

describe('model ids', () => {
  it('no slash → 400 invalid_model; unknown provider → 400 invalid_model naming the known ones', async () => {
    const a = await rejection(chat.chat.completions.create({ model: 'gpt-5', messages: hi }));
    expect(a.status).toBe(400);
    expect(errorCode(a)).toBe('invalid_model');
    const b = await rejection(ant.messages.create({ model: 'nosuch/model', max_tokens: 10, messages: hi }));
    expect(b.status).toBe(400);
    expect(errorCode(b)).toBe('invalid_model');
    expect(b.message).toContain('anthropic');
  });
});
