/**
 * Bad input through the real daemon, on each base: every malformed request gets a clean error in
 * the client's protocol shape with a stable code, nothing reaches an upstream, the request is
 * logged, and the daemon keeps serving. Body limit (413 without reading the rest) and header
 * abuse (431, many headers, keys with whitespace or unicode) too.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crashLines, expectShapeA, expectShapeB, M, rawExchange, send, startLean, type Lean } from './helpers.js';

const LIMIT = 1024 * 1024;
let w: Lean;

beforeAll(async () => {
  w = await startLean({ settings: { bodyLimitBytes: LIMIT } });
}, 60_000);
afterAll(async () => w?.close());
beforeEach(() => w.reset());

const CHAT = '/protocol-a/v1/chat/completions';
const RESPONSES = '/protocol-a/v1/responses';
const MESSAGES = '/protocol-b/v1/messages';

const PNG_DATA = 'iVBORw0KGgo=';
const user = (content: unknown) => ({ role: 'user', content });

interface Case {
  name: string;
  body: unknown;
  status: number;
  code: string;
  headers?: Record<string, string>;
}

/** Cases every base shares: the request-level checks made before any dialect decoding. */
function common(model: string, valid: Record<string, unknown>): Case[] {
  return [
    { name: 'malformed JSON', body: `{"model":"${model}",`, status: 400, code: 'invalid_json' },
    { name: 'wrong content type', body: JSON.stringify(valid), headers: { 'content-type': 'text/plain' }, status: 415, code: 'invalid_content_type' },
    { name: 'form content type', body: 'model=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'invalid_content_type' },
    { name: 'body is an array', body: '[1,2,3]', status: 400, code: 'invalid_request' },
    { name: 'body is a string', body: '"hello"', status: 400, code: 'invalid_request' },
    { name: 'body is null', body: 'null', status: 400, code: 'invalid_request' },
    { name: 'empty body', body: '', status: 400, code: 'invalid_json' },
    { name: 'model is a number', body: { ...valid, model: 42 }, status: 400, code: 'invalid_model' },
    { name: 'model is an object', body: { ...valid, model: { id: model } }, status: 400, code: 'invalid_model' },
    { name: 'model missing', body: { ...valid, model: undefined }, status: 400, code: 'invalid_model' },
    { name: 'model without provider', body: { ...valid, model: 'gpt-5' }, status: 400, code: 'invalid_model' },
  ];
}

const chatValid = { model: M.anthropic, messages: [user('hi')] };
const chatCases: Case[] = [
  ...common(M.anthropic, chatValid),
  { name: 'messages is a string', body: { model: M.anthropic, messages: 'hello' }, status: 400, code: 'invalid_messages' },
  { name: 'empty messages', body: { model: M.anthropic, messages: [] }, status: 400, code: 'invalid_messages' },
  { name: 'unknown role', body: { model: M.anthropic, messages: [{ role: 'wizard', content: 'hi' }] }, status: 400, code: 'invalid_messages' },
  { name: 'unknown content part', body: { model: M.anthropic, messages: [user([{ type: 'hologram', x: 1 }])] }, status: 400, code: 'invalid_content_part' },
  { name: 'image URL that is not a URL', body: { model: M.anthropic, messages: [user([{ type: 'image_url', image_url: { url: 'not a url' } }])] }, status: 400, code: 'invalid_image' },
  { name: 'image data URL that is not base64', body: { model: M.anthropic, messages: [user([{ type: 'image_url', image_url: { url: 'data:image/png;base64,@@not base64@@' } }])] }, status: 400, code: 'invalid_image' },
  {
    name: 'tool call without its result',
    body: { model: M.anthropic, messages: [user('x'), { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, user('y')] },
    status: 400,
    code: 'invalid_tool_call',
  },
  { name: 'tool result without its call', body: { model: M.anthropic, messages: [user('x'), { role: 'tool', tool_call_id: 'zz', content: 'r' }] }, status: 400, code: 'invalid_tool_call' },
  { name: 'max_tokens absurdly large', body: { ...chatValid, max_tokens: 1e15 }, status: 400, code: 'invalid_max_tokens' },
  { name: 'max_tokens negative', body: { ...chatValid, max_tokens: -5 }, status: 400, code: 'invalid_max_tokens' },
  { name: 'max_tokens a string', body: { ...chatValid, max_tokens: 'lots' }, status: 400, code: 'invalid_max_tokens' },
  { name: 'temperature a string', body: { ...chatValid, temperature: 'hot' }, status: 400, code: 'invalid_request' },
  { name: 'unknown reasoning effort', body: { ...chatValid, reasoning_effort: 'extreme' }, status: 400, code: 'invalid_reasoning' },
];

const respValid = { model: M.anthropic, input: 'hi' };
const responsesCases: Case[] = [
  ...common(M.anthropic, respValid),
  { name: 'input is a number', body: { model: M.anthropic, input: 42 }, status: 400, code: 'invalid_input' },
  { name: 'empty input list', body: { model: M.anthropic, input: [] }, status: 400, code: 'invalid_input' },
  { name: 'empty input string', body: { model: M.anthropic, input: '' }, status: 400, code: 'invalid_input' },
  { name: 'unknown role', body: { model: M.anthropic, input: [{ role: 'wizard', content: 'hi' }] }, status: 400, code: 'invalid_input' },
  { name: 'unknown content part', body: { model: M.anthropic, input: [user([{ type: 'hologram' }])] }, status: 400, code: 'invalid_content_part' },
  { name: 'image URL that is not a URL', body: { model: M.anthropic, input: [user([{ type: 'input_image', image_url: 'not a url' }])] }, status: 400, code: 'invalid_image' },
  { name: 'image data URL that is not base64', body: { model: M.anthropic, input: [user([{ type: 'input_image', image_url: 'data:image/png;base64,@@@' }])] }, status: 400, code: 'invalid_image' },
  {
    name: 'function call without its output',
    body: { model: M.anthropic, input: [user('x'), { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }, user('y')] },
    status: 400,
    code: 'invalid_tool_call',
  },
  { name: 'function output without its call', body: { model: M.anthropic, input: [user('x'), { type: 'function_call_output', call_id: 'zz', output: 'r' }] }, status: 400, code: 'invalid_tool_call' },
  { name: 'max_output_tokens absurdly large', body: { ...respValid, max_output_tokens: 1e15 }, status: 400, code: 'invalid_max_tokens' },
  { name: 'max_output_tokens negative', body: { ...respValid, max_output_tokens: -1 }, status: 400, code: 'invalid_max_tokens' },
  { name: 'max_output_tokens a string', body: { ...respValid, max_output_tokens: '9' }, status: 400, code: 'invalid_max_tokens' },
  { name: 'unknown reasoning effort', body: { ...respValid, reasoning: { effort: 'extreme' } }, status: 400, code: 'invalid_reasoning' },
];

const msgValid = { model: M.openai, max_tokens: 100, messages: [user('hi')] };
const messagesCases: Case[] = [
  ...common(M.openai, msgValid),
  { name: 'messages is an object', body: { ...msgValid, messages: { role: 'user' } }, status: 400, code: 'invalid_messages' },
  { name: 'empty messages', body: { ...msgValid, messages: [] }, status: 400, code: 'invalid_messages' },
  { name: 'unknown role', body: { ...msgValid, messages: [{ role: 'wizard', content: 'hi' }] }, status: 400, code: 'invalid_messages' },
  { name: 'unknown content block', body: { ...msgValid, messages: [user([{ type: 'hologram' }])] }, status: 400, code: 'invalid_content_part' },
  {
    name: 'image URL that is not a URL',
    body: { ...msgValid, messages: [user([{ type: 'image', source: { type: 'url', url: 'not a url' } }])] },
    status: 400,
    code: 'invalid_image',
  },
  {
    name: 'image base64 that is not base64',
    body: { ...msgValid, messages: [user([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: '@@ not base64 @@' } }])] },
    status: 400,
    code: 'invalid_image',
  },
  {
    name: 'tool_use without its tool_result',
    body: { ...msgValid, messages: [user('x'), { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] }, user('y')] },
    status: 400,
    code: 'invalid_tool_call',
  },
  { name: 'tool_result without its tool_use', body: { ...msgValid, messages: [user([{ type: 'tool_result', tool_use_id: 'zz', content: 'r' }])] }, status: 400, code: 'invalid_tool_call' },
  { name: 'max_tokens absurdly large', body: { ...msgValid, max_tokens: 1e15 }, status: 400, code: 'invalid_max_tokens' },
  { name: 'max_tokens zero', body: { ...msgValid, max_tokens: 0 }, status: 400, code: 'invalid_max_tokens' },
  { name: 'max_tokens a string', body: { ...msgValid, max_tokens: 'x' }, status: 400, code: 'invalid_max_tokens' },
  { name: 'unknown reasoning effort', body: { ...msgValid, output_config: { effort: 'extreme' } }, status: 400, code: 'invalid_reasoning' },
];

