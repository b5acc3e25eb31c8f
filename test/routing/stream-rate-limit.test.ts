/**
 * A rate limit (or an overload) that arrives inside a stream, after the 200 and its headers went
 * out, so no Retry-After can: the client's final error event is its dialect's rate-limit one —
 * Messages `rate_limit_error` / `overloaded_error` (the Anthropic SDK's `type`, which Claude Code
 * reads), Chat `rate_limit_exceeded`, Responses `response.failed` with OpenAI's own
 * `rate_limit_exceeded` code (Codex reads the wait from its message then) — and the wait the
 * upstream's error named (OpenRouter repeats its limits' reset in `error.metadata.headers`)
 * rides in the message, as OpenAI words it: "Please try again in 20s." Real SDK streaming clients.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { StreamSpec } from '../fixtures/mock-upstream/turn.js';
import { useHarness } from './harness.js';

const t = useHarness();
const anthropic = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
const openai = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });

const RATE_LIMIT: StreamSpec = { chunk: 3, errorAfter: 5, errorKind: 'rate_limit' };
/** How Codex reads the wait from a failed response's message (codex-rs `rate_limit_regex`). */
const CODEX_WAIT = /Please try again in (\d+(?:\.\d+)?)(s|ms)/;

async function messagesStreamError(model: string): Promise<{ text: string; err: InstanceType<typeof Anthropic.APIError> }> {
  const stream = await anthropic().messages.create({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] });
  let text = '';
  try {
    for await (const ev of stream) if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text;
  } catch (err) {
    expect(err).toBeInstanceOf(Anthropic.APIError);
    return { text, err: err as InstanceType<typeof Anthropic.APIError> };
  }
  throw new Error('the stream ended without an error');
}

async function chatStreamError(model: string): Promise<{ text: string; err: InstanceType<typeof OpenAI.APIError> }> {
  const stream = await openai().chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] });
  let text = '';
  try {
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  } catch (err) {
    expect(err).toBeInstanceOf(OpenAI.APIError);
    return { text, err: err as InstanceType<typeof OpenAI.APIError> };
  }
  throw new Error('the stream ended without an error');
}

async function responsesStreamEvents(model: string): Promise<OpenAI.Responses.ResponseStreamEvent[]> {
  const stream = await openai().responses.create({ model, stream: true, input: 'hi' });
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  for await (const ev of stream) events.push(ev);
  return events;
}

function failedOf(events: OpenAI.Responses.ResponseStreamEvent[]): { error: OpenAI.Responses.ResponseErrorEvent; failed: OpenAI.Responses.ResponseError } {
  const error = events.find((e): e is OpenAI.Responses.ResponseErrorEvent => e.type === 'error');
  const last = events.at(-1);
  expect(error).toBeDefined();
  expect(last?.type).toBe('response.failed');
  const failed = (last as OpenAI.Responses.ResponseFailedEvent).response.error;
  expect(failed).not.toBeNull();
  return { error: error!, failed: failed! };
}

describe('a rate limit inside an OpenRouter stream, its reset in error.metadata.headers', () => {
  it('Messages client: rate_limit_error, the wait in the message', async () => {
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { text, err } = await messagesStreamError('openrouter/anthropic/claude-sonnet-4.5');
    expect(text.length).toBeGreaterThan(0);
    expect(err.type).toBe('rate_limit_error');
    const body = err.error as { error: { code: string; message: string } };
    expect(body.error.code).toBe('upstream_rate_limited');
    expect(body.error.message).toMatch(/^openrouter: Rate limit exceeded: free-models-per-min\. Please try again in (19|20)s\.$/);
    const [log] = await t.h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'upstream_rate_limited' });
  });

  it('Chat client (passthrough): rate_limit_exceeded, the wait in the message', async () => {
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { text, err } = await chatStreamError('openrouter/anthropic/claude-sonnet-4.5');
    expect(text.length).toBeGreaterThan(0);
    expect({ type: err.type, code: err.code }).toEqual({ type: 'rate_limit_exceeded', code: 'upstream_rate_limited' });
    expect(err.message).toMatch(/^openrouter: Rate limit exceeded: free-models-per-min\. Please try again in (19|20)s\.$/);
  });

  it('Responses client: response.failed with OpenAI’s rate_limit_exceeded and a wait Codex reads', async () => {
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { error, failed } = failedOf(await responsesStreamEvents('openrouter/anthropic/claude-sonnet-4.5'));
    expect(error.code).toBe('upstream_rate_limited');
    expect(failed.code).toBe('rate_limit_exceeded');
    expect(failed.message).toBe(error.message);
    expect(Number(CODEX_WAIT.exec(failed.message)?.[1])).toBeGreaterThanOrEqual(19);
  });

  it('a limit that resets in hours: when it resets, not a wait to sit out', async () => {
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { ...RATE_LIMIT, rateLimitResetInMs: 3 * 3_600_000 } } });
    const { err } = await messagesStreamError('openrouter/anthropic/claude-sonnet-4.5');
    const message = (err.error as { error: { message: string } }).error.message;
    expect(message).toMatch(/free-models-per-min; the limit resets in (3 h|2 h 59 min) \(at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)\.$/);
    expect(message).not.toMatch(/try again in/);
  });
});

