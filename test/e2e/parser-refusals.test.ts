/**
 * Requests node's HTTP parser refuses before they become requests (a header that is not valid
 * HTTP, headers over its limit) are answered on the real binary in the base's error shape with a
 * stable code, and logged — whatever form the request line takes.
 */
import Anthropic from '@anthropic-ai/sdk';
import { connect } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';

let d: TestDaemon;

beforeAll(async () => {
  d = await startDaemon();
}, 60_000);
afterAll(() => stopDaemon(d));

/** Raw bytes in, the whole answer out (the daemon closes the connection after a refusal). */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const sock = connect(d.port, '127.0.0.1', () => sock.write(bytes, 'latin1'));
    let text = '';
    sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
    sock.on('close', () => resolve(text));
    sock.on('error', () => resolve(text));
  });
}

function answerOf(text: string): { status: number; headers: string; body: Record<string, unknown> } {
  const split = text.indexOf('\r\n\r\n');
  return { status: Number(text.slice(9, 12)), headers: text.slice(0, split), body: JSON.parse(text.slice(split + 4)) as Record<string, unknown> };
}

const logged = (code: string, n: number) => d.logs((e) => e.filter((x) => x.errorCode === code).length >= n).then((e) => e.filter((x) => x.errorCode === code));
const shape = (e: RequestLogEntry) => [e.base, e.endpoint, e.status, e.errorCode];

describe('a header node cannot parse', () => {
  it('is a 400 malformed_request in the base\'s shape, with the parser\'s reason and not the client\'s bytes, and logged', async () => {
    const key = d.key;
    const a = answerOf(await raw(`POST /protocol-a/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\nAuthorization: Bearer ${key}\r\nx-team name: 42\r\ncontent-length: 2\r\n\r\n{}`));
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'malformed_request', message: expect.stringContaining('Invalid header token') } });
    const b = answerOf(await raw(`POST /g/team/protocol-b/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\nx-api-key: ${key}\r\nx-trace: a\x01b\r\ncontent-length: 2\r\n\r\n{}`));
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 'malformed_request', message: expect.stringContaining('Invalid header value char') } });
    const twice = answerOf(await raw(`POST /protocol-b/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}`));
    expect(twice).toMatchObject({ status: 400, body: { type: 'error', error: { code: 'malformed_request' } } });
    for (const answer of [a, b, twice]) expect(JSON.stringify(answer)).not.toContain(key);
    const entries = await logged('malformed_request', 3);
    expect(entries.map(shape)).toEqual([
      ['provider', 'chat', 400, 'malformed_request'],
      ['group:team', 'messages', 400, 'malformed_request'],
      ['provider', 'messages', 400, 'malformed_request'],
    ]);
    expect(a.headers).toContain(`x-svc-request-id: ${entries[0]!.id}`);
    // off the proxy bases the answer stays node's bare one, and the daemon keeps serving
    expect(await raw(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\nbad name: 1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*content-length: 0\r\n\r\n$/);
    expect((await fetch(`${d.origin}/health`)).status).toBe(200);
  });

  it('reaches the official SDKs as a 400 with its code (a tool configured with a bad custom header)', async () => {
    // the SDKs' fetch refuses a header name with a space before sending: the request is written by hand
    const openai = new OpenAI({ apiKey: d.key, baseURL: d.baseA(), maxRetries: 0, fetch: rawFetch('x-team name: 42') });
    const refusedA = await openai.chat.completions.create({ model: 'openai/gpt-5.4', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(refusedA).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refusedA).toMatchObject({ status: 400, code: 'malformed_request' });
    const anthropic = new Anthropic({ apiKey: d.key, baseURL: d.baseB(), maxRetries: 0, fetch: rawFetch('x-team name: 42') });
    const refusedB = await anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(refusedB).toBeInstanceOf(Anthropic.BadRequestError);
    expect(refusedB).toMatchObject({ status: 400, error: { type: 'error', error: { code: 'malformed_request' } } });
  });
});

describe('headers over the limit on an absolute-form request line', () => {
  it('get the shaped, logged 431 (the base is in the URL\'s path)', async () => {
    const big = 'k'.repeat(64 * 1024);
    const a = answerOf(await raw(`POST http://127.0.0.1:${d.port}/protocol-a/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\nx-custom: ${big}\r\n\r\n`));
    expect(a).toMatchObject({ status: 431, body: { error: { type: 'invalid_request_error', code: 'request_headers_too_large' } } });
    const b = answerOf(await raw(`POST http://localhost:${d.port}/g/team/protocol-b/v1/messages?beta=true HTTP/1.1\r\nHost: localhost:${d.port}\r\nx-custom: ${big}\r\n\r\n`));
    expect(b).toMatchObject({ status: 431, body: { type: 'error', error: { code: 'request_headers_too_large' } } });
    const entries = await logged('request_headers_too_large', 2);
    expect(entries.map(shape)).toEqual([
      ['provider', 'chat', 431, 'request_headers_too_large'],
      ['group:team', 'messages', 431, 'request_headers_too_large'],
    ]);
    // an absolute-form line off the proxy bases stays bare
    expect(await raw(`GET http://127.0.0.1:${d.port}/health HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\nx-custom: ${big}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431 [^\r]*\r\n[\s\S]*content-length: 0\r\n\r\n$/);
  });
});

/**
 * A fetch for the SDKs that writes their request by hand with one extra header line, as a tool with
 * a badly written custom header sends it (their own fetch would refuse the header before sending).
 */
function rawFetch(extraLine: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : '';
    let head = `${init?.method ?? 'GET'} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n`;
    headers.forEach((value, name) => {
      if (name !== 'content-length') head += `${name}: ${value}\r\n`;
    });
    head += `${extraLine}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const text = await raw(head + body);
    const answer = answerOf(text);
    const answerHeaders = new Headers();
    for (const line of answer.headers.split('\r\n').slice(1)) {
      const colon = line.indexOf(':');
      answerHeaders.append(line.slice(0, colon), line.slice(colon + 1).trim());
    }
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answerHeaders });
  }) as typeof fetch;
}
