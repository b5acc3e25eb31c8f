/** Streamed answers: passthrough and converted relays, late failures, client disconnects, backpressure. */
import Anthropic from '@anthropic-ai/sdk';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, useHarness, type Harness } from './harness.js';
import { loopbackBufferLimit, MB } from '../fixtures/loopback-buffers.js';
import { settledValue } from '../fixtures/settle.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ settings: { idleTimeoutMs: 400 } });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function streamRaw(url: string, body: unknown): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const chatStream = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content: 'tell me' }],
  ...extra,
});


/**
 * Runs `fn` with the idle timeout far past the test's own: a stream the relay does not end at its
 * terminal event then hangs the test, where at 400 ms it would end quietly at the timeout and only
 * a wall-clock bound could tell.
 */
async function withIdleTimeoutFarOff(fn: () => Promise<void>): Promise<void> {
  const idle = h.config.settings.idleTimeoutMs;
  h.config.settings.idleTimeoutMs = 60_000;
  try {
    await fn();
  } finally {
    h.config.settings.idleTimeoutMs = idle;
  }
}
describe('successful streams', () => {
  it('finished streams hand their upstream connection back: sequential streams, passthrough and converted, share one keep-alive connection', async () => {
    const ant = h.mocks.anthropic;
    const or = h.mocks.openrouter;
    // the first request opens the connection, the ones after it must reuse it
    for (let i = 0; i < 4; i++) {
      ant.next({ kind: 'turn', turn: { text: `converted ${i}` } });
      or.next({ kind: 'turn', turn: { text: `passthrough ${i}` } });
      const converted = await streamRaw(`${h.a}/chat/completions`, chatStream('anthropic/claude-sonnet-4-5'));
      const passthrough = await streamRaw(`${h.a}/chat/completions`, chatStream('openrouter/openai/gpt-5'));
      for (const r of [converted, passthrough]) {
        expect(r.status).toBe(200);
        expect(r.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      }
      if (i === 0) {
        ant.connectionsAccepted = 0;
        or.connectionsAccepted = 0;
      }
    }
    expect(ant.connectionsAccepted).toBe(0);
    expect(or.connectionsAccepted).toBe(0);
  });

  it('passthrough: bytes relayed as sent, usage read on the side, no answered-by headers', async () => {
    h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'abcdefghijklmnop', usage: { input: 11, output: 7, cacheRead: 3, reasoning: 2 } } });
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('openrouter/openai/gpt-5'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(r.headers['x-svc-upstream-provider']).toBeUndefined();
    expect(r.text).toContain(': OPENROUTER PROCESSING'); // untouched bytes, comments included
    expect(r.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, streamed: true, provider: 'openrouter', usage: { input: 11, output: 7, cached: 3, reasoning: 2 } });
    expect(log!.errorCode).toBeUndefined();
    expect(log!.ttfbMs).toBeGreaterThan(0);
  });

  it('converted: a Messages client streams from gemini with a tool call', async () => {
    h.mocks.gemini.next({ kind: 'turn', turn: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { input: 30, output: 9 } } });
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const msg = await client.messages
      .stream({
        model: 'gemini/gemini-2.5-flash',
        max_tokens: 100,
        tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
        messages: [{ role: 'user', content: 'weather?' }],
      })
      .finalMessage();
    expect(msg.model).toBe('gemini/gemini-2.5-flash');
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const [log] = await h.waitForLogs(1);
    expect(log!.usage).toMatchObject({ input: 30, output: 9 });
  });

  it('converted: a chat client streams from anthropic with the SDK', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create(chatStream('anthropic/claude-sonnet-4-5') as never);
    let text = '';
    let usage: unknown;
    for await (const c of stream as unknown as AsyncIterable<OpenAI.Chat.ChatCompletionChunk>) {
      text += c.choices[0]?.delta.content ?? '';
      if (c.usage) usage = c.usage;
    }
    expect(text).toBe('Echo: tell me');
    expect(usage).toBeTruthy();
  });
});