describe('a rate limit inside a Gemini or custom endpoint stream', () => {
  it.each([
    ['gemini/gemini-2.5-flash', 'gemini: Resource has been exhausted (e.g. check quota).'],
    ['ca/qwen3-coder', 'ca: Rate limit reached for requests. Please try again in 2s.'],
  ])('%s: rate_limit_exceeded; a wait the message names stays the only one', async (model, message) => {
    const slug = model.slice(0, model.indexOf('/')) as 'gemini' | 'ca';
    t.h.mocks[slug].next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { err } = await chatStreamError(model);
    expect({ type: err.type, code: err.code, message: err.message }).toEqual({ type: 'rate_limit_exceeded', code: 'upstream_rate_limited', message });
  });

  it('custom endpoint → Messages client: OpenAI’s error ({type:"requests", code:"rate_limit_exceeded"}) is a rate_limit_error, not an api_error', async () => {
    t.h.mocks.ca.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { text, err } = await messagesStreamError('ca/qwen3-coder');
    expect(text.length).toBeGreaterThan(0);
    expect(err.type).toBe('rate_limit_error');
    expect((err.error as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'upstream_rate_limited',
      message: 'ca: Rate limit reached for requests. Please try again in 2s.',
    });
  });
});

describe('a rate limit inside an Anthropic or OpenAI stream', () => {
  it('Anthropic rate_limit_error → Responses client: response.failed rate_limit_exceeded (no wait was named, none is made up)', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { error, failed } = failedOf(await responsesStreamEvents('anthropic/claude-sonnet-4-5'));
    expect(error.code).toBe('upstream_rate_limited');
    expect(failed.code).toBe('rate_limit_exceeded');
    expect(failed.message).toBe('anthropic: This request would exceed the rate limit for your organization of 30,000 input tokens per minute.');
  });

  it('Anthropic rate_limit_error → Chat client: rate_limit_exceeded', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { err } = await chatStreamError('anthropic/claude-sonnet-4-5');
    expect({ type: err.type, code: err.code }).toEqual({ type: 'rate_limit_exceeded', code: 'upstream_rate_limited' });
  });

  it('Anthropic rate_limit_error → Messages client (passthrough): Anthropic’s own event', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const { err } = await messagesStreamError('anthropic/claude-sonnet-4-5');
    expect(err.type).toBe('rate_limit_error');
  });

  it('an overload inside a Chat stream → Messages client: overloaded_error, which Claude Code retries; Responses keeps our code (which Codex retries)', async () => {
    const chunk = (content: string) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const body = chunk('partial answer') + `data: ${JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } })}\n\n`;
    t.h.mocks.ca.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const { text, err } = await messagesStreamError('ca/qwen3-coder');
    expect(text).toBe('partial answer');
    expect(err.type).toBe('overloaded_error');
    expect(err.message).toContain('"type":"overloaded_error"');
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { chunk: 3, errorAfter: 5 } } });
    const { failed } = failedOf(await responsesStreamEvents('anthropic/claude-sonnet-4-5'));
    expect(failed.code).toBe('upstream_overloaded');
  });

  it('OpenAI rate_limit_exceeded → Messages client: rate_limit_error, OpenAI’s own wait kept in the message', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { chunk: 3, errorAfter: 8, errorKind: 'rate_limit' } } });
    const { err } = await messagesStreamError('openai/gpt-5.4');
    expect(err.type).toBe('rate_limit_error');
    const message = (err.error as { error: { message: string } }).error.message;
    expect(message).toMatch(/^openai: Rate limit reached for gpt-5\.4 .*Please try again in 1\.4s\./);
    expect(message.match(/try again in/g)).toHaveLength(1);
  });
});

