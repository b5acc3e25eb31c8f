import Anthropic from '@anthropic-ai/sdk';
import { request } from 'node:http';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsSchema, type ServiceKeyRecord, type Settings } from '../../src/config/schema.js';
import { displayPrefix, generateServiceKey, hashServiceKey } from '../../src/keys/format.js';
import { KeyVerifier } from '../../src/keys/verifier.js';
import type { RequestLogEntry } from '../../src/log/entry.js';
import type { ProxyCaller, ProxyHandler, ProxyRoute } from '../../src/routing/proxy-handler.js';
import { ProxyServer, type NodeListener } from '../../src/server/proxy-server.js';
import { http } from '../daemon/harness.js';

const KEY = generateServiceKey();
const OTHER_KEY = generateServiceKey();

function rec(id: string, key: string): ServiceKeyRecord {
  return { id, name: `${id}-name`, hash: hashServiceKey(key), prefix: displayPrefix(key), created: '', lastUsed: null, revoked: null };
}

interface Harness {
  server: ProxyServer;
  origin: string;
  port: number;
  verifier: KeyVerifier;
  calls: Array<{ route: ProxyRoute; caller: ProxyCaller; url: string }>;
  errors: unknown[];
  /** What the server itself put in the request log (its refusals). */
  logged: RequestLogEntry[];
}

const running: ProxyServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.drain(100)));
});

async function start(
  opts: { settings?: Partial<Settings>; handle?: ProxyHandler['handle']; other?: NodeListener; bodyBytesHeld?: () => number; beforeListen?: (s: ProxyServer) => void } = {},
): Promise<Harness> {
  const calls: Harness['calls'] = [];
  const errors: unknown[] = [];
  const logged: RequestLogEntry[] = [];
  const verifier = new KeyVerifier([rec('k1', KEY), rec('k2', OTHER_KEY)]);
  const proxy: ProxyHandler = {
    handle:
      opts.handle ??
      (async (req, res, route, caller) => {
        calls.push({ route, caller, url: req.url ?? '' });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ route, caller }));
      }),
    close: async () => {},
    ...(opts.bodyBytesHeld ? { bodyBytesHeld: opts.bodyBytesHeld } : {}),
  };
  const server = new ProxyServer({
    verifier,
    proxy,
    other:
      opts.other ??
      ((_req, res) => {
        res.writeHead(299);
        res.end('other');
      }),
    settings: settingsSchema.parse(opts.settings ?? {}),
    onError: (err) => errors.push(err),
    log: (entry) => logged.push(entry),
  });
  opts.beforeListen?.(server);
  const port = await server.listen(0, '127.0.0.1');
  running.push(server);
  return { server, origin: `http://127.0.0.1:${port}`, port, verifier, calls, errors, logged };
}