describe('failures after the first byte', () => {
  it('passthrough: connection reset mid-stream → the Chat error event, status 200, logged', async () => {
    h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'a long answer that breaks', stream: { chunk: 3, resetAfter: 4 } } });
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('openrouter/openai/gpt-5'));
    expect(r.status).toBe(200);
    const last = r.text.trim().split('\n\n').pop()!;
    expect(JSON.parse(last.slice('data: '.length)).error).toMatchObject({ code: 'upstream_reset' });
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'upstream_reset' });
  });

  it('passthrough: a stream that ends without its terminal event gets one final error event', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'cut short', stream: { endAfter: 3 } } });
    const r = await streamRaw(`${h.b}/v1/messages`, { model: 'anthropic/claude-sonnet-4-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error".*"upstream_stream_incomplete"/);
    expect(r.text.match(/event: error/g)).toHaveLength(1);
  });

  it('passthrough: an upstream error event is forwarded once and logged with the code a converted stream gets', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will fail here', stream: { errorAfter: 3 } } });
    const r = await streamRaw(`${h.b}/v1/messages`, { model: 'anthropic/claude-sonnet-4-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(r.text.match(/event: error/g)).toHaveLength(1);
    expect(r.text).toContain('overloaded_error');
    const [log] = await h.waitForLogs(1);
    expect(log!.errorCode).toBe('upstream_overloaded');
  });

  it('converted: reset mid-stream → the Messages error event after what was sent', async () => {
    h.mocks.openai.next({ kind: 'turn', turn: { text: 'a long answer that breaks', stream: { chunk: 3, resetAfter: 6 } } });
    const r = await streamRaw(`${h.b}/v1/messages`, { model: 'openai/gpt-5.4', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(200);
    expect(r.text.startsWith('event: message_start')).toBe(true);
    const last = r.text.trim().split('\n\n').pop()!;
    expect(last).toMatch(/^event: error\ndata: .*upstream_reset/);
    expect(JSON.parse(last.slice(last.indexOf('data: ') + 6)).error.message).toMatch(/^openai: the upstream connection broke/);
  });

  it('converted: an upstream error event mid-stream becomes the client dialect error (Responses client)', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'will fail here', stream: { errorAfter: 4 } } });
    const r = await streamRaw(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', stream: true, input: 'x' });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/"type":"(error|response\.failed)"/);
    expect(r.text).toContain('anthropic: ');
  });

  it('converted: text and an error event in one upstream read → the text, then the error event (200)', async () => {
    // one write, so one read: the relay parses a read's chunks together, and an error after
    // events that produced output ends a stream under way instead of failing it before the first byte
    const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    const body =
      ev('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }) +
      ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial é answer' } }) +
      ev('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    h.mocks.anthropic.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('anthropic/claude-sonnet-4-5'));
    expect(r.status).toBe(200);
    const events = r.text.trim().split('\n\n');
    expect(events.some((e) => e.includes('"content":"partial é answer"'))).toBe(true);
    const last = JSON.parse(events.at(-1)!.slice(6)) as { error: { code: string; message: string } };
    // the code says what the upstream said, as an overloaded answer before the first byte does
    expect(last.error.code).toBe('upstream_overloaded');
    expect(last.error.message).toBe('anthropic: Overloaded');
    const [log] = await h.waitForLogs(1);
    expect(log!.status).toBe(200);
    expect(log!.errorCode).toBe('upstream_overloaded');
  });

  it('converted: an error event alone in the first read still fails before the first byte', async () => {
    const body = `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`;
    h.mocks.anthropic.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('anthropic/claude-sonnet-4-5'));
    expect(r.status).toBe(529);
    expect(JSON.parse(r.text)).toMatchObject({ error: { message: 'anthropic: Overloaded' } });
  });

  it('passthrough: a stream complete at its terminal event ends there, whatever the upstream does next (reset, silence)', async () => {
    const cases = [
      { mock: h.mocks.anthropic, url: `${h.b}/v1/messages`, body: { model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'x' }] }, last: 'event: message_stop' },
      { mock: h.mocks.ca, url: `${h.a}/chat/completions`, body: chatStream('ca/qwen3-coder'), last: 'data: [DONE]' },
      { mock: h.mocks.openai, url: `${h.a}/responses`, body: { model: 'openai/gpt-5.4', input: 'x', stream: true }, last: 'event: response.completed' },
    ];
    await withIdleTimeoutFarOff(async () => {
      for (const c of cases) {
        for (const after of [{ stallAfter: 1000 }, { resetAfter: 1000 }]) {
          c.mock.next({ kind: 'turn', turn: { text: 'complete answer', stream: after } });
          const before = h.logs.length;
          const r = await streamRaw(c.url, c.body);
          const label = `${c.last} then ${Object.keys(after)[0]}`;
          expect(r.text, label).not.toMatch(/upstream_(timeout|reset)/);
          const events = r.text.trim().split('\n\n');
          expect(events[events.length - 1]!.startsWith(c.last), label).toBe(true);
          for (let i = 0; i < 100 && h.logs.length <= before; i++) await new Promise((r) => setTimeout(r, 10));
          expect(h.logs[h.logs.length - 1]!.errorCode, label).toBeUndefined();
        }
      }
    });
  });

  it('passthrough: a terminal event whose blank line comes alone in a later read ends the stream there, though the upstream then stalls', async () => {
    const chunk = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}\n\n';
    const stop = 'event: message_stop\ndata: {"type":"message_stop"}\n';
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","usage":{"input_tokens":1,"output_tokens":0}}}\n\n';
    const cases = [
      { mock: h.mocks.ca, url: `${h.a}/chat/completions`, body: chatStream('ca/qwen3-coder'), first: chunk, last: 'data: [DONE]\n' },
      { mock: h.mocks.anthropic, url: `${h.b}/v1/messages`, body: { model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'x' }] }, first: start, last: stop },
    ];
    await withIdleTimeoutFarOff(async () => {
      for (const c of cases) {
        c.mock.next({ kind: 'sse', events: [{ raw: c.first }, { raw: c.last, delayMs: 30 }, { raw: '\n', delayMs: 30 }], ending: 'stall' });
        const before = h.logs.length;
        const r = await streamRaw(c.url, c.body);
        expect(r.text, c.last).toBe(c.first + c.last + '\n');
        for (let i = 0; i < 100 && h.logs.length <= before; i++) await new Promise((r) => setTimeout(r, 10));
        expect(h.logs[h.logs.length - 1]!.errorCode, c.last).toBeUndefined();
      }
    });
  });

  it('passthrough Chat: a stream that ends at its finish_reason without [DONE] is complete (some servers leave it out)', async () => {
    const body = ['{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}', '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}']
      .map((d) => `data: ${d}\n\n`)
      .join('');
    h.mocks.ca.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(r.text).not.toContain('upstream_stream_incomplete');
    expect(r.text).toContain('"finish_reason":"stop"');
  });

  it('idle timeout between chunks → final error event upstream_timeout', async () => {
    h.mocks.ca.next({ kind: 'turn', turn: { text: 'stalls after a bit', stream: { stallAfter: 3 } } });
    const started = Date.now();
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    // idleTimeoutMs 400: the relay's watch ends it after 400–500 ms of silence (the stall lasts for
    // good, so upstream_timeout below can only come from that watch)
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    const last = r.text.trim().split('\n\n').pop()!;
    expect(JSON.parse(last.slice(6)).error.code).toBe('upstream_timeout');
  });

  it('headers at once, first event after idleTimeoutMs (a long prefill, as vLLM and mlx_lm send it): waited for, passthrough and converted', async () => {
    h.mocks.ca.always('/v1/chat/completions', { kind: 'turn', turn: { text: 'after the prefill', stream: { firstDelayMs: 1000 } } });
    const pass = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(pass.status).toBe(200);
    expect(pass.text).not.toContain('upstream_timeout');
    expect(pass.text.trim().endsWith('data: [DONE]')).toBe(true);

    const conv = await streamRaw(`${h.b}/v1/messages`, { model: 'ca/qwen3-coder', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(conv.status).toBe(200);
    expect(conv.text).not.toContain('upstream_timeout');
    expect(conv.text).toContain('event: message_stop');
  });

  it('an opening error event before any byte is an HTTP error (fallback-able), not a 200', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'x', stream: { errorAfter: 0 } } });
    const r = await streamRaw(`${h.b}/v1/messages`, { model: 'anthropic/claude-sonnet-4-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(JSON.parse(r.text)).toMatchObject({ type: 'error' });
  });
});