describe('a rate limit as the first event of an OpenRouter stream (nothing went out yet)', () => {
  it('is the HTTP 429 it would have been, its wait in Retry-After (a Chat client’s passthrough, a Messages client’s conversion)', async () => {
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'never sent', stream: { ...RATE_LIMIT, errorAfter: 0 } } });
    const chat = await openai().chat.completions.create({ model: 'openrouter/anthropic/claude-sonnet-4.5', stream: true, messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
    );
    expect(chat).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number(chat!.headers?.get('retry-after'))).toBeGreaterThanOrEqual(19);
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'never sent', stream: { ...RATE_LIMIT, errorAfter: 0 } } });
    const messages = await anthropic().messages.create({ model: 'openrouter/anthropic/claude-sonnet-4.5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (e: unknown) => e as InstanceType<typeof Anthropic.APIError>,
    );
    expect(messages).toBeInstanceOf(Anthropic.RateLimitError);
    expect(Number(messages!.headers?.get('retry-after'))).toBeGreaterThanOrEqual(19);
  });
});

describe('an overload inside an OpenAI stream (its nested server_is_overloaded error event)', () => {
  it('Messages client: overloaded_error; Chat client: upstream_overloaded', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { chunk: 3, errorAfter: 8, errorKind: 'overloaded' } } });
    const { err } = await messagesStreamError('openai/gpt-5.4');
    expect(err.type).toBe('overloaded_error');
    expect((err.error as { error: { message: string } }).error.message).toBe('openai: Our servers are currently overloaded. Please try again later. (server_is_overloaded)');
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { chunk: 3, errorAfter: 8, errorKind: 'overloaded' } } });
    const chat = await chatStreamError('openai/gpt-5.4');
    expect({ type: chat.err.type, code: chat.err.code }).toEqual({ type: 'server_error', code: 'upstream_overloaded' });
  });

  it('Responses client (passthrough): OpenAI’s own event with the failed response’s code, logged as upstream_overloaded', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { chunk: 3, errorAfter: 8, errorKind: 'overloaded' } } });
    // its `error` member makes the SDK throw (openai-node core/streaming: APIError(undefined, data.error) reads its code, type, param, message)
    const err = await responsesStreamEvents('openai/gpt-5.4').then(
      () => undefined,
      (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
    );
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect({ code: err!.code, type: err!.type, message: err!.message }).toEqual({ code: 'upstream_overloaded', type: 'service_unavailable_error', message: 'Our servers are currently overloaded. Please try again later.' });
    const [log] = await t.h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'upstream_overloaded' });
  });
});

type RawEvent = { type: string; response?: { error: { code: string; message: string } }; error?: { code: string } };

/** The failed response of a Responses stream as Codex reads it: the raw events (the SDK throws on a nested `error` event before it), and the error event before it. */
async function codexFailedResponse(model: string): Promise<{ events: string[]; error: { code: string; message: string }; errorEvent: RawEvent | undefined }> {
  const res = await fetch(`${t.h.a}/responses`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify({ model, stream: true, input: 'hi' }) });
  const datas = (await res.text()).split('\n\n').flatMap((ev) => ev.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as RawEvent));
  const failed = datas.at(-1);
  expect(failed?.type).toBe('response.failed');
  return { events: datas.map((d) => d.type), error: failed!.response!.error, errorEvent: datas.find((d) => d.type === 'error') };
}