const BASES = [
  { base: 'chat', path: CHAT, cases: chatCases, shape: expectShapeA, valid: chatValid },
  { base: 'responses', path: RESPONSES, cases: responsesCases, shape: expectShapeA, valid: respValid },
  { base: 'messages', path: MESSAGES, cases: messagesCases, shape: expectShapeB, valid: msgValid },
] as const;

/** A valid image in each dialect is accepted (so the image cases above fail for the right reason). */
const VALID_IMAGES = [
  { path: CHAT, body: { model: M.anthropic, messages: [user([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_DATA}` } }, { type: 'text', text: 'what?' }])] } },
  { path: RESPONSES, body: { model: M.anthropic, input: [user([{ type: 'input_image', image_url: 'https://example.com/cat.png' }, { type: 'input_text', text: 'what?' }])] } },
  { path: MESSAGES, body: { ...msgValid, messages: [user([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_DATA } }, { type: 'text', text: 'what?' }])] } },
  { path: MESSAGES, body: { ...msgValid, messages: [user([{ type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } }, { type: 'text', text: 'what?' }])] } },
];

describe.each(BASES)('bad input on the $base base', ({ path, cases, shape, valid }) => {
  it.each(cases)('$name → $status $code, nothing sent upstream', async (c) => {
    const r = await send(w.d, path, { body: c.body, headers: c.headers });
    shape(r, c.status, c.code);
    // the message is for a human: not empty, not a stack trace
    const message = (r.json as { error: { message: string } }).error.message;
    expect(message.length).toBeGreaterThan(5);
    expect(message).not.toMatch(/\n\s+at /);
    expect([...w.anthropic.generations(), ...w.openai.generations(), ...w.chat.generations()]).toHaveLength(0);
  });

  it('still answers a valid request afterwards', async () => {
    const r = await send(w.d, path, { body: valid });
    expect(r.status, r.text).toBe(200);
  });
});

describe('bad input: the daemon afterwards', () => {
  it('valid images pass the same checks', async () => {
    for (const { path, body } of VALID_IMAGES) {
      const r = await send(w.d, path, { body });
      expect(r.status, `${path}: ${r.text}`).toBe(200);
    }
  });

  it('logged every refusal with its status and code; no crash in the daemon output', async () => {
    const total = chatCases.length + responsesCases.length + messagesCases.length;
    const entries = await w.d.logs((e) => e.filter((x) => x.status === 400 || x.status === 415).length >= total);
    const refused = entries.filter((x) => x.status === 400 || x.status === 415);
    expect(refused.length).toBeGreaterThanOrEqual(total);
    for (const e of refused) expect(typeof e.errorCode).toBe('string');
    expect(crashLines(w.d.log)).toEqual([]);
  });
});

describe('body over the limit (settings.bodyLimitBytes)', () => {
  it('declared by Content-Length → 413 request_too_large before the body is sent; connection closed', async () => {
    const text = await rawExchange(
      w.d.port,
      `POST ${CHAT} HTTP/1.1\r\nHost: 127.0.0.1:${w.d.port}\r\nAuthorization: Bearer ${w.d.key}\r\nContent-Type: application/json\r\nContent-Length: ${LIMIT * 8}\r\n\r\n{"model":`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain('"code":"request_too_large"');
    // protocol B gets its own shape
    const b = await rawExchange(
      w.d.port,
      `POST ${MESSAGES} HTTP/1.1\r\nHost: 127.0.0.1:${w.d.port}\r\nx-api-key: ${w.d.key}\r\nContent-Type: application/json\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`,
    );
    expect(b).toMatch(/^HTTP\/1\.1 413 /);
    expect(b).toContain('"type":"request_too_large"');
  });

  it('a chunked body that keeps coming → 413, and the daemon stops reading and closes the socket', async () => {
    const CAP = 64 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const frame = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    const result = await new Promise<{ response: string; sent: number; closed: boolean; ms: number }>((resolve) => {
      let sent = 0;
      let response = '';
      let closed = false;
      let at413 = 0;
      const sock = connect(w.d.port, '127.0.0.1');
      const done = () => resolve({ response, sent, closed, ms: at413 ? Date.now() - at413 : -1 });
      const pump = (): void => {
        while (!closed && sent < CAP) {
          sent += piece.length;
          if (!sock.write(frame)) return void sock.once('drain', pump);
        }
      };
      sock.on('connect', () => {
        sock.write(`POST ${CHAT} HTTP/1.1\r\nHost: 127.0.0.1:${w.d.port}\r\nAuthorization: Bearer ${w.d.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        pump();
      });
      sock.on('data', (c: Buffer) => {
        response += c.toString('latin1');
        if (!at413 && response.startsWith('HTTP/1.1 413')) at413 = Date.now();
      });
      sock.on('end', () => {
        closed = true;
        sock.destroy();
      });
      sock.on('error', () => {
        closed = true;
      });
      sock.on('close', () => {
        closed = true;
        done();
      });
      setTimeout(() => {
        if (!closed) sock.destroy();
      }, 10_000);
    });
    expect(result.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.response).toContain('request_too_large');
    expect(result.closed).toBe(true);
    // The daemon read about the limit; what else left the client sat in socket buffers.
    expect(result.sent).toBeLessThan(CAP / 2);
    expect(result.ms).toBeLessThan(2_000);
    expect((await send(w.d, CHAT, { body: chatValid })).status).toBe(200);
  });

  it('clients that send a big body in one go (as SDKs do) read the 413, not a connection reset', async () => {
    const body = Buffer.alloc(8 * LIMIT, 0x20);
    const one = () =>
      new Promise<string>((resolve) => {
        const req = request(`${w.d.origin}${CHAT}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${w.d.key}` } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(`${res.statusCode} ${text}`));
          res.on('error', (e: NodeJS.ErrnoException) => resolve(`${res.statusCode} ${e.code}`));
        });
        req.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code}`));
        req.end(body);
      });
    const results = await Promise.all(Array.from({ length: 12 }, one));
    for (const r of results) expect(r).toMatch(/^413 .*request_too_large/);
  });

  it('a body just under the limit is read and checked normally', async () => {
    const filler = 'x'.repeat(LIMIT - 200);
    const r = await send(w.d, CHAT, { body: { model: M.anthropic, messages: [user(filler)] } });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
  });
});

describe('compressed request bodies (Content-Encoding)', () => {
  const chatBody = (model: string) => ({ model, messages: [user('hello from a compressed body')], max_tokens: 50 });
  const messagesBody = { model: M.anthropic, max_tokens: 50, messages: [user('hello from a compressed body')] };

  it('gzip, br and deflate bodies are decoded: converted and passthrough, the upstream gets plain JSON', async () => {
    const converted = await send(w.d, CHAT, { body: gzipSync(JSON.stringify(chatBody(M.anthropic))), headers: { 'content-encoding': 'gzip' } });
    expect(converted.status, converted.text).toBe(200);
    const toAnthropic = w.anthropic.requests.at(-1)!;
    expect(toAnthropic.headers['content-encoding']).toBeUndefined();
    expect(toAnthropic.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello from a compressed body' }] }]);

    const passthrough = await send(w.d, MESSAGES, { body: brotliCompressSync(JSON.stringify(messagesBody)), headers: { 'content-encoding': 'br' } });
    expect(passthrough.status, passthrough.text).toBe(200);
    expect(w.anthropic.requests.at(-1)!.body.messages).toEqual(messagesBody.messages);

    const toChat = await send(w.d, CHAT, { body: deflateSync(JSON.stringify(chatBody(M.chat))), headers: { 'content-encoding': 'deflate' } });
    expect(toChat.status, toChat.text).toBe(200);
    const rec = w.chat.requests.at(-1)!;
    expect(rec.headers['content-encoding']).toBeUndefined();
    expect(rec.body.messages).toEqual([{ role: 'user', content: 'hello from a compressed body' }]);
  });

  it('an unknown coding → 415, a body that is not what it says → 400, one that expands past the limit → 413; nothing reaches an upstream', async () => {
    expectShapeA(await send(w.d, CHAT, { body: JSON.stringify(chatBody(M.anthropic)), headers: { 'content-encoding': 'compress' } }), 415, 'unsupported_content_encoding');
    expectShapeB(await send(w.d, MESSAGES, { body: JSON.stringify(messagesBody), headers: { 'content-encoding': 'gzip' } }), 400, 'invalid_content_encoding');
    const bomb = gzipSync(Buffer.alloc(LIMIT * 8, 0x20));
    expectShapeA(await send(w.d, RESPONSES, { body: bomb, headers: { 'content-encoding': 'gzip' } }), 413, 'request_too_large');
    expect(w.anthropic.requests.length + w.openai.requests.length + w.chat.requests.length).toBe(0);
    expect(crashLines(w.d.log)).toEqual([]);
  });
});

describe('header abuse', () => {
  const head = (lines: string) => `GET /protocol-a/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${w.d.port}\r\nConnection: close\r\n${lines}\r\n`;

  it('huge headers → 431; many headers → 431 past the header size, served below it', async () => {
    expect(await rawExchange(w.d.port, head(`x-api-key: ${'k'.repeat(64 * 1024)}\r\n`))).toMatch(/^HTTP\/1\.1 431/);
    const many = (n: number) => Array.from({ length: n }, (_, i) => `x-h${i}: v\r\n`).join('');
    expect(await rawExchange(w.d.port, head(many(5_000)))).toMatch(/^HTTP\/1\.1 431/);
    expect(await rawExchange(w.d.port, head(`${many(200)}Authorization: Bearer ${w.d.key}\r\n`))).toMatch(/^HTTP\/1\.1 200/);
  });

  it('keys with whitespace, unicode or control characters → a clean 401 or 400, never a crash', async () => {
    const key = w.d.key;
    const whitespace = await rawExchange(w.d.port, head(`x-api-key: ${key.slice(0, 20)} ${key.slice(20)}\r\n`));
    expect(whitespace).toMatch(/^HTTP\/1\.1 401[\s\S]*"code":"invalid_api_key"/);
    const tab = await rawExchange(w.d.port, head(`authorization: Bearer ${key.slice(0, 20)}\t${key.slice(20)}\r\n`));
    expect(tab).toMatch(/^HTTP\/1\.1 401[\s\S]*"code":"invalid_api_key"/);
    const unicode = await rawExchange(w.d.port, Buffer.from(head(`x-api-key: ${key}\u00e9\u{1F511}\r\n`), 'utf8'));
    expect(unicode).toMatch(/^HTTP\/1\.1 401[\s\S]*"code":"invalid_api_key"/);
    const unicodeName = await rawExchange(w.d.port, Buffer.from(head(`x-\u00e4pi-key: ${key}\r\n`), 'utf8'));
    expect(unicodeName).toMatch(/^HTTP\/1\.1 400/);
    const control = await rawExchange(w.d.port, head(`x-api-key: ${key}\u0001\r\n`));
    expect(control).toMatch(/^HTTP\/1\.1 (400|401)/);
    const spaceInName = await rawExchange(w.d.port, head(`x api key: ${key}\r\n`));
    expect(spaceInName).toMatch(/^HTTP\/1\.1 400/);
    // the valid key still works on the same daemon
    expect((await send(w.d, '/protocol-a/v1/models')).status).toBe(200);
    expect(crashLines(w.d.log)).toEqual([]);
  });
});