/** The events of an SSE text, in order (comments left out). */
function sseEvents(text: string): Array<{ event?: string; data: string }> {
  const out: Array<{ event?: string; data: string }> = [];
  for (const block of text.split('\n\n')) {
    let event: string | undefined;
    let data: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data = line.slice(5).trimStart();
    }
    if (data !== undefined) out.push(event === undefined ? { data } : { event, data });
  }
  return out;
}

describe('passthrough Chat: an upstream error event mid-stream becomes svc-proxy\'s final error event', () => {
  const cases = [
    { slug: 'openrouter', model: 'openrouter/anthropic/claude-sonnet-4.5', message: 'openrouter: Provider returned error (Anthropic): upstream disconnected', raw: /"code":502|"finish_reason":"error"/ },
    { slug: 'gemini', model: 'gemini/gemini-2.5-flash', message: 'gemini: An internal error has occurred.', raw: /"status":"INTERNAL"/ },
    { slug: 'ca', model: 'ca/qwen3-coder', message: 'ca: The server had an error while processing your request.', raw: /"code":null/ },
  ] as const;

  for (const c of cases) {
    it(`${c.slug}: the text before it, then {"error":{…,"code":"upstream_error"}} with the prefixed message; logged with that code`, async () => {
      h.mocks[c.slug].next({ kind: 'turn', turn: { text: 'will fail here', stream: { errorAfter: 3 } } });
      const r = await streamRaw(`${h.a}/chat/completions`, chatStream(c.model));
      expect(r.status).toBe(200);
      const events = sseEvents(r.text);
      expect(events.length).toBeGreaterThan(1);
      expect(r.text).not.toMatch(c.raw);
      const last = JSON.parse(events.at(-1)!.data) as Record<string, unknown>;
      expect(last).toEqual({ error: { message: c.message, type: 'server_error', code: 'upstream_error', param: null } });
      // the events before it went out as the upstream sent them
      for (const e of events.slice(0, -1)) expect(JSON.parse(e.data)).not.toHaveProperty('error');
      const [log] = await h.waitForLogs(1);
      expect(log).toMatchObject({ status: 200, errorCode: 'upstream_error' });
    });
  }

  it('the official SDK throws an APIError whose code is our string code (not OpenRouter\'s number)', async () => {
    h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'will fail here', stream: { chunk: 3, errorAfter: 5 } } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create(chatStream('openrouter/anthropic/claude-sonnet-4.5') as never);
    let text = '';
    let caught: unknown;
    try {
      for await (const chunk of stream as unknown as AsyncIterable<OpenAI.Chat.ChatCompletionChunk>) text += chunk.choices[0]?.delta.content ?? '';
    } catch (err) {
      caught = err;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(caught).toBeInstanceOf(OpenAI.APIError);
    const err = caught as InstanceType<typeof OpenAI.APIError>;
    expect(err.code).toBe('upstream_error');
    expect(err.type).toBe('server_error');
    expect(err.message).toContain('openrouter: Provider returned error');
  });

  it('one upstream write holding content, the error and [DONE]: the content, then ours; the status maps (503 → upstream_overloaded); the credential masked', async () => {
    const chunk = (content: string) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const before = chunk('partial é answer') + chunk('error');
    const error = `data: ${JSON.stringify({ error: { code: 503, message: 'overloaded, key ca-harness-secret-0005 is busy', status: 'UNAVAILABLE' } })}\n\n`;
    h.mocks.ca.next({ kind: 'raw', contentType: 'text/event-stream', body: before + error + 'data: [DONE]\n\n' });
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(r.status).toBe(200);
    expect(r.text.startsWith(before)).toBe(true);
    expect(r.text).not.toContain('[DONE]');
    expect(r.text).not.toContain('ca-harness-secret-0005');
    const events = sseEvents(r.text);
    expect(events).toHaveLength(3);
    const last = JSON.parse(events[2]!.data) as { error: { code: string; message: string; type: string } };
    expect(last.error.code).toBe('upstream_overloaded');
    expect(last.error.message).toMatch(/^ca: overloaded, key \S+ is busy$/);
    const [log] = await h.waitForLogs(1);
    expect(log!.errorCode).toBe('upstream_overloaded');
  });

  it('a stream without an error goes out byte for byte, content and finish reasons that say "error" included', async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body =
      chunk({ role: 'assistant', content: '' }) +
      chunk({ content: 'error' }) +
      chunk({ content: '{"error":"quoted"}' }) +
      ': keep-alive\n\n' +
      chunk({}, 'stop') +
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\n` +
      'data: [DONE]\n\n';
    h.mocks.ca.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const r = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(r.text).toBe(body);
    const [log] = await h.waitForLogs(1);
    expect(log!.errorCode).toBeUndefined();
  });
});

describe('passthrough Responses: a broken upstream connection ends as a converted stream does', () => {
  it('error, then response.failed (the announced response, failed), numbered on from the last event; the SDK reads both', async () => {
    h.mocks.openai.next({ kind: 'turn', turn: { text: 'a long answer that breaks', stream: { chunk: 3, resetAfter: 6 } } });
    const r = await streamRaw(`${h.a}/responses`, { model: 'openai/gpt-5.4', input: 'x', stream: true });
    expect(r.status).toBe(200);
    const events = sseEvents(r.text).map((e) => ({ event: e.event, data: JSON.parse(e.data) as Record<string, unknown> }));
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.slice(-2).map((e) => e.event)).toEqual(['error', 'response.failed']);
    const created = events[0]!.data.response as Record<string, unknown>;
    expect(events.at(-2)!.data).toMatchObject({ type: 'error', code: 'upstream_reset' });
    expect(events.at(-1)!.data.response).toMatchObject({ id: created.id, model: created.model, status: 'failed', error: { code: 'upstream_reset', message: expect.stringMatching(/^openai: the upstream connection broke/) } });

    // the converted path ends the same way
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'a long answer that breaks', stream: { chunk: 3, resetAfter: 6 } } });
    const conv = await streamRaw(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', stream: true });
    expect(sseEvents(conv.text).slice(-2).map((e) => e.event)).toEqual(['error', 'response.failed']);

    // read with the SDK: the error event, then the failed response its accumulator takes as the final one
    h.mocks.openai.next({ kind: 'turn', turn: { text: 'a long answer that breaks', stream: { chunk: 3, resetAfter: 6 } } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const ev of await client.responses.create({ model: 'openai/gpt-5.4', input: 'x', stream: true })) seen.push(ev);
    expect(seen.slice(-2).map((e) => e.type)).toEqual(['error', 'response.failed']);
    const failed = seen.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(failed.response.status).toBe('failed');
    expect(failed.response.error).toMatchObject({ code: 'upstream_reset' });
    expect(failed.sequence_number).toBe(seen.length - 1);
  });
});

describe('client disconnects', () => {
  it('closing the response mid-stream aborts the upstream before its stream ends', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'x'.repeat(400), stream: { chunk: 2, delayMs: 20 } } });
    await new Promise<void>((resolve, reject) => {
      const req = request(`${h.a}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let n = 0;
        res.on('data', () => {
          if (++n === 3) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', () => undefined);
      req.on('close', () => resolve());
      req.end(JSON.stringify(chatStream('anthropic/claude-sonnet-4-5')));
      setTimeout(() => reject(new Error('no data')), 5000);
    });
    const upstream = h.mocks.anthropic.lastGeneration();
    await upstream.done;
    // the upstream's 200 chunks take 4 s: a missing abort lets them all through (no timing assert:
    // speed lives in the bench)
    expect(upstream.closedEarly).toBe(true);
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'client_disconnected' });
    // the attempt the client left says so, as one left while its headers were awaited does
    expect(log!.attempts).toEqual([expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', status: 200, errorCode: 'client_disconnected' })]);
  });
});