describe('OpenAI’s failed response in a passthrough stream, as Codex reads it', () => {
  const openaiStream = (events: Record<string, unknown>[]) => ({
    kind: 'raw' as const,
    contentType: 'text/event-stream',
    body: events.map((e, i) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join(''),
  });
  const response = (status: string, error: unknown) => ({ id: 'resp_1', object: 'response', created_at: 1, status, model: 'gpt-5.4', output: [], error, usage: null });
  const failing = (error: { code: string; message: string }, nested?: Record<string, unknown>) =>
    openaiStream([
      { type: 'response.created', response: response('in_progress', null) },
      { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'partial' },
      nested ? { type: 'error', error: nested } : { type: 'error', code: error.code, message: error.message, param: null },
      { type: 'response.failed', response: response('failed', error) },
    ]);

  it('its overload (server_is_overloaded, on which Codex gives up): our upstream_overloaded, which it retries; the rest as OpenAI sent it', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { chunk: 3, errorAfter: 8, errorKind: 'overloaded' } } });
    const { events, error, errorEvent } = await codexFailedResponse('openai/gpt-5.4');
    expect(error).toEqual({ code: 'upstream_overloaded', message: 'Our servers are currently overloaded. Please try again later.' });
    expect(events.filter((e) => e === 'error')).toHaveLength(1);
    expect(errorEvent).toMatchObject({ error: { code: 'upstream_overloaded', type: 'service_unavailable_error' } });
    const [log] = await t.h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'upstream_overloaded' });
  });

  it('slow_down (traffic grew too fast, a rate limit): OpenAI’s rate_limit_exceeded, as a converted stream’s', async () => {
    const slowDown = { code: 'slow_down', message: 'Please reduce your request rate.' };
    t.h.mocks.openai.next(failing(slowDown, { type: 'rate_limit_error', ...slowDown, param: null }));
    const { error, errorEvent } = await codexFailedResponse('openai/gpt-5.4');
    expect(error).toEqual({ code: 'rate_limit_exceeded', message: 'Please reduce your request rate.' });
    expect(errorEvent).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Please reduce your request rate.' } });
    const [log] = await t.h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'upstream_rate_limited' });
  });

  it('a code Codex acts on rightly keeps OpenAI’s: rate_limit_exceeded, insufficient_quota, context_length_exceeded, server_error', async () => {
    for (const code of ['rate_limit_exceeded', 'insufficient_quota', 'context_length_exceeded', 'server_error']) {
      t.h.mocks.openai.next(failing({ code, message: `failed with ${code}` }));
      expect((await codexFailedResponse('openai/gpt-5.4')).error).toEqual({ code, message: `failed with ${code}` });
    }
  });

  it('an SDK client reading the documented flat error event gets the failed response with our code', async () => {
    t.h.mocks.openai.next(failing({ code: 'server_is_overloaded', message: 'Our servers are currently overloaded. Please try again later.' }));
    const { error, failed } = failedOf(await responsesStreamEvents('openai/gpt-5.4'));
    expect([error.code, failed.code]).toEqual(['upstream_overloaded', 'upstream_overloaded']);
  });

  it('a failed response and its error event cut across socket reads go out recoded all the same', async () => {
    const slowDown = { code: 'slow_down', message: 'Please reduce your request rate.' };
    const body = failing(slowDown, { type: 'rate_limit_error', ...slowDown, param: null }).body;
    const errorAt = body.indexOf('event: error');
    const failedAt = body.indexOf('event: response.failed');
    // in the error event's type line, its data, between its blank line's two line ends; in the failed response's type line, data, last line end
    for (const cut of [errorAt + 9, errorAt + 40, failedAt - 1, failedAt + 15, failedAt + 60, body.length - 1]) {
      t.h.mocks.openai.next({ kind: 'sse', events: [{ raw: body.slice(0, cut) }, { raw: body.slice(cut), delayMs: 30 }] });
      const { error, errorEvent } = await codexFailedResponse('openai/gpt-5.4');
      expect([error.code, errorEvent?.error?.code], `cut ${cut}`).toEqual(['rate_limit_exceeded', 'rate_limit_exceeded']);
    }
  });
});