describe('proxy server: authentication', () => {
  it('401 missing_api_key in the protocol A and protocol B shapes', async () => {
    const h = await start();
    const a = await http('POST', `${h.origin}/protocol-a/v1/chat/completions`, { body: '{}' });
    expect(a.status).toBe(401);
    expect(a.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(a.json()).toMatchObject({ error: { type: 'authentication_error', code: 'missing_api_key', param: null } });
    const b = await http('POST', `${h.origin}/protocol-b/v1/messages`, { body: '{}' });
    expect(b.status).toBe(401);
    expect(b.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error', code: 'missing_api_key' } });
    expect(h.calls).toHaveLength(0);
  });

  it('a blank or whitespace-only Authorization or x-api-key is no key: 401 missing_api_key in each shape', async () => {
    const h = await start();
    const { connect } = await import('node:net');
    const send = (path: string, headerLines: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(h.port, '127.0.0.1', () => sock.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nConnection: close\r\ncontent-type: application/json\r\ncontent-length: 2\r\n${headerLines}\r\n{}`, 'latin1'));
        let text = '';
        sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
        sock.on('close', () => resolve(text));
        sock.on('error', () => resolve(text));
      });
    const blanks = ['authorization:\r\n', 'authorization:   \t \r\n', 'authorization: Bearer   \r\n', 'authorization: bearer\t\r\n', 'x-api-key:\r\n', 'x-api-key:  \t \r\n', 'x-api-key: \xa0\r\n', 'authorization: \xa0\r\nx-api-key: \r\n', 'x-api-key: \r\nx-api-key: \r\n', 'authorization: Bearer \xa0\r\n'];
    for (const blank of blanks) {
      const a = await send('/protocol-a/v1/chat/completions', blank);
      expect(a, JSON.stringify(blank)).toMatch(/^HTTP\/1\.1 401/);
      expect(a, JSON.stringify(blank) + a).toContain('"code":"missing_api_key"');
      expect(a).toContain('"type":"authentication_error"');
      const b = await send('/protocol-b/v1/messages', blank);
      expect(b, JSON.stringify(blank)).toMatch(/^HTTP\/1\.1 401/);
      expect(b).toMatch(/"type":"error","error":\{"type":"authentication_error"/);
      expect(b, JSON.stringify(blank)).toContain('missing_api_key');
    }
    expect(h.calls).toHaveLength(0);
  });

  it('401 invalid_api_key for unknown keys, on group bases too', async () => {
    const h = await start();
    for (const headers of [{ authorization: 'Bearer sk-svc-proxy-nope' }, { 'x-api-key': 'sk-svc-proxy-nope' }] as Array<Record<string, string>>) {
      const r = await http('POST', `${h.origin}/g/team/protocol-b/v1/messages`, { headers, body: '{}' });
      expect(r.status).toBe(401);
      expect(r.json()).toMatchObject({ type: 'error', error: { code: 'invalid_api_key' } });
    }
    const weird = await http('GET', `${h.origin}/protocol-a/v1/models`, { headers: { 'x-api-key': 'k\u00e9y with spaces' } });
    expect(weird.status).toBe(401);
  });

  it('accepts Authorization: Bearer and x-api-key, and passes route and caller to the handler', async () => {
    const h = await start();
    const bearer = await http('POST', `${h.origin}/protocol-a/v1/chat/completions`, { headers: { authorization: `Bearer ${KEY}` }, body: '{}' });
    expect(bearer.status).toBe(200);
    expect(bearer.json()).toEqual({ route: { protocol: 'a', endpoint: 'chat' }, caller: { keyId: 'k1', keyName: 'k1-name' } });
    const apiKey = await http('POST', `${h.origin}/g/grp/protocol-b/v1/messages?beta=true`, { headers: { 'x-api-key': OTHER_KEY }, body: '{}' });
    expect(apiKey.json()).toEqual({ route: { protocol: 'b', group: 'grp', endpoint: 'messages' }, caller: { keyId: 'k2', keyName: 'k2-name' } });
    expect(h.calls[1]?.url).toBe('/g/grp/protocol-b/v1/messages?beta=true');
  });

  it('accepts a request where one of two headers holds a placeholder', async () => {
    const h = await start();
    const r = await http('POST', `${h.origin}/protocol-b/v1/messages`, { headers: { 'x-api-key': 'placeholder', authorization: `Bearer ${KEY}` }, body: '{}' });
    expect(r.status).toBe(200);
  });

  it('refuses a key the moment the verifier drops it', async () => {
    const h = await start();
    const url = `${h.origin}/protocol-a/v1/models`;
    expect((await http('GET', url, { headers: { 'x-api-key': KEY } })).status).toBe(200);
    h.verifier.load([rec('k2', OTHER_KEY)]);
    expect((await http('GET', url, { headers: { 'x-api-key': KEY } })).status).toBe(401);
    expect((await http('GET', url, { headers: { 'x-api-key': OTHER_KEY } })).status).toBe(200);
  });
});

describe('proxy server: routes and errors', () => {
  it('unknown paths, unsupported endpoints and wrong methods answer after auth, in the base\'s shape', async () => {
    const h = await start();
    const headers = { authorization: `Bearer ${KEY}` };
    const unknownB = await http('POST', `${h.origin}/protocol-b/v1/nope`, { headers });
    expect(unknownB.status).toBe(404);
    expect(unknownB.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error', code: 'not_found' } });
    const emb = await http('POST', `${h.origin}/protocol-a/v1/embeddings`, { headers });
    expect(emb.status).toBe(404);
    expect(emb.json()).toMatchObject({ error: { code: 'unsupported_endpoint', type: 'not_found_error' } });
    const speech = await http('POST', `${h.origin}/g/grp/protocol-a/v1/audio/speech`, { headers });
    expect(speech.json()).toMatchObject({ error: { code: 'unsupported_endpoint' } });
    const wrong = await http('GET', `${h.origin}/protocol-a/v1/chat/completions`, { headers });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    // Without a key, the same paths are 401: the route table is not an oracle for unauthenticated callers.
    expect((await http('POST', `${h.origin}/protocol-a/v1/embeddings`)).status).toBe(401);
    expect(h.calls).toHaveLength(0);
  });

  it('sends everything that is not a proxy base to the other listener', async () => {
    const h = await start();
    expect((await http('GET', `${h.origin}/health`)).status).toBe(299);
    expect((await http('GET', `${h.origin}/admin/status`)).status).toBe(299);
    expect((await http('GET', `${h.origin}/`)).status).toBe(299);
  });

  it('a handler that throws gives a 500 internal_error and is reported; the server keeps serving', async () => {
    let n = 0;
    const h = await start({
      handle: async (_req, res) => {
        n++;
        if (n === 1) throw new Error('kaboom with sk-secret-value');
        res.end('fine');
      },
    });
    const r = await http('POST', `${h.origin}/protocol-b/v1/messages`, { headers: { 'x-api-key': KEY } });
    expect(r.status).toBe(500);
    expect(r.json()).toMatchObject({ type: 'error', error: { code: 'internal_error' } });
    expect(r.text).not.toContain('kaboom');
    expect(h.errors).toHaveLength(1);
    expect((await http('POST', `${h.origin}/protocol-b/v1/messages`, { headers: { 'x-api-key': KEY } })).text).toBe('fine');
  });

  it('a crash outside the proxy bases (admin API, /health) is answered in the admin shape and reported', async () => {
    let n = 0;
    const h = await start({
      other: (_req, res) => {
        n++;
        if (n === 1) throw new Error('sync kaboom');
        if (n === 2) return Promise.reject(new Error('async kaboom'));
        res.writeHead(200);
        res.end('fine');
        return undefined;
      },
    });
    for (const path of ['/admin/status', '/health']) {
      const r = await http('GET', `${h.origin}${path}`);
      expect(r.status).toBe(500);
      expect(r.json()).toEqual({ error: { code: 'internal_error', message: expect.stringContaining('daemon log') } });
      expect(r.text).not.toContain('kaboom');
    }
    expect(h.errors).toHaveLength(2);
    expect((await http('GET', `${h.origin}/admin/status`)).text).toBe('fine');
  });
});

describe('proxy server: local security', () => {
  it('403 forbidden_host for a foreign Host header (DNS rebinding), in the base\'s shape', async () => {
    const h = await start();
    const r = await http('POST', `${h.origin}/protocol-b/v1/messages`, { headers: { host: `attacker.example:${h.port}`, 'x-api-key': KEY } });
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({ type: 'error', error: { code: 'forbidden_host', type: 'permission_error' } });
    const admin = await http('GET', `${h.origin}/admin/status`, { headers: { host: 'attacker.example' } });
    expect(admin.status).toBe(403);
    expect((await http('GET', `${h.origin}/health`, { headers: { host: `localhost:${h.port}` } })).status).toBe(299);
    expect(h.calls).toHaveLength(0);
  });

  it('403 forbidden_host for a request without a Host header (HTTP/1.0); HTTP/1.1 without one stays node\'s 400', async () => {
    const h = await start();
    const { connect } = await import('node:net');
    const send = (head: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(h.port, '127.0.0.1', () => sock.write(head));
        let text = '';
        sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
        sock.on('close', () => resolve(text));
        sock.on('error', () => resolve(text));
      });
    const body = '{"model":"a/b","messages":[]}';
    const proxy10 = await send(`POST /protocol-a/v1/chat/completions HTTP/1.0\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(proxy10).toMatch(/^HTTP\/1\.1 403/);
    expect(proxy10).toContain('"code":"forbidden_host"');
    expect(proxy10).toContain('without a Host header');
    expect(await send(`GET /protocol-b/v1/models HTTP/1.0\r\nx-api-key: ${KEY}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403[\s\S]*"type":"error"[\s\S]*forbidden_host/);
    expect(await send('GET /health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 403/);
    expect(await send(`GET /protocol-a/v1/models HTTP/1.1\r\nx-api-key: ${KEY}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    // with its Host, HTTP/1.0 is served
    expect(await send(`GET /protocol-a/v1/models HTTP/1.0\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200/);
    expect(h.calls).toHaveLength(1);
  });

  it('honours settings.allowedHosts after a reconfigure', async () => {
    const h = await start();
    const headers = { host: 'proxy.internal', 'x-api-key': KEY };
    expect((await http('GET', `${h.origin}/protocol-a/v1/models`, { headers })).status).toBe(403);
    h.server.reconfigure(settingsSchema.parse({ allowedHosts: ['proxy.internal'] }));
    expect((await http('GET', `${h.origin}/protocol-a/v1/models`, { headers })).status).toBe(200);
  });

  it('sends no CORS headers by default, even to a browser Origin', async () => {
    const h = await start();
    const pre = await http('OPTIONS', `${h.origin}/protocol-a/v1/chat/completions`, {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(Object.keys(pre.headers).filter((k) => k.startsWith('access-control'))).toEqual([]);
    const r = await http('GET', `${h.origin}/protocol-a/v1/models`, { headers: { origin: 'https://evil.example', 'x-api-key': KEY } });
    expect(Object.keys(r.headers).filter((k) => k.startsWith('access-control'))).toEqual([]);
  });

  it('answers preflights and echoes allowed origins when settings.corsOrigins lists them', async () => {
    const h = await start({ settings: { corsOrigins: ['https://app.example'] } });
    const pre = await http('OPTIONS', `${h.origin}/protocol-b/v1/messages`, {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type, anthropic-version' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(pre.headers['access-control-allow-headers']).toBe('x-api-key, content-type, anthropic-version');
    expect(pre.headers['access-control-allow-methods']).toContain('POST');
    const denied = await http('OPTIONS', `${h.origin}/protocol-b/v1/messages`, { headers: { origin: 'https://other.example', 'access-control-request-method': 'POST' } });
    expect(denied.status).toBe(403);
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
    const actual = await http('POST', `${h.origin}/protocol-b/v1/messages`, { headers: { origin: 'https://app.example', 'x-api-key': KEY } });
    expect(actual.status).toBe(200);
    expect(actual.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(h.calls).toHaveLength(1);
  });
});

describe('proxy server: header abuse', () => {
  it('answers oversized headers with 431 and keeps serving', async () => {
    const h = await start();
    const { connect } = await import('node:net');
    const raw = await new Promise<string>((resolve) => {
      const sock = connect(h.port, '127.0.0.1', () => {
        sock.write(`GET /protocol-a/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${'k'.repeat(64 * 1024)}\r\n\r\n`);
      });
      let text = '';
      sock.on('data', (c: Buffer) => (text += c.toString()));
      sock.on('close', () => resolve(text));
      sock.on('error', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431/);
    // in the base's error shape with a stable code, and logged with the route it was meant for
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'request_headers_too_large', type: 'invalid_request_error' } });
    expect(h.logged).toEqual([expect.objectContaining({ status: 431, errorCode: 'request_headers_too_large', endpoint: 'models', base: 'provider' })]);
    expect(raw).toContain(`x-svc-request-id: ${h.logged[0]!.id}`);
    expect((await http('GET', `${h.origin}/protocol-a/v1/models`, { headers: { 'x-api-key': KEY } })).status).toBe(200);
  });

  it('the official SDKs read oversized headers as a 431 with its code (a tool sending big custom headers), on a group base too', async () => {
    const h = await start();
    const big = { 'x-custom': 'v'.repeat(32 * 1024) };
    const openai = new OpenAI({ apiKey: KEY, baseURL: `${h.origin}/protocol-a/v1`, maxRetries: 0, defaultHeaders: big });
    const refusedA = await openai.chat.completions.create({ model: 'openai/gpt-5.4', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(refusedA).toBeInstanceOf(OpenAI.APIError);
    expect(refusedA).toMatchObject({ status: 431, code: 'request_headers_too_large', message: expect.stringMatching(/headers are larger than svc-proxy takes/) });
    const anthropic = new Anthropic({ apiKey: KEY, baseURL: `${h.origin}/g/team/protocol-b`, maxRetries: 0, defaultHeaders: big });
    const refusedB = await anthropic.messages.create({ model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(refusedB).toBeInstanceOf(Anthropic.APIError);
    expect(refusedB).toMatchObject({ status: 431, error: { type: 'error', error: { type: 'invalid_request_error', code: 'request_headers_too_large' } } });
    expect(h.logged.map((e) => [e.base, e.endpoint, e.status, e.errorCode])).toEqual([
      ['provider', 'chat', 431, 'request_headers_too_large'],
      ['group:team', 'messages', 431, 'request_headers_too_large'],
    ]);
    expect(h.calls).toHaveLength(0);
  });

  it('refuses keys with whitespace, control or non-ASCII bytes, and many-key headers, as invalid', async () => {
    const h = await start();
    const { connect } = await import('node:net');
    const send = (headerLines: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(h.port, '127.0.0.1', () => sock.write(`GET /protocol-a/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nConnection: close\r\n${headerLines}\r\n`));
        let text = '';
        sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
        sock.on('close', () => resolve(text));
        sock.on('error', () => resolve(text));
      });
    expect(await send(`x-api-key: ${KEY.slice(0, 20)} ${KEY.slice(20)}\r\n`)).toMatch(/^HTTP\/1\.1 401[\s\S]*invalid_api_key/);
    expect(await send(`x-api-key: ${KEY}\u00e9\r\n`)).toMatch(/^HTTP\/1\.1 401/);
    expect(await send(`x-api-key: a\r\nx-api-key: b\r\nx-api-key: ${KEY}\r\n`)).toMatch(/^HTTP\/1\.1 401/);
    expect(await send(`authorization: Bearer\r\n`)).toMatch(/^HTTP\/1\.1 401[\s\S]*missing_api_key/);
    // a key in a shape that is not "Bearer <key>" is named as such, not as no key at all
    for (const value of [KEY, `Basic ${Buffer.from(`u:${KEY}`).toString('base64')}`, `Bearer\t${KEY}`]) {
      const answer = await send(`authorization: ${value}\r\n`);
      expect(answer, value).toMatch(/^HTTP\/1\.1 401[\s\S]*invalid_api_key/);
      expect(answer).toContain('is not \\"Bearer <service key>\\"');
      expect(answer).not.toContain(KEY);
    }
    expect(h.calls).toHaveLength(0);
  });
});

describe('proxy server: what node gives up on while an answer is in flight', () => {
  /**
   * A connection: `first` written at once, `then(text)` each time the server says something (what
   * it returns, if anything, written next); resolves with everything the server said, at close.
   */
  async function converse(port: number, first: string, then: (text: string) => string | undefined = () => undefined): Promise<string> {
    const { connect } = await import('node:net');
    return new Promise<string>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => sock.write(first, 'latin1'));
      sock.setTimeout(10_000, () => sock.destroy());
      let text = '';
      sock.on('data', (c: Buffer) => {
        text += c.toString('latin1');
        const next = then(text);
        if (next !== undefined) sock.write(next, 'latin1');
      });
      sock.on('close', () => resolve(text));
      sock.on('error', () => resolve(text));
    });
  }

  /** A streamed answer: its head and a first part at once, the rest once `release` is called. */
  function streaming(): { handle: ProxyHandler['handle']; release: () => void } {
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    return {
      release: () => release(),
      handle: async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: part-1\n\n');
        await released;
        res.end('data: part-2\n\n');
      },
    };
  }

  const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

  it('a later request node refuses on the same connection: the answer streaming goes out whole, nothing inside it, and the connection closes after it', async () => {
    const s = streaming();
    const h = await start({ handle: s.handle });
    // the first answer ends once node refused the second request
    h.server.server.on('clientError', () => setImmediate(s.release));
    const get = `GET /protocol-a/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\n\r\n`;
    let step = 0;
    const text = await converse(h.port, get, (said) => {
      if (step === 0 && said.includes('part-1')) {
        step = 1;
        // the next request, pipelined: a header name with a space in it
        return `POST /protocol-b/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nbad name: 1\r\n\r\n`;
      }
      return undefined;
    });
    expect(statusLines(text)).toEqual(['HTTP/1.1 200']);
    expect(text).toMatch(/part-1[\s\S]*part-2[\s\S]*\r\n0\r\n\r\n$/);
    expect(h.logged).toEqual([]);
  });

  it('over the header limit, pipelined behind a streaming answer: the same', async () => {
    const s = streaming();
    const h = await start({ handle: s.handle });
    // the first answer ends once node refused the second request
    h.server.server.on('clientError', () => setImmediate(s.release));
    const get = `GET /protocol-a/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\n\r\n`;
    let step = 0;
    const text = await converse(h.port, get, (said) => {
      if (step === 0 && said.includes('part-1')) {
        step = 1;
        return `GET /protocol-a/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-big: ${'k'.repeat(64 * 1024)}\r\n\r\n`;
      }
      return undefined;
    });
    expect(statusLines(text)).toEqual(['HTTP/1.1 200']);
    expect(text).toMatch(/part-2[\s\S]*\r\n0\r\n\r\n$/);
  });

  it('a chunked body that breaks after its answer started: nothing is written into the answer, the connection is cut', async () => {
    const s = streaming();
    const h = await start({ handle: s.handle });
    const post = `POST /protocol-a/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n`;
    let step = 0;
    const text = await converse(h.port, post, (said) => {
      if (step === 0 && said.includes('part-1')) {
        step = 1;
        return 'zz-not-a-chunk-size\r\n';
      }
      return undefined;
    });
    s.release();
    expect(statusLines(text)).toEqual(['HTTP/1.1 200']);
    expect(text).not.toContain('Bad Request');
    expect(text).not.toContain('part-2');
  });

  it('a chunked body that breaks before its answer started: a 400 malformed_request in its base\'s shape', async () => {
    const h = await start({
      handle: async (req, res) => {
        try {
          for await (const _ of req) void _;
        } catch {
          return;
        }
        res.writeHead(200).end('{}');
      },
    });
    const text = await converse(h.port, `POST /g/team/protocol-b/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 400']);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 'malformed_request' } });
    expect(text).not.toContain(KEY);
  });

  it('a request that does not arrive in time is a 408 (which the SDKs retry), in its base\'s shape once its request line was read', async () => {
    const h = await start({
      handle: async (req, res) => {
        try {
          for await (const _ of req) void _;
        } catch {
          return;
        }
        res.writeHead(200).end('{}');
      },
      beforeListen: (s) => {
        // node reads the option's field when it starts listening; it checks every 30 s by default
        (s.server as typeof s.server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 50;
        s.server.headersTimeout = 300;
        s.server.requestTimeout = 300;
      },
    });
    // headers never finished: nothing tells the base, the bare status
    const noHeaders = await converse(h.port, `POST /protocol-a/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\n`);
    expect(noHeaders).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*content-length: 0\r\n\r\n$/);
    // a body cut short: the request is known
    const slowBody = await converse(h.port, `POST /protocol-a/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\ncontent-length: 10\r\n\r\n{}`);
    expect(statusLines(slowBody)).toEqual(['HTTP/1.1 408']);
    expect(JSON.parse(slowBody.slice(slowBody.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { type: 'invalid_request_error', code: 'request_timeout', message: expect.stringContaining('did not reach svc-proxy in full in time') } });
    expect(h.errors).toEqual([]);
  });
});

describe('proxy server: refusals go into the request log', () => {
  it('401, 403, 404, 405 and an early 413 are logged with what is known; never the presented key; the request path logs nothing itself', async () => {
    const h = await start({ settings: { bodyLimitBytes: 1024 } });
    const key = { 'x-api-key': KEY };
    const wrongKey = 'sk-svc-proxy-presented-but-wrong-0123456789';
    const answers = [
      await http('POST', `${h.origin}/protocol-a/v1/chat/completions`, { headers: { authorization: `Bearer ${wrongKey}` }, body: '{}' }),
      await http('POST', `${h.origin}/g/team/protocol-b/v1/nope`, { body: '{}' }),
      await http('POST', `${h.origin}/protocol-b/v1/messages`, { headers: { host: 'attacker.example', ...key }, body: '{}' }),
      await http('POST', `${h.origin}/protocol-a/v1/embeddings?api-key=secret-in-query`, { headers: key, body: '{}' }),
      await http('GET', `${h.origin}/protocol-a/v1/chat/completions`, { headers: key }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 403, 404, 405]);
    const { connect } = await import('node:net');
    const tooLarge = await new Promise<string>((resolve) => {
      const sock = connect(h.port, '127.0.0.1', () =>
        sock.write(`POST /g/team/protocol-b/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n`),
      );
      let text = '';
      sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
      sock.on('close', () => resolve(text));
      sock.on('error', () => resolve(text));
    });
    expect(tooLarge).toMatch(/^HTTP\/1\.1 413/);
    expect(h.logged.map((e) => ({ status: e.status, code: e.errorCode, key: e.keyId, base: e.base, endpoint: e.endpoint, path: e.path }))).toEqual([
      { status: 401, code: 'invalid_api_key', key: undefined, base: 'provider', endpoint: 'chat', path: undefined },
      { status: 401, code: 'missing_api_key', key: undefined, base: 'group:team', endpoint: 'unknown', path: '/g/team/protocol-b/v1/nope' },
      { status: 403, code: 'forbidden_host', key: undefined, base: 'provider', endpoint: 'messages', path: undefined },
      { status: 404, code: 'unsupported_endpoint', key: 'k1', base: 'provider', endpoint: 'unknown', path: '/protocol-a/v1/embeddings' },
      { status: 405, code: 'method_not_allowed', key: 'k1', base: 'provider', endpoint: 'chat', path: undefined },
      { status: 413, code: 'request_too_large', key: 'k1', base: 'group:team', endpoint: 'messages', path: undefined },
    ]);
    // each answer names its log entry, as the routing core's do
    expect(answers.map((a) => a.headers['x-svc-request-id'])).toEqual(h.logged.slice(0, 5).map((e) => e.id));
    const text = JSON.stringify(h.logged);
    for (const secret of [KEY, wrongKey, 'secret-in-query']) expect(text).not.toContain(secret);
    // a request that passes is the routing core's to log; refusals outside the proxy bases are not proxied requests
    expect((await http('POST', `${h.origin}/protocol-a/v1/chat/completions`, { headers: key, body: '{}' })).status).toBe(200);
    expect((await http('GET', `${h.origin}/admin/status`, { headers: { host: 'attacker.example' } })).status).toBe(403);
    expect(h.logged).toHaveLength(6);
  });
});

describe('proxy server: Expect: 100-continue', () => {
  /** Send `head`; on a 100 Continue send `body`. Resolves with everything the server said, at close. */
  async function expectContinue(port: number, head: string, body: string): Promise<string> {
    const { connect } = await import('node:net');
    return new Promise<string>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => sock.write(head));
      sock.setTimeout(5_000, () => sock.destroy());
      let text = '';
      let sent = false;
      sock.on('data', (c: Buffer) => {
        text += c.toString('latin1');
        if (!sent && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
          sent = true;
          sock.write(body);
        }
      });
      sock.on('close', () => resolve(text));
      sock.on('error', () => resolve(text));
    });
  }
  const echoLength: ProxyHandler['handle'] = async (req, res) => {
    let size = 0;
    for await (const chunk of req) size += (chunk as Buffer).length;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ size }));
  };

  it('a declared length over the limit gets the 413 at once, without the 100, in the base\'s shape', async () => {
    const h = await start({ settings: { bodyLimitBytes: 1024 }, handle: echoLength });
    const head = (path: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n`;
    const a = await expectContinue(h.port, head('/protocol-a/v1/chat/completions'), 'x'.repeat(5_000_000));
    expect(a).toMatch(/^HTTP\/1\.1 413 /);
    expect(a).not.toContain('100 Continue');
    expect(a.toLowerCase()).toContain('connection: close');
    expect(a).toContain('"code":"request_too_large"');
    expect(a).toContain('"error":{"message"');
    const b = await expectContinue(h.port, head('/protocol-b/v1/messages'), 'x'.repeat(5_000_000));
    expect(b).toMatch(/^HTTP\/1\.1 413 [\s\S]*"type":"error"[\s\S]*request_too_large/);
    expect(h.calls).toHaveLength(0);
  });

  it('a declared length the bodies held leave no room for gets the 503 at once, without the 100, in the base\'s shape', async () => {
    let held = 900;
    const h = await start({ settings: { bodyLimitBytes: 1000, bodyBudgetBytes: 1000 }, handle: echoLength, bodyBytesHeld: () => held });
    const head = (path: string, length: number) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
    const a = await expectContinue(h.port, head('/protocol-a/v1/chat/completions', 101), 'x'.repeat(101));
    expect(a).toMatch(/^HTTP\/1\.1 503 /);
    expect(a).not.toContain('100 Continue');
    expect(a.toLowerCase()).toContain('retry-after: 2');
    expect(a).toContain('"code":"proxy_overloaded"');
    const b = await expectContinue(h.port, head('/protocol-b/v1/messages', 101), 'x'.repeat(101));
    expect(b).toMatch(/^HTTP\/1\.1 503 [\s\S]*"type":"error"[\s\S]*"type":"overloaded_error"[\s\S]*proxy_overloaded/);
    expect(h.calls).toHaveLength(0);
    // room again: the same request gets its 100 and is handled
    held = 0;
    const c = await expectContinue(h.port, `${head('/protocol-a/v1/chat/completions', 101).slice(0, -2)}Connection: close\r\n\r\n`, 'x'.repeat(101));
    expect(c).toMatch(/^HTTP\/1\.1 100 Continue[\s\S]*HTTP\/1\.1 200 [\s\S]*"size":101/);
  });

  it('a refused request (bad key) gets its answer without the 100; an accepted one gets the 100 and its body is read', async () => {
    const h = await start({ settings: { bodyLimitBytes: 1024 }, handle: echoLength });
    const body = '{"model":"a/b","messages":[]}';
    const head = (key: string) =>
      `POST /protocol-a/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;
    const refused = await expectContinue(h.port, head('sk-svc-proxy-nope'), body);
    expect(refused).toMatch(/^HTTP\/1\.1 401 [\s\S]*invalid_api_key/);
    const ok = await expectContinue(h.port, head(KEY), body);
    expect(ok).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(ok).toContain(`{"size":${body.length}}`);
  });

  it('an accepted request keeps its connection for the next one', async () => {
    const h = await start({ handle: echoLength });
    const { connect } = await import('node:net');
    const body = '{}';
    const text = await new Promise<string>((resolve) => {
      const sock = connect(h.port, '127.0.0.1', () =>
        sock.write(`POST /protocol-a/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n`),
      );
      let out = '';
      let step = 0;
      sock.on('data', (c: Buffer) => {
        out += c.toString('latin1');
        if (step === 0 && out.includes('100 Continue')) {
          step = 1;
          sock.write(body);
        } else if (step === 1 && out.includes('{"size":2}')) {
          step = 2;
          sock.write(`GET /protocol-a/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\nConnection: close\r\n\r\n`);
        }
      });
      sock.on('close', () => resolve(out));
      sock.on('error', () => resolve(out));
    });
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 100', 'HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(text.split('HTTP/1.1 200')[1]!.toLowerCase()).not.toContain('connection: close');
  });
});

describe('proxy server: graceful drain', () => {
  it('lets in-flight requests finish, refuses new connections, and cuts what outlives the timeout', async () => {
    let handling = 0;
    const h = await start({
      handle: async (req, res) => {
        handling++;
        const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms'));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: start\n\n');
        await new Promise((r) => setTimeout(r, ms));
        res.end('data: end\n\n');
      },
    });
    const body = (ms: number) =>
      new Promise<{ text: string; aborted: boolean }>((resolve) => {
        const req = request(`${h.origin}/protocol-a/v1/chat/completions?ms=${ms}`, { method: 'POST', headers: { 'x-api-key': KEY }, agent: false }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ text, aborted: false }));
          res.on('aborted', () => resolve({ text, aborted: true }));
          res.on('error', () => resolve({ text, aborted: true }));
        });
        req.on('error', () => resolve({ text: '', aborted: true }));
        req.end();
      });
    const quick = body(200);
    const slow = body(5_000);
    while (handling < 2) await new Promise((r) => setTimeout(r, 5));
    // a drain that waited for the 5 s body instead of cutting it at 600 ms would cut none
    const cut = await h.server.drain(600);
    expect(cut).toBe(1);
    expect(await quick).toEqual({ text: 'data: start\n\ndata: end\n\n', aborted: false });
    const slowResult = await slow;
    expect(slowResult.text).toBe('data: start\n\n');
    expect(slowResult.text).not.toContain('end');
    await expect(http('GET', `${h.origin}/health`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a request arriving on a busy connection while draining gets a 503 shutting_down in its shape, logged with its endpoint', async () => {
    let handling = false;
    const h = await start({
      handle: async (_req, res) => {
        handling = true;
        await new Promise((r) => setTimeout(r, 300));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"first":true}');
      },
    });
    const { connect } = await import('node:net');
    const head = (path: string) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nx-api-key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    const sock = connect(h.port, '127.0.0.1');
    let text = '';
    sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
    const closed = new Promise<void>((resolve) => {
      sock.on('close', () => resolve());
      sock.on('error', () => resolve());
    });
    sock.write(head('/protocol-a/v1/chat/completions'));
    while (!handling) await new Promise((r) => setTimeout(r, 5));
    // the connection is busy, so the drain keeps it; the next request on it comes after the listener closed
    const drained = h.server.drain(2_000);
    sock.write(head('/g/team/protocol-b/v1/messages'));
    await closed;
    expect(await drained).toBe(0);
    const [first, second] = text.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200[\s\S]*\{"first":true\}/);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second!.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4))).toMatchObject({ type: 'error', error: { type: 'overloaded_error', code: 'shutting_down' } });
    expect(h.logged.map((e) => ({ status: e.status, code: e.errorCode, base: e.base, endpoint: e.endpoint, path: e.path }))).toEqual([
      { status: 503, code: 'shutting_down', base: 'group:team', endpoint: 'messages', path: undefined },
    ]);
  });
});