describe('a paused turn being continued', () => {
  it('a client that leaves while the continuation is awaited aborts it; logged as client_disconnected', async () => {
    const mock = h.mocks.anthropic;
    mock.next({ kind: 'turn', turn: { webSearches: [{ query: 'q', pages: [{ url: 'https://example.com/a', title: 'A' }] }], finish: 'pause' } });
    mock.next({ kind: 'hang' });
    const req = request(`${h.a}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    let seen = '';
    req.on('response', (res) => res.on('data', (c: Buffer) => (seen += c.toString())));
    req.end(JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', input: 'Search.', stream: true, tools: [{ type: 'web_search' }] }));
    while (mock.generations().length < 2) await new Promise((r) => setTimeout(r, 5));
    const continuation = mock.generations()[1]!;
    expect((continuation.body.messages as Array<{ role: string }>).at(-1)!.role).toBe('assistant');
    // the first part reached the client before the continuation was asked for
    expect(seen).toContain('response.web_search_call.completed');
    req.destroy();
    // the continuation hangs: only the abort ends it (without, this await times the test out)
    await continuation.done;
    expect(continuation.closedEarly).toBe(true);
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'client_disconnected' });
    expect(log!.attempts.map((a) => a.continued ?? false)).toEqual([false, true]);
    expect(log!.attempts[1]).toMatchObject({ status: 0, errorCode: 'client_disconnected' });
  });
});

describe('client disconnects before the answer', () => {
  it('aborts the upstream request that has not answered yet; logged as 499', async () => {
    h.mocks.openai.next({ kind: 'hang' });
    const req = request(`${h.a}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ model: 'openai/gpt-5.4', input: 'x' }));
    while (h.mocks.openai.generations().length === 0) await new Promise((r) => setTimeout(r, 5));
    req.destroy();
    const upstream = h.mocks.openai.lastGeneration();
    // the upstream hangs: only the abort ends it (without, this await times the test out)
    await upstream.done;
    expect(upstream.closedEarly).toBe(true);
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ status: 499, errorCode: 'client_disconnected' });
  });
});