describe('an overload as the first event of a stream (nothing went out yet): the upstream’s own overload status, whichever path', () => {
  const rejection = <E>(p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as E);
  const openaiOverload = { kind: 'turn' as const, turn: { text: 'never sent', stream: { chunk: 3, errorAfter: 0, errorKind: 'overloaded' as const } } };
  const anthropicOverload = { kind: 'turn' as const, turn: { text: 'never sent', stream: { chunk: 3, errorAfter: 0 } } };

  it('OpenAI’s server_is_overloaded: 503 upstream_overloaded to a Responses client (passthrough) as to a Chat client (converted); 503 overloaded_error to a Messages client', async () => {
    t.h.mocks.openai.next(openaiOverload);
    const responses = await rejection<InstanceType<typeof OpenAI.APIError>>(openai().responses.create({ model: 'openai/gpt-5.4', stream: true, input: 'hi' }));
    t.h.mocks.openai.next(openaiOverload);
    const chat = await rejection<InstanceType<typeof OpenAI.APIError>>(openai().chat.completions.create({ model: 'openai/gpt-5.4', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    for (const err of [responses, chat]) {
      expect(err).toBeInstanceOf(OpenAI.InternalServerError);
      expect({ status: err!.status, code: err!.code, type: err!.type }).toEqual({ status: 503, code: 'upstream_overloaded', type: 'server_error' });
    }
    t.h.mocks.openai.next(openaiOverload);
    const messages = await rejection<InstanceType<typeof Anthropic.APIError>>(anthropic().messages.create({ model: 'openai/gpt-5.4', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect({ status: messages!.status, type: messages!.type }).toEqual({ status: 503, type: 'overloaded_error' });
    const logs = await t.h.waitForLogs(3);
    expect(logs.map((l) => [l.status, l.errorCode])).toEqual(Array(3).fill([503, 'upstream_overloaded']));
  });

  it('Anthropic’s overloaded_error: 529 to a Messages client (passthrough) as to a Chat or Responses client (converted)', async () => {
    t.h.mocks.anthropic.next(anthropicOverload);
    const messages = await rejection<InstanceType<typeof Anthropic.APIError>>(anthropic().messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect({ status: messages!.status, type: messages!.type }).toEqual({ status: 529, type: 'overloaded_error' });
    t.h.mocks.anthropic.next(anthropicOverload);
    const chat = await rejection<InstanceType<typeof OpenAI.APIError>>(openai().chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    t.h.mocks.anthropic.next(anthropicOverload);
    const responses = await rejection<InstanceType<typeof OpenAI.APIError>>(openai().responses.create({ model: 'anthropic/claude-sonnet-4-5', stream: true, input: 'hi' }));
    for (const err of [chat, responses]) expect({ status: err!.status, code: err!.code }).toEqual({ status: 529, code: 'upstream_overloaded' });
  });
});

/**
 * What Codex makes of a failed response's code (codex-rs codex-api sse/responses.rs): context_length_exceeded,
 * insufficient_quota, usage_not_included, cyber_policy and invalid_prompt end the turn, and so do
 * server_is_overloaded and slow_down ("Selected model is at capacity. Please try a different
 * model.", CodexErr::ServerOverloaded is not retryable); any other code is retried, after the wait
 * its message names when the code is rate_limit_exceeded.
 */
describe('a failed response’s code, as Codex reads it', () => {
  const chunk = (content: string) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
  const midStream = (error: Record<string, unknown>) => ({ kind: 'raw' as const, contentType: 'text/event-stream', body: chunk('partial answer') + `data: ${JSON.stringify({ error })}\n\n` });

  it('an overload: our upstream_overloaded, which Codex retries — not OpenAI’s server_is_overloaded, on which it gives up', async () => {
    t.h.mocks.ca.next(midStream({ code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' }));
    const { error, failed } = failedOf(await responsesStreamEvents('ca/qwen3-coder'));
    expect([error.code, failed.code]).toEqual(['upstream_overloaded', 'upstream_overloaded']);
  });

  it('credit run out: OpenAI’s insufficient_quota, on which Codex stops instead of retrying; the error event keeps upstream_billing', async () => {
    t.h.mocks.ca.next(midStream({ code: 402, message: 'Insufficient credits. Add more using https://example.com/credits' }));
    const { error, failed } = failedOf(await responsesStreamEvents('ca/qwen3-coder'));
    expect([error.code, failed.code]).toEqual(['upstream_billing', 'insufficient_quota']);
    expect(failed.message).toBe('ca: Insufficient credits. Add more using https://example.com/credits');
  });
});

describe('a rate limit inside an Anthropic stream whose 200 carried its anthropic-ratelimit-*-reset headers', () => {
  const LIMITED: StreamSpec = { ...RATE_LIMIT, rateLimitResetInMs: 20_000 };
  const WAIT = /^anthropic: This request would exceed the rate limit for your organization of 30,000 input tokens per minute\. Please try again in (19|20)s\.$/;

  it('Responses client: the input-token limit’s reset (the one the message names) as a wait Codex reads', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: LIMITED } });
    const { error, failed } = failedOf(await responsesStreamEvents('anthropic/claude-sonnet-4-5'));
    expect([error.code, failed.code]).toEqual(['upstream_rate_limited', 'rate_limit_exceeded']);
    expect(failed.message).toMatch(WAIT);
    expect(Number(CODEX_WAIT.exec(failed.message)?.[1])).toBeGreaterThanOrEqual(19);
  });

  it('Chat client: the wait in the message', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: LIMITED } });
    const { text, err } = await chatStreamError('anthropic/claude-sonnet-4-5');
    expect(text.length).toBeGreaterThan(0);
    expect({ type: err.type, code: err.code }).toEqual({ type: 'rate_limit_exceeded', code: 'upstream_rate_limited' });
    expect(err.message).toMatch(WAIT);
  });

  it('Messages client (passthrough): as the first event, the HTTP 429 with that Retry-After; later, Anthropic’s own event with the wait in its message', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'never sent', stream: { ...LIMITED, errorAfter: 0 } } });
    const first = await anthropic().messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (e: unknown) => e as InstanceType<typeof Anthropic.APIError>,
    );
    expect(first).toBeInstanceOf(Anthropic.RateLimitError);
    expect(Number(first!.headers?.get('retry-after'))).toBeGreaterThanOrEqual(19);
    expect(Number(first!.headers?.get('retry-after'))).toBeLessThanOrEqual(20);
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: LIMITED } });
    const { err } = await messagesStreamError('anthropic/claude-sonnet-4-5');
    expect(err.type).toBe('rate_limit_error');
    expect((err.error as { error: { message: string } }).error.message).toMatch(/^This request would exceed the rate limit for your organization of 30,000 input tokens per minute\. Please try again in (19|20)s\.$/);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('Messages client (passthrough), a limit that resets in hours: when it resets, in Anthropic’s own event', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { ...RATE_LIMIT, rateLimitResetInMs: 3 * 3_600_000 } } });
    const { err } = await messagesStreamError('anthropic/claude-sonnet-4-5');
    expect((err.error as { error: { message: string } }).error.message).toMatch(/^This request would exceed the rate limit for your organization of 30,000 input tokens per minute; the limit resets in (2 h 59 min|3 h) \(at .+ UTC\)\.$/);
  });

  it('Messages client (passthrough): the error event and the stream’s end in one read, amended as well; an overload is not', async () => {
    const events = (error: Record<string, unknown>) => [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } },
      { type: 'error', error },
    ];
    const body = (error: Record<string, unknown>) => events(error).map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    const reset = new Date(Date.now() + 20_000).toISOString();
    const headers = { 'anthropic-ratelimit-input-tokens-reset': reset, 'anthropic-ratelimit-requests-reset': reset };
    t.h.mocks.anthropic.next({ kind: 'raw', contentType: 'text/event-stream', headers, body: body({ type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization of 30,000 input tokens per minute.' }) });
    const limited = await messagesStreamError('anthropic/claude-sonnet-4-5');
    expect((limited.err.error as { error: { message: string } }).error.message).toMatch(/ per minute\. Please try again in (19|20)s\.$/);
    t.h.mocks.anthropic.next({ kind: 'raw', contentType: 'text/event-stream', headers, body: body({ type: 'overloaded_error', message: 'Overloaded' }) });
    const overloaded = await messagesStreamError('anthropic/claude-sonnet-4-5');
    expect(overloaded.err.error).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('their reset times are read on Anthropic’s clock, the 200’s Date: an hour ahead of ours, the wait is still 20 s', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { ...LIMITED, clockSkewMs: 3_600_000 } } });
    const { failed } = failedOf(await responsesStreamEvents('anthropic/claude-sonnet-4-5'));
    // a Date is in whole seconds: the clock read from it is up to a second behind
    expect(Number(CODEX_WAIT.exec(failed.message)?.[1])).toBeGreaterThanOrEqual(19);
    expect(Number(CODEX_WAIT.exec(failed.message)?.[1])).toBeLessThanOrEqual(21);
  });

  it('an overload in the same stream gets no wait from them: they are about the limits, not capacity', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will be cut short', stream: { chunk: 3, errorAfter: 5, rateLimitResetInMs: 20_000 } } });
    const { failed } = failedOf(await responsesStreamEvents('anthropic/claude-sonnet-4-5'));
    expect(failed).toEqual({ code: 'upstream_overloaded', message: 'anthropic: Overloaded' });
  });
});
