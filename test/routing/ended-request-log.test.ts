/**
 * The log entry of a request the daemon ends itself while a target is being asked (a revoked key,
 * the drain deadline) or the client leaves: it names that attempt with the code it ended with, and
 * it stays as it was logged while the handler unwinds (it once gained the attempt as an answer,
 * and "answered by" that target, after the 401 had been logged).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness({
  settings: { headersTimeoutMs: 5_000 },
  groups: { team: [{ name: 'claude', targets: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4'] }] },
});
const anthropic = (baseURL: string) => new Anthropic({ apiKey: 'sk-svc-proxy-test', baseURL, maxRetries: 0 });
const openai = (baseURL: string) => new OpenAI({ apiKey: 'sk-svc-proxy-test', baseURL, maxRetries: 0 });
const messageStart = {
  event: 'message_start',
  data: { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 0 } } },
};

describe('a request ended by the daemon while a target is asked', () => {
  it('key revoked while a group stream holds its envelope: a 401, the attempt logged with invalid_api_key, no answerer, no later target', async () => {
    const { h } = t;
    h.mocks.anthropic.next({ kind: 'sse', events: [messageStart], ending: 'stall' });
    const asked = anthropic(h.groupB('team')).messages.create({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true });
    const rec = await h.mocks.anthropic.waitForGeneration();
    // the envelope is sent (the proxy holds it while a target is left); whether the proxy has read
    // its headers yet or not, the attempt is logged with the revoke's code
    while (rec.streamed === undefined || rec.streamed.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    expect(h.handler.endRevoked!(new Set())).toBe(1);
    await expect(asked).rejects.toMatchObject({ status: 401, error: { error: { type: 'authentication_error', code: 'invalid_api_key' } } });
    await rec.done;
    expect(rec.closedEarly).toBe(true);
    const [entry] = await h.waitForLogs(1);
    // the handler has unwound by now: the upstream body was dropped and its relay settled
    await new Promise((r) => setTimeout(r, 50));
    expect(entry).toMatchObject({ status: 401, errorCode: 'invalid_api_key', attempts: [{ target: 'anthropic/claude-sonnet-4-5', errorCode: 'invalid_api_key' }] });
    expect(entry!.attempts).toHaveLength(1);
    expect(entry!.provider).toBeUndefined();
    expect(h.mocks.openai.generations()).toHaveLength(0);
  });

  it('the drain deadline while a whole answer is awaited: a 503, the attempt logged with shutting_down', async () => {
    const { h } = t;
    h.mocks.anthropic.next({ kind: 'hang' });
    const asked = openai(h.a).chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] });
    const rec = await h.mocks.anthropic.waitForGeneration();
    expect(h.handler.endInFlight!()).toBe(1);
    await expect(asked).rejects.toMatchObject({ status: 503, code: 'shutting_down' });
    await rec.done;
    const [entry] = await h.waitForLogs(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(entry).toMatchObject({ status: 503, errorCode: 'shutting_down', attempts: [{ target: 'anthropic/claude-sonnet-4-5', status: 0, errorCode: 'shutting_down' }] });
    expect(entry!.attempts).toHaveLength(1);
  });

  it('a client that leaves a group count_tokens while its first target is asked: that attempt is logged as client_disconnected, the next is not asked', async () => {
    const { h } = t;
    h.mocks.anthropic.on('/v1/messages/count_tokens', { kind: 'hang' });
    const controller = new AbortController();
    const counted = anthropic(h.groupB('team')).messages.countTokens({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal });
    const rec = await h.mocks.anthropic.waitForRequest((r) => r.path === '/v1/messages/count_tokens');
    controller.abort();
    await expect(counted).rejects.toThrow(/abort/i);
    await rec.done;
    expect(rec.closedEarly).toBe(true);
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ endpoint: 'count_tokens', status: 499, errorCode: 'client_disconnected', attempts: [{ target: 'anthropic/claude-sonnet-4-5', status: 0, errorCode: 'client_disconnected' }] });
    expect(h.mocks.openai.requests).toHaveLength(0);
  });
});

describe('a request ended by the daemon while a call other than a generation is under way', () => {
  it('key revoked while a custom endpoint transcribes: a 401, the attempt logged with invalid_api_key', async () => {
    const { h } = t;
    h.mocks.ca.on('/v1/audio/transcriptions', { kind: 'hang' });
    const file = new File([Buffer.alloc(5000, 3)], 'a.wav', { type: 'audio/wav' });
    const asked = openai(h.a).audio.transcriptions.create({ model: 'ca/whisper-large-v3', file });
    const rec = await h.mocks.ca.waitForRequest((r) => r.path === '/v1/audio/transcriptions');
    expect(h.handler.endRevoked!(new Set())).toBe(1);
    await expect(asked).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    await rec.done;
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ endpoint: 'transcriptions', status: 401, errorCode: 'invalid_api_key', attempts: [{ target: 'ca/whisper-large-v3', status: 0, errorCode: 'invalid_api_key' }] });
  });

  it('the drain deadline while a stored response is read from OpenAI: a 503, the attempt logged with shutting_down', async () => {
    const { h } = t;
    h.mocks.openai.on('/v1/responses/resp_1', { kind: 'hang' });
    const asked = openai(h.a).responses.retrieve('resp_1');
    const rec = await h.mocks.openai.waitForRequest((r) => r.path === '/v1/responses/resp_1');
    expect(h.handler.endInFlight!()).toBe(1);
    await expect(asked).rejects.toMatchObject({ status: 503, code: 'shutting_down' });
    await rec.done;
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ endpoint: 'stored_response.retrieve', status: 503, errorCode: 'shutting_down', attempts: [{ target: 'openai', status: 0, errorCode: 'shutting_down' }] });
  });
});

describe('an audio upload the daemon refuses while relaying it', () => {
  const small = useHarness({ settings: { headersTimeoutMs: 5_000, bodyLimitBytes: 64 * 1024 } });

  it('over the body limit once the endpoint has it: a 413, the attempt it cut logged with request_too_large', async () => {
    const { h } = small;
    h.mocks.ca.on('/v1/audio/transcriptions', { kind: 'hang' });
    const { request } = await import('node:http');
    const head = '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nca/whisper-1\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\n';
    // no Content-Length: the upload is relayed as it comes, and refused when its count passes the limit
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${h.a}/audio/transcriptions`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b', authorization: 'Bearer sk-svc-proxy-test' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.write(head);
      // the rest once the endpoint is called (the mock records a request only when its body is whole)
      const accepted = h.mocks.ca.connectionsAccepted;
      const more = (): void => {
        if (h.mocks.ca.connectionsAccepted === accepted) return void setTimeout(more, 5);
        for (let i = 0; i < 8; i++) req.write(Buffer.alloc(16 * 1024, 7));
      };
      more();
    });
    expect(status).toBe(413);
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ endpoint: 'transcriptions', status: 413, errorCode: 'request_too_large', attempts: [{ target: 'ca/whisper-1', status: 0, errorCode: 'request_too_large' }] });
  });
});

describe('a stream ended by the daemon while it waits for the continuation of a paused turn', () => {
  it('key revoked: the stream ends with invalid_api_key and the continuation call is dropped too', async () => {
    const { h } = t;
    const mock = h.mocks.anthropic;
    mock.next({ kind: 'turn', turn: { webSearches: [{ query: 'q', pages: [{ url: 'https://example.com/a', title: 'A' }] }], finish: 'pause' } }, { kind: 'hang' });
    const stream = await openai(h.a).responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'search', tools: [{ type: 'web_search' }], stream: true });
    const continuation = await mock.waitForGeneration({ since: 1 });
    expect(h.handler.endRevoked!(new Set())).toBe(1);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.slice(-2)).toEqual(['error', 'response.failed']);
    // dropped with the answer, not left to the headers timeout
    await Promise.race([continuation.done, new Promise((r) => setTimeout(r, 2_000))]);
    expect(continuation.closedEarly, 'the continuation call was still open').toBe(true);
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ status: 200, errorCode: 'invalid_api_key' });
    // the continuation call is in the log too, after the attempt it continued
    expect(entry!.attempts).toEqual([
      expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', status: 200, errorCode: 'invalid_api_key' }),
      expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', status: 0, errorCode: 'invalid_api_key', continued: true }),
    ]);
  });

  it('a whole answer the client leaves while its turn is continued: both calls logged as client_disconnected', async () => {
    const { h } = t;
    const mock = h.mocks.anthropic;
    mock.next({ kind: 'turn', turn: { webSearches: [{ query: 'q', pages: [{ url: 'https://example.com/a', title: 'A' }] }], finish: 'pause' } }, { kind: 'hang' });
    const controller = new AbortController();
    const asked = openai(h.a).responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'search', tools: [{ type: 'web_search' }] }, { signal: controller.signal });
    const continuation = await mock.waitForGeneration({ since: 1 });
    controller.abort();
    await expect(asked).rejects.toThrow(/abort/i);
    await continuation.done;
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ status: 499, errorCode: 'client_disconnected' });
    expect(entry!.attempts).toEqual([
      expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', status: 200, errorCode: 'client_disconnected' }),
      expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', status: 0, errorCode: 'client_disconnected', continued: true }),
    ]);
  });
});

describe('a stream whose headers went out early (streamHeadersAfterMs), its key revoked while its upstream has not answered', () => {
  const early = useHarness({ settings: { headersTimeoutMs: 5_000, streamHeadersAfterMs: 50 } });

  it('ends with the final invalid_api_key event the SDK throws, and the upstream call is dropped', async () => {
    const { h } = early;
    h.mocks.anthropic.next({ kind: 'hang' });
    const stream = await anthropic(h.b).messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true });
    // the SDK has the 200 headers the daemon sent early (a comment follows, no event)
    const rec = await h.mocks.anthropic.waitForGeneration();
    expect(h.handler.endRevoked!(new Set())).toBe(1);
    const read = (async () => {
      for await (const event of stream) void event;
    })();
    await expect(read).rejects.toMatchObject({ error: { type: 'error', error: { type: 'authentication_error', code: 'invalid_api_key' } } });
    await rec.done;
    expect(rec.closedEarly).toBe(true);
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ status: 200, errorCode: 'invalid_api_key', attempts: [{ target: 'anthropic/claude-sonnet-4-5', status: 0, errorCode: 'invalid_api_key' }] });
  });
});