describe('backpressure', () => {
  let upstream: Server;
  let written = 0;
  // two loopback connections (mock→proxy, proxy→client) may fill their kernel buffers before
  // the mock feels pressure; push well past that so a stall can only come from the proxy pausing
  const bound = 2 * loopbackBufferLimit() + 8 * MB;
  const TOTAL = Math.max(48 * MB, bound + 32 * MB);
  const CHUNK = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'y'.repeat(64 * 1024) } }] })}\n\n`;

  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      written = 0;
      const pump = (): void => {
        while (written < TOTAL) {
          written += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once('drain', pump);
        }
        res.end('data: [DONE]\n\n');
      };
      pump();
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    h.config.endpoints.bp = { url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`, format: 'a', hasCredential: false, created: '2026-01-01T00:00:00Z' };
  });
  afterAll(async () => {
    delete h.config.endpoints.bp;
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  it('a client that stops reading pauses the upstream; nothing is lost when it reads again', async () => {
    let received = 0;
    let sampleEarly = 0;
    let sampleLate = 0;
    await new Promise<void>((resolve, reject) => {
      const req = request(`${h.a}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.once('data', (c: Buffer) => {
          received += c.length;
          res.pause();
          void (async () => {
            sampleEarly = await settledValue(() => written);
            await new Promise((r) => setTimeout(r, 500));
            sampleLate = written;
            res.on('data', (d: Buffer) => (received += d.length));
            res.resume();
          })();
        });
        res.on('end', () => resolve());
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ model: 'bp/any', stream: true, messages: [{ role: 'user', content: 'x' }] }));
    });
    // the proxy stopped pulling far short of the whole stream while the client did not read
    expect(sampleEarly).toBeLessThan(bound);
    expect(sampleLate).toBe(sampleEarly); // stalled, not buffering in the proxy
    expect(written).toBeGreaterThanOrEqual(TOTAL);
    expect(received).toBe(written + 'data: [DONE]\n\n'.length);
  });
});

describe('headers sent early while the upstream is still silent (settings.streamHeadersAfterMs)', () => {
  const t = useHarness({
    settings: { streamHeadersAfterMs: 150 },
    groups: { slow: [{ name: 'coder', targets: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4'] }] },
  });
  const WAITING = ': waiting for the model\n\n';

  it('a first event after the limit: 200 and a comment first, then the stream as usual; the SDK reads it', async () => {
    const { h } = t;
    h.mocks.ca.next({ kind: 'turn', turn: { text: 'after the prefill' }, delayMs: 600 });
    const pass = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(pass.status).toBe(200);
    expect(pass.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(pass.text.startsWith(WAITING)).toBe(true);
    expect(pass.text.trim().endsWith('data: [DONE]')).toBe(true);
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, streamed: true });
    // time to first byte is the upstream's first event, not the comment
    expect(log!.ttfbMs).toBeGreaterThanOrEqual(550);

    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'converted, late' }, delayMs: 600 });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'unused', maxRetries: 0 });
    let text = '';
    const stream = await client.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', stream: true, messages: [{ role: 'user', content: 'tell me' }] });
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('converted, late');
  });

  it('a quick answer, and any request that does not stream, are not touched', async () => {
    const { h } = t;
    h.mocks.ca.next({ kind: 'turn', turn: { text: 'quick' } });
    const quick = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(quick.text.startsWith(':')).toBe(false);
    h.mocks.ca.next(h.mocks.ca.error(429, 'Rate limit reached', { retryAfter: 3 }));
    const limited = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(limited.status, 'a quick refusal keeps its status').toBe(429);

    h.mocks.ca.next({ kind: 'turn', turn: { text: 'whole, late' }, delayMs: 400 });
    const whole = await streamRaw(`${h.a}/chat/completions`, { model: 'ca/qwen3-coder', messages: [{ role: 'user', content: 'x' }] });
    expect(whole.status).toBe(200);
    expect(JSON.parse(whole.text).choices[0].message.content).toBe('whole, late');
  });

  it('a failure after the headers went out: the dialect’s final error event (Chat, Messages), logged with its code', async () => {
    const { h } = t;
    h.mocks.ca.next({ ...h.mocks.ca.error(500, 'model crashed'), delayMs: 400 } as Parameters<typeof h.mocks.ca.next>[0]);
    const chat = await streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    expect(chat.status).toBe(200);
    expect(chat.text.startsWith(WAITING)).toBe(true);
    const last = chat.text.trim().split('\n\n').pop()!;
    expect(JSON.parse(last.slice('data: '.length)).error).toMatchObject({ code: 'upstream_error' });
    const [log] = await h.waitForLogs(1);
    // the log says what the client got: the 200 that went out early, and the error's code
    expect(log).toMatchObject({ status: 200, errorCode: 'upstream_error' });

    h.mocks.cb.next({ ...h.mocks.cb.error(500, 'overloaded'), delayMs: 400 } as Parameters<typeof h.mocks.cb.next>[0]);
    const ant = new Anthropic({ baseURL: h.b, apiKey: 'unused', maxRetries: 0 });
    const stream = ant.messages.stream({ model: 'cb/glm-4.6', max_tokens: 20, messages: [{ role: 'user', content: 'x' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/overloaded/);
  });

  it('a Responses stream that fails after the early 200 still creates and fails its response (what Codex reads), passthrough and converted', async () => {
    const { h } = t;
    const events = (text: string) =>
      text
        .split('\n\n')
        .filter((e) => e.startsWith('event: '))
        .map((e) => ({ name: e.slice(7, e.indexOf('\n')), data: JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Record<string, unknown> }));
    for (const [mock, model] of [
      [h.mocks.openai, 'openai/gpt-5.4'],
      [h.mocks.anthropic, 'anthropic/claude-sonnet-4-5'],
    ] as const) {
      mock.next({ ...mock.error(429, 'Rate limit reached', { retryAfter: 3 }), delayMs: 400 } as Parameters<typeof mock.next>[0]);
      const r = await streamRaw(`${h.a}/responses`, { model, input: 'x', stream: true });
      expect(r.status).toBe(200);
      expect(r.text.startsWith(WAITING)).toBe(true);
      const seen = events(r.text);
      expect(seen.map((e) => e.name), model).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
      expect(seen.map((e) => e.data.sequence_number)).toEqual([0, 1, 2, 3]);
      const failed = seen[3]!.data.response as { id: string; status: string; model: string; error: { code: string; message: string } };
      // OpenAI's own code on the failed response, and the Retry-After that could not go out in
      // its message, as OpenAI words it: Codex reads the wait from there
      expect(failed).toMatchObject({ status: 'failed', model, error: { code: 'rate_limit_exceeded' } });
      expect(failed.error.message).toMatch(/Rate limit reached\. Please try again in 3s\.$/);
      expect(failed.id).toBe((seen[0]!.data.response as { id: string }).id);
      expect(seen[2]!.data).toMatchObject({ code: 'upstream_rate_limited', message: failed.error.message });
    }
    // the SDK reads them as typed events: the failure with its message, on the response it created
    h.mocks.openai.next({ ...h.mocks.openai.error(500, 'model crashed'), delayMs: 400 } as Parameters<typeof h.mocks.openai.next>[0]);
    const client = new OpenAI({ baseURL: h.a, apiKey: 'unused', maxRetries: 0 });
    const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const ev of await client.responses.create({ model: 'openai/gpt-5.4', input: 'x', stream: true })) seen.push(ev);
    expect(seen.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    const failed = seen[3] as OpenAI.Responses.ResponseFailedEvent;
    expect(failed.response.error?.message).toMatch(/model crashed/);
  });

  it('a client that leaves after the early 200 while the upstream still thinks: logged with its 200 and the attempt it left', async () => {
    const { h } = t;
    h.mocks.ca.next({ kind: 'hang' });
    const before = h.logs.length;
    const controller = new AbortController();
    const res = await fetch(`${h.a}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-svc-proxy-test' }, body: JSON.stringify(chatStream('ca/qwen3-coder')), signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read(); // the waiting comment
    controller.abort();
    for (let i = 0; i < 200 && h.logs.length <= before; i++) await new Promise((r) => setTimeout(r, 10));
    const log = h.logs[h.logs.length - 1]!;
    expect(log).toMatchObject({ status: 200, errorCode: 'client_disconnected' });
    expect(log.attempts).toEqual([expect.objectContaining({ target: 'ca/qwen3-coder', status: 0, errorCode: 'client_disconnected' })]);
  });

  it('the drain deadline ends such a stream with the final shutting_down event, not a cut connection', async () => {
    const { h } = t;
    h.mocks.ca.next({ kind: 'turn', turn: { text: 'too late' }, delayMs: 3000 });
    const pending = streamRaw(`${h.a}/chat/completions`, chatStream('ca/qwen3-coder'));
    await new Promise((r) => setTimeout(r, 400));
    expect(h.handler.endInFlight?.()).toBe(1);
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.text.startsWith(WAITING)).toBe(true);
    const last = r.text.trim().split('\n\n').pop()!;
    expect(JSON.parse(last.slice('data: '.length)).error).toMatchObject({ code: 'shutting_down' });
  });

  it('a group still falls back after the headers went out: the comments are no events', async () => {
    const { h } = t;
    h.mocks.anthropic.next({ ...h.mocks.anthropic.error(529, 'Overloaded'), delayMs: 400 } as Parameters<typeof h.mocks.anthropic.next>[0]);
    h.mocks.openai.next({ kind: 'turn', turn: { text: 'from the second target' } });
    const r = await streamRaw(`${h.groupA('slow')}/chat/completions`, chatStream('coder'));
    expect(r.status).toBe(200);
    expect(r.text.startsWith(WAITING)).toBe(true);
    const deltas = r.text
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => (JSON.parse(e.slice('data: '.length)) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content ?? '');
    expect(deltas.join('')).toBe('from the second target');
    expect(r.text.trim().endsWith('data: [DONE]')).toBe(true);
    const [log] = await h.waitForLogs(1);
    expect(log!.attempts.map((a) => a.status)).toEqual([529, 200]);
  });
});
