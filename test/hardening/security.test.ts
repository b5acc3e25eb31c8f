/**
 * Local security through the real daemon: loopback bind, the Host guard against DNS rebinding,
 * CORS off by default and an allow-list that works, the admin API only with the admin token,
 * credentials never in any response byte or log line (also when an upstream echoes them or their
 * tail), state files 0600 and the state dir 0700 even under umask 000, and safe lists of headers
 * in both directions.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../daemon/harness.js';
import { GenericChatMock, type RecordedRequest, type Reply } from '../fixtures/mock-upstream/index.js';
import { CREDS, lastCharChanged, M, rawExchange, send, sseEvents, startLean, type Lean, type Raw } from './helpers.js';

let w: Lean;
let umask: number;
/** Every byte a client received in this file (status line excluded), for the credential sweep. */
const received: string[] = [];

const record = (r: Raw): Raw => {
  received.push(JSON.stringify(r.headers), r.text);
  return r;
};

beforeAll(async () => {
  // Files with secrets must be 0600 by their own mode, not thanks to a friendly umask.
  umask = process.umask(0);
  w = await startLean({ settings: { logBodies: true } });
}, 60_000);
afterAll(async () => {
  process.umask(umask);
  await w?.close();
});

const hi = [{ role: 'user', content: 'hi' }];
const CHAT = '/protocol-a/v1/chat/completions';
const RESPONSES = '/protocol-a/v1/responses';
const MESSAGES = '/protocol-b/v1/messages';

/** A Chat answer, a Chat stream, a Messages stream offering a `save` tool, and a Chat answer again, recorded. */
async function echoRound(model: string): Promise<Raw[]> {
  const tools = [{ name: 'save', description: 'save a note', input_schema: { type: 'object', properties: { note: { type: 'string' } } } }];
  return [
    await send(w.d, CHAT, { body: { model, messages: hi } }),
    await send(w.d, CHAT, { body: { model, messages: hi, stream: true } }),
    await send(w.d, MESSAGES, { body: { model, max_tokens: 50, messages: hi, stream: true, tools } }),
    await send(w.d, CHAT, { body: { model, messages: hi } }),
  ].map(record);
}

/** A Messages stream's tool input, as the client puts its partial_json together. */
function toolInput(stream: string): string {
  return stream
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.includes('input_json_delta'))
    .map((l) => (JSON.parse(l.slice(6)) as { delta: { partial_json: string } }).delta.partial_json)
    .join('');
}

/** What the daemon logged: logs --json, the request log files, its own output. */
async function loggedTexts(): Promise<string[]> {
  const logs = (await w.d.cli(['logs', '--json', '--limit', '20'])).stdout;
  const files = await readdir(join(w.d.home, 'logs'));
  const fileTexts = await Promise.all(files.map((f) => readFile(join(w.d.home, 'logs', f), 'utf8')));
  return [logs, ...fileTexts, w.d.log];
}

describe('network exposure', () => {
  it('listens on 127.0.0.1 only by default', async () => {
    const status = JSON.parse((await w.d.cli(['status', '--json'])).stdout) as { host?: string; running?: boolean };
    expect(status.host).toBe('127.0.0.1');
    if (process.platform !== 'linux') return;
    const portHex = w.d.port.toString(16).toUpperCase().padStart(4, '0');
    const listening = (table: string) =>
      table
        .split('\n')
        .slice(1)
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f[1]?.endsWith(`:${portHex}`) && f[3] === '0A')
        .map((f) => f[1]!.split(':')[0]);
    expect(listening(await readFile('/proc/net/tcp', 'utf8'))).toEqual(['0100007F']);
    expect(listening(await readFile('/proc/net/tcp6', 'utf8').catch(() => ''))).toEqual([]);
  });

  it('Host guard: foreign names, look-alike names and other ports → 403 forbidden_host on every route; loopback names pass', async () => {
    const p = w.d.port;
    const refused = [
      'evil.com',
      `evil.com:${p}`,
      `127.0.0.1.evil.com:${p}`,
      `localhost.evil.com:${p}`,
      `127.0.0.1:${p + 1}`,
      `localhost:${p}.evil.com`,
      `[::ffff:127.0.0.1]:${p}`,
      `[0:0:0:0:0:0:0:1]:${p}`,
      `[::1]:${p + 1}`,
      '',
    ];
    for (const host of refused) {
      for (const path of [CHAT, '/protocol-b/v1/models', '/admin/status', '/health']) {
        const text = await rawExchange(p, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${w.d.key}\r\nConnection: close\r\n\r\n`);
        expect(text, `Host "${host}" on ${path}`).toMatch(/^HTTP\/1\.1 403/);
        if (!path.startsWith('/admin') && path !== '/health') expect(text).toContain('"code":"forbidden_host"');
      }
    }
    for (const host of [`127.0.0.1:${p}`, `localhost:${p}`, `LOCALHOST:${p}`, `[::1]:${p}`]) {
      const text = await rawExchange(p, `GET /protocol-a/v1/models HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${w.d.key}\r\nConnection: close\r\n\r\n`);
      expect(text, `Host "${host}"`).toMatch(/^HTTP\/1\.1 200/);
    }
  });

  it('no CORS headers by default, preflight or not; an allow-list (hot-reloaded) answers its origins only', async () => {
    const preflight = (origin: string) =>
      send(w.d, CHAT, { method: 'OPTIONS', key: null, headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    const cors = (r: Raw) => Object.keys(r.headers).filter((k) => k.startsWith('access-control-'));
    expect(cors(await preflight('https://app.example'))).toEqual([]);
    expect(cors(record(await send(w.d, CHAT, { body: { model: M.chat, messages: hi }, headers: { origin: 'https://app.example' } })))).toEqual([]);

    const configPath = join(w.d.home, 'config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8')) as { settings: Record<string, unknown> };
    config.settings.corsOrigins = ['https://app.example'];
    await writeFile(configPath, JSON.stringify(config, null, 2));
    await w.d.cli(['config', 'reload']);
    try {
      const ok = await preflight('https://app.example');
      expect(ok.status).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(ok.headers['access-control-allow-methods']).toContain('POST');
      const other = await preflight('https://evil.example');
      expect(other.status).toBe(403);
      expect(cors(other)).toEqual([]);
      const actual = record(await send(w.d, CHAT, { body: { model: M.chat, messages: hi }, headers: { origin: 'https://app.example' } }));
      expect(actual.status).toBe(200);
      expect(actual.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(cors(record(await send(w.d, CHAT, { body: { model: M.chat, messages: hi }, headers: { origin: 'https://evil.example' } })))).toEqual([]);
      // never on the admin API
      const token = (await readFile(join(w.d.home, 'admin-token'), 'utf8')).trim();
      const admin = await send(w.d, '/admin/status', { key: token, headers: { origin: 'https://app.example' } });
      expect(admin.status).toBe(200);
      expect(cors(admin)).toEqual([]);
    } finally {
      config.settings.corsOrigins = [];
      await writeFile(configPath, JSON.stringify(config, null, 2));
      await w.d.cli(['config', 'reload']);
    }
  });
});

describe('admin API and keys', () => {
  it('the admin API opens only with the admin token; the admin token is not a service key', async () => {
    const token = (await readFile(join(w.d.home, 'admin-token'), 'utf8')).trim();
    expect((await send(w.d, '/admin/status', { key: null })).json).toMatchObject({ error: { code: 'missing_admin_token' } });
    expect((await send(w.d, '/admin/status', { key: w.d.key })).status).toBe(401);
    expect((await send(w.d, '/admin/status', { key: w.d.key, headers: { 'x-api-key': token } })).status).toBe(401);
    expect((await send(w.d, '/admin/status', { key: lastCharChanged(token) })).status).toBe(401);
    expect((await send(w.d, '/admin/status', { key: token })).status).toBe(200);
    const proxyWithToken = record(await send(w.d, CHAT, { key: token, body: { model: M.chat, messages: hi } }));
    expect(proxyWithToken.status).toBe(401);
    expect(proxyWithToken.json.error.code).toBe('invalid_api_key');
  });
});

/** Wrap a dialect's rendering of a turn with extra upstream response headers. */
function withHeaders(render: (rec: RecordedRequest) => Reply, headers: Record<string, string>) {
  return (rec: RecordedRequest): Reply => {
    const reply = render(rec);
    return reply.kind === 'json' || reply.kind === 'sse' || reply.kind === 'raw' ? { ...reply, headers: { ...reply.headers, ...headers } } : reply;
  };
}

describe('headers: safe lists both ways', () => {
  const HOSTILE_CLIENT_HEADERS = {
    cookie: 'session=abc123',
    'proxy-authorization': 'Basic Zm9vOmJhcg==',
    'x-forwarded-for': '10.0.0.1',
    forwarded: 'for=10.0.0.1',
    origin: 'https://app.example',
    referer: 'https://app.example/page',
    'user-agent': 'client-agent/1.0',
    te: 'trailers',
    'keep-alive': 'timeout=5',
    'openai-organization': 'org-client',
    'openai-project': 'proj-client',
    'x-stainless-os': 'Linux',
    'x-custom-header': 'custom',
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'interleaved-thinking-2025-05-14',
  };
  /** What may reach an upstream: transport, our agent, the provider's auth, Anthropic's version/beta. */
  const UPSTREAM_ALLOWED = new Set(['host', 'connection', 'content-length', 'content-type', 'transfer-encoding', 'user-agent', 'authorization', 'x-api-key', 'anthropic-version', 'anthropic-beta', 'accept']);
  const HOSTILE_UPSTREAM_HEADERS = {
    'set-cookie': 'upstream_session=xyz; Path=/; HttpOnly',
    server: 'upstream-server/9',
    'x-powered-by': 'Upstream',
    'cf-ray': '8abc123-LHR',
    'strict-transport-security': 'max-age=31536000',
    'openai-organization': 'org-upstream-secret',
    'x-request-id': 'req_upstream_42',
    'alt-svc': 'h3=":443"',
    via: '1.1 upstream-proxy',
  };
  /** What a client may see: our framing and ids, the answering provider/model, the upstream request id (renamed), retry hints. */
  const CLIENT_ALLOWED = new Set([
    'content-type',
    'content-length',
    'transfer-encoding',
    'date',
    'connection',
    'keep-alive',
    'cache-control',
    'x-accel-buffering',
    'x-svc-request-id',
    'x-svc-upstream-provider',
    'x-svc-upstream-model',
    'x-svc-upstream-request-id',
    'retry-after',
    'www-authenticate',
    'vary',
  ]);

  it('only the safe list goes upstream, for every upstream dialect, passthrough and converted, streamed or not', async () => {
    const calls = [
      { path: CHAT, body: { model: M.chat, messages: hi } },
      { path: CHAT, body: { model: M.anthropic, messages: hi, stream: true } },
      { path: RESPONSES, body: { model: M.openai, input: 'hi' } },
      { path: RESPONSES, body: { model: M.chat, input: 'hi', stream: true } },
      { path: MESSAGES, body: { model: M.anthropic, max_tokens: 50, messages: hi } },
      { path: MESSAGES, body: { model: M.openai, max_tokens: 50, messages: hi, stream: true } },
    ];
    let passthrough: RecordedRequest | undefined;
    for (const c of calls) {
      w.reset();
      // the service key in both header forms, as some clients send it
      const r = record(await send(w.d, c.path, { body: c.body, headers: { ...HOSTILE_CLIENT_HEADERS, 'x-api-key': w.d.key } }));
      expect(r.status, `${c.path} ${c.body.model}: ${r.text.slice(0, 300)}`).toBe(200);
      const recs = [...w.anthropic.generations(), ...w.openai.generations(), ...w.chat.generations()];
      expect(recs).toHaveLength(1);
      const rec = recs[0]!;
      const names = Object.keys(rec.headers);
      expect(names.filter((n) => !UPSTREAM_ALLOWED.has(n)), `${c.path} → ${rec.path}`).toEqual([]);
      for (const [name, value] of Object.entries(rec.headers)) {
        expect(String(value), `upstream header ${name}`).not.toContain(w.d.key);
        expect(String(value)).not.toMatch(/abc123|Zm9vOmJhcg|org-client|proj-client|client-agent/);
      }
      expect(rec.raw.toString('utf8')).not.toContain(w.d.key);
      const auth = String(rec.headers.authorization ?? rec.headers['x-api-key']);
      expect([`Bearer ${CREDS.anthropic}`, CREDS.anthropic, `Bearer ${CREDS.openai}`, `Bearer ${CREDS.ca}`]).toContain(auth);
      // Anthropic's version/beta reach a Messages upstream only from a Messages client
      if (c.path !== MESSAGES) expect(rec.headers['anthropic-beta']).toBeUndefined();
      if (c.path === MESSAGES && c.body.model === M.anthropic) passthrough = rec;
    }
    expect(passthrough?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
  });

  it('only the safe list comes back, on answers, errors and streams', async () => {
    w.reset();
    w.anthropic.always('/v1/messages', withHeaders((rec) => w.anthropic.plugin.renderTurn({ text: 'hello there' }, rec), HOSTILE_UPSTREAM_HEADERS));
    w.chat.always('/v1/chat/completions', withHeaders((rec) => w.chat.plugin.renderTurn({ text: 'hello there' }, rec), HOSTILE_UPSTREAM_HEADERS));
    w.openai.always('/v1/responses', () => {
      const e = w.openai.error(429, 'Rate limit reached', { retryAfter: 9 });
      return e.kind === 'json' ? { ...e, headers: { ...e.headers, ...HOSTILE_UPSTREAM_HEADERS } } : e;
    });
    const answers = [
      record(await send(w.d, CHAT, { body: { model: M.chat, messages: hi } })),
      record(await send(w.d, CHAT, { body: { model: M.anthropic, messages: hi } })),
      record(await send(w.d, MESSAGES, { body: { model: M.anthropic, max_tokens: 50, messages: hi } })),
      record(await send(w.d, CHAT, { body: { model: M.chat, messages: hi, stream: true } })),
      record(await send(w.d, RESPONSES, { body: { model: M.anthropic, input: 'hi', stream: true } })),
      record(await send(w.d, MESSAGES, { body: { model: M.openai, max_tokens: 50, messages: hi } })),
    ];
    for (const r of answers) {
      expect(Object.keys(r.headers).filter((n) => !CLIENT_ALLOWED.has(n)), r.text.slice(0, 200)).toEqual([]);
      expect(JSON.stringify(r.headers)).not.toMatch(/upstream_session|org-upstream-secret|upstream-server/);
    }
    expect(answers.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    // the upstream's request id is useful for support tickets: it comes back under our own name
    expect(answers[1]!.headers['x-svc-upstream-request-id']).toBe('req_upstream_42');
    expect(answers[5]!.status).toBe(429);
    expect(answers[5]!.headers['retry-after']).toBe('9');
    w.reset();
  });
});

describe('credentials never leave', () => {
  const echo = (secret: string) => `Incorrect API key provided: ${secret}. You can find your API key at https://platform.example/account (key ending in …${secret.slice(-4)}, ${secret.slice(0, 6)}****${secret.slice(-5)})`;

  it('an upstream that echoes the credential or its tail is redacted: whole errors, errors in a 200, opening and mid-stream error events, passthrough and converted', async () => {
    w.reset();
    const chatErr = (s: string) => ({ error: { message: echo(s), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    const chatChunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3-coder', choices: [{ index: 0, delta: { role: 'assistant', content: 'partial' }, finish_reason: null }] };
    const msgStart = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } };
    const antErr = { type: 'error', error: { type: 'authentication_error', message: echo(CREDS.anthropic) } };
    const respCreated = { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [], model: 'gpt-5.4' } };
    const respErr = { type: 'error', sequence_number: 1, code: 'invalid_api_key', message: echo(CREDS.openai), param: null };

    // whole answers: 401 bodies, an error inside a 200
    w.chat.next({ kind: 'json', status: 401, body: chatErr(CREDS.ca) });
    w.chat.next({ kind: 'json', status: 401, body: chatErr(CREDS.ca) });
    w.anthropic.next({ kind: 'json', status: 401, body: antErr });
    w.anthropic.next({ kind: 'json', status: 200, body: antErr });
    w.openai.next({ kind: 'json', status: 401, body: { error: { message: echo(CREDS.openai), type: 'invalid_request_error', code: 'invalid_api_key', param: null } } });
    const whole = [
      await send(w.d, CHAT, { body: { model: M.chat, messages: hi } }),
      await send(w.d, MESSAGES, { body: { model: M.chat, max_tokens: 50, messages: hi } }),
      await send(w.d, MESSAGES, { body: { model: M.anthropic, max_tokens: 50, messages: hi } }),
      await send(w.d, CHAT, { body: { model: M.anthropic, messages: hi } }),
      await send(w.d, RESPONSES, { body: { model: M.openai, input: 'hi' } }),
    ].map(record);
    for (const r of whole) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.text).toContain('[REDACTED]');
    }

    // streams: error as the first event (an HTTP error) and after the first bytes (a final event)
    w.chat.next({ kind: 'sse', events: [{ data: chatErr(CREDS.ca) }] });
    w.chat.next({ kind: 'sse', events: [{ data: chatChunk }, { data: chatErr(CREDS.ca) }] });
    w.chat.next({ kind: 'sse', events: [{ data: chatChunk }, { data: chatErr(CREDS.ca) }] });
    w.anthropic.next({ kind: 'sse', events: [{ event: 'message_start', data: msgStart }, { event: 'error', data: antErr }] });
    w.anthropic.next({ kind: 'sse', events: [{ event: 'message_start', data: msgStart }, { event: 'error', data: antErr }] });
    w.openai.next({ kind: 'sse', events: [{ event: 'response.created', data: respCreated }, { event: 'error', data: respErr }] });
    w.openai.next({ kind: 'sse', events: [{ event: 'response.created', data: respCreated }, { event: 'error', data: respErr }] });
    const streams = [
      await send(w.d, CHAT, { body: { model: M.chat, messages: hi, stream: true } }),
      await send(w.d, CHAT, { body: { model: M.chat, messages: hi, stream: true } }),
      await send(w.d, MESSAGES, { body: { model: M.chat, max_tokens: 50, messages: hi, stream: true } }),
      await send(w.d, MESSAGES, { body: { model: M.anthropic, max_tokens: 50, messages: hi, stream: true } }),
      await send(w.d, RESPONSES, { body: { model: M.anthropic, input: 'hi', stream: true } }),
      await send(w.d, RESPONSES, { body: { model: M.openai, input: 'hi', stream: true } }),
      await send(w.d, CHAT, { body: { model: M.openai, messages: hi, stream: true } }),
    ].map(record);
    expect(streams[0]!.status).toBe(401);
    for (const r of streams.slice(1)) {
      expect(r.status).toBe(200);
      expect(sseEvents(r.text).length).toBeGreaterThan(0);
      expect(r.text, r.text).toContain('[REDACTED]');
    }
    for (const text of received) expectNoCredential(text, 'a client response');
  });

  it('a passthrough stream whose echo of the credential the network cuts in two is still redacted', async () => {
    w.reset();
    const chatChunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3-coder', choices: [{ index: 0, delta: { role: 'assistant', content: 'partial' }, finish_reason: null }] };
    const msgStart = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } };
    const respCreated = { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [], model: 'gpt-5.4' } };
    /** The error event in two writes 30 ms apart, cut `at` characters into the credential's echo. */
    const cutIn = (event: string, secret: string, at: number) => {
      const i = event.indexOf(secret) + at;
      return [{ raw: event.slice(0, i) }, { raw: event.slice(i), delayMs: 30 }];
    };
    const chatErr = (s: string) => `data: ${JSON.stringify({ error: { message: echo(s), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } })}\n\n`;
    const antErr = `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: echo(CREDS.anthropic) } })}\n\n`;
    const respErr = `event: error\ndata: ${JSON.stringify({ type: 'error', sequence_number: 1, code: 'invalid_api_key', message: echo(CREDS.openai), param: null })}\n\n`;
    const texts: string[] = [];
    for (const at of [1, 7, CREDS.ca.length - 2]) {
      w.chat.next({ kind: 'sse', events: [{ data: chatChunk }, ...cutIn(chatErr(CREDS.ca), CREDS.ca, at)] });
      w.anthropic.next({ kind: 'sse', events: [{ event: 'message_start', data: msgStart }, ...cutIn(antErr, CREDS.anthropic, at)] });
      w.openai.next({ kind: 'sse', events: [{ event: 'response.created', data: respCreated }, ...cutIn(respErr, CREDS.openai, at)] });
      const answers = await passthroughStreams();
      for (const r of answers) {
        expect(r.status).toBe(200);
        expect(r.text, r.text).toContain('[REDACTED]');
        texts.push(r.text);
      }
    }
    for (const text of texts) expectNoCredential(text, 'a client response');
  });

  it('a service key a passthrough stream echoes is masked, wherever the network cuts it', async () => {
    w.reset();
    const key = w.d.key;
    const said = `the key in your prompt is ${key}, keep it safe`;
    const chat = [
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3-coder', choices: [{ index: 0, delta: { role: 'assistant', content: said }, finish_reason: null }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'qwen3-coder', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]
      .map((c) => `data: ${JSON.stringify(c)}\n\n`)
      .concat('data: [DONE]\n\n')
      .join('');
    const messages = [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: said } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    ]
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join('');
    const response = { id: 'resp_1', object: 'response', status: 'completed', model: 'gpt-5.4', output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: said, annotations: [] }] }] };
    const responses = [
      { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [] } },
      { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: said },
      { type: 'response.completed', sequence_number: 2, response },
    ]
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join('');
    /** The stream in two writes 30 ms apart, cut `at` characters into the key. */
    const cutIn = (stream: string, at: number) => {
      const i = stream.indexOf(key) + at;
      return { kind: 'sse' as const, events: [{ raw: stream.slice(0, i) }, { raw: stream.slice(i), delayMs: 30 }] };
    };
    // inside the prefix, right after it, inside the run before and after it is long enough to match
    for (const at of [3, 13, 20, 40]) {
      w.chat.next(cutIn(chat, at));
      w.anthropic.next(cutIn(messages, at));
      w.openai.next(cutIn(responses, at));
      const answers = await passthroughStreams();
      for (const r of answers) {
        expect(r.status).toBe(200);
        expect(r.text, `cut ${at} into the key`).not.toContain(key.slice(13, 29));
        expect(r.text).toContain('the key in your prompt is [REDACTED], keep it safe');
      }
    }
  });

  it('a custom endpoint key holding " and \\ is masked also JSON-escaped: answers, streams passthrough and converted, errors, logs', async () => {
    const key = 'cq-quo"ted\\back-Secret_Lm9';
    // as itself, JSON-escaped (an answer, SSE data), and twice (JSON text in a JSON string: arguments, a logged body)
    const once = JSON.stringify(key).slice(1, -1);
    const forms = [key, once, JSON.stringify(once).slice(1, -1)];
    const mock = await new GenericChatMock({ apiKey: key, name: 'cq', models: ['echo-1'] }).listen();
    try {
      await w.d.cli(['endpoint', 'add', 'cq', '--url', mock.baseUrl, '--format', 'a', '--insecure-storage'], { input: `${key}\n` });
      const said = `your key is ${key}, keep it`;
      const model = 'cq/echo-1';
      mock.next({ kind: 'turn', turn: { text: said } });
      mock.next({ kind: 'turn', turn: { text: said, stream: { chunk: 1000 } } });
      mock.next({ kind: 'turn', turn: { text: said, toolCalls: [{ name: 'save', arguments: { note: said } }], stream: { chunk: 5 } } });
      mock.next({ kind: 'raw', status: 401, contentType: 'text/plain', body: `invalid key ${key}` });
      const answers = await echoRound(model);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 401]);
      expect(answers[0]!.json.choices[0].message.content).toBe('your key is [REDACTED], keep it');
      expect(answers[1]!.text).toContain('your key is [REDACTED], keep it');
      expect(answers[3]!.text).toContain('[REDACTED]');
      for (const text of [...answers.map((r) => r.text), ...(await loggedTexts())]) {
        for (const form of forms) expect(text.includes(form), `${form} in ${text.slice(0, 300)}`).toBe(false);
      }
      // the arguments reach a Messages client as JSON text: the note masked in it
      expect(JSON.parse(toolInput(answers[2]!.text))).toEqual({ note: 'your key is [REDACTED], keep it' });
    } finally {
      await w.d.cli(['endpoint', 'remove', 'cq'], { allowFail: true });
      await mock.close();
    }
  });

  const hex4 = (c: string, upper: boolean): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;
  // each encoder's defaults: Go's encoding/json (<, >, &, U+2028/2029), Gson (HTML-safe: also = and '),
  // .NET's System.Text.Json (", ', +, backtick and non-ASCII too, upper-case hex); `leak`: what must not show
  const ENCODERS = [
    { name: 'Go', key: 'cq-tag<b>&amp-Secret_Gq4', leak: 'Secret_Gq4', encode: (v: unknown) => JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => hex4(c, false)) },
    { name: 'Gson', key: "cq-Zm9v+YmFy=Ym'F6-Secret_Gq5", leak: 'Zm9v', encode: (v: unknown) => JSON.stringify(v).replace(/[<>&='\u2028\u2029]/g, (c) => hex4(c, false)) },
    {
      name: '.NET',
      key: "cq-Zm9v+YmFy=Ym'F6-Secret_Gq6",
      leak: 'Zm9v',
      encode: (v: unknown) =>
        JSON.stringify(v)
          .replace(/\\"/g, '\\u0022')
          .replace(/[<>&'+`\u0080-\uffff]/g, (c) => hex4(c, true)),
    },
  ];
  for (const { name, key, leak, encode } of ENCODERS) {
    it(`a key an upstream's ${name} JSON encoder writes with \\u escapes is masked: answers, streams passthrough and converted, errors, logs`, async () => {
      const said = `your key is ${key}, keep it`;
      const chunk = (delta: unknown, finish: string | null) => ({ id: 'chatcmpl-go1', object: 'chat.completion.chunk', created: 1_730_000_000, model: 'echo-1', choices: [{ index: 0, delta, finish_reason: finish }] });
      const events = (...payloads: unknown[]) => [...payloads.map((p) => ({ raw: `data: ${encode(p)}\n\n` })), { raw: 'data: [DONE]\n\n' }];
      const toolCall = { tool_calls: [{ index: 0, id: 'call_go1', type: 'function', function: { name: 'save', arguments: encode({ note: said }) } }] };
      const mock = await new GenericChatMock({ apiKey: key, name: 'cq', models: ['echo-1'] }).listen();
      try {
        await w.d.cli(['endpoint', 'add', 'cq', '--url', mock.baseUrl, '--format', 'a', '--insecure-storage'], { input: `${key}\n` });
        const model = 'cq/echo-1';
        const completion = { id: 'chatcmpl-go1', object: 'chat.completion', created: 1_730_000_000, model: 'echo-1', choices: [{ index: 0, message: { role: 'assistant', content: said }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 } };
        mock.next({ kind: 'raw', contentType: 'application/json', body: encode(completion) });
        mock.next({ kind: 'sse', events: events(chunk({ role: 'assistant', content: said }, null), chunk({}, 'stop')) });
        mock.next({ kind: 'sse', events: events(chunk({ role: 'assistant', ...toolCall }, null), chunk({}, 'tool_calls')) });
        mock.next({ kind: 'raw', status: 502, contentType: 'text/plain', body: `gateway: the upstream answered ${encode({ error: { message: `invalid key ${key}` } })}` });
        const answers = await echoRound(model);
        expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 502]);
        expect(answers[0]!.json.choices[0].message.content).toBe('your key is [REDACTED], keep it');
        expect(answers[1]!.text).toContain('your key is [REDACTED], keep it');
        expect(JSON.parse(toolInput(answers[2]!.text))).toEqual({ note: 'your key is [REDACTED], keep it' });
        expect(answers[3]!.json.error.message).toContain('[REDACTED]');
        for (const text of [...answers.map((r) => r.text), ...(await loggedTexts())]) expect(text, text.slice(0, 300)).not.toContain(leak);
      } finally {
        await w.d.cli(['endpoint', 'remove', 'cq'], { allowFail: true });
        await mock.close();
      }
    });
  }

  it('…and nowhere in the daemon output, the request log files, logs --json or the admin log API', async () => {
    await w.d.logs((e) => e.length >= 12);
    const logsJson = (await w.d.cli(['logs', '--json', '--limit', '500'])).stdout;
    const token = (await readFile(join(w.d.home, 'admin-token'), 'utf8')).trim();
    const adminLogs = (await send(w.d, '/admin/logs?limit=500', { key: token })).text;
    const files = await readdir(join(w.d.home, 'logs'));
    expect(files.length).toBeGreaterThan(0);
    const fileTexts = await Promise.all(files.map((f) => readFile(join(w.d.home, 'logs', f), 'utf8')));
    // logBodies is on: bodies are logged, so there is something to leak
    expect(fileTexts.join('')).toContain('"requestBody"');
    for (const [what, text] of [['daemon output', w.d.log], ['logs --json', logsJson], ['/admin/logs', adminLogs], ...fileTexts.map((t, i) => [`logs/${files[i]}`, t])] as const) {
      expectNoCredential(text, what);
      expect(text, what).not.toContain(w.d.key);
    }
  });
});

/** One streamed request in each client dialect, to the upstream speaking it (ca, anthropic, openai), recorded. */
async function passthroughStreams(): Promise<Raw[]> {
  return [
    await send(w.d, CHAT, { body: { model: M.chat, messages: hi, stream: true } }),
    await send(w.d, MESSAGES, { body: { model: M.anthropic, max_tokens: 50, messages: hi, stream: true } }),
    await send(w.d, RESPONSES, { body: { model: M.openai, input: 'hi', stream: true } }),
  ].map(record);
}

/** Neither a credential nor its last five characters (what providers print) appears in `text`. */
function expectNoCredential(text: string, where: string): void {
  for (const [name, secret] of Object.entries(CREDS)) {
    expect(text.includes(secret), `${name} credential in ${where}`).toBe(false);
    expect(text.includes(secret.slice(-5)), `tail of the ${name} credential in ${where}: …${text.slice(Math.max(0, text.indexOf(secret.slice(-5)) - 80), text.indexOf(secret.slice(-5)) + 20)}`).toBe(false);
  }
}

describe('state on disk', () => {
  it('every file in the state dir is 0600 and every dir 0700, even under umask 000', async () => {
    const seen: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const st = await stat(dir);
      expect((st.mode & 0o777).toString(8), `${dir}`).toBe('700');
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else {
          // a lock file may come and go between readdir and stat (the daemon re-reads config.json under it)
          const st = await stat(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
          if (!st) continue;
          seen.push(entry.name);
          expect((st.mode & 0o777).toString(8), path).toBe('600');
        }
      }
    };
    await walk(w.d.home);
    // the files that hold secrets or point at the daemon are all there
    expect(seen).toEqual(expect.arrayContaining(['config.json', 'admin-token', 'credentials.json', 'daemon.pid', 'daemon.json', 'requests.jsonl']));
    const creds = await readFile(join(w.d.home, 'credentials.json'), 'utf8');
    expect(creds).toContain(CREDS.ca);
    // config.json holds only key hashes, never a key
    expect(await readFile(join(w.d.home, 'config.json'), 'utf8')).not.toContain(w.d.key);
  });

  it('a CLI command on a machine with no state dir yet creates it 0700 and works', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'svc-hz-fresh-'));
    const home = join(parent, 'nested', 'svc-proxy');
    try {
      const res = await new Promise<{ code: number; out: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'key', 'create', '--name', 'first', '--json'], { env: { PATH: process.env.PATH ?? '', SVC_PROXY_HOME: home, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.on('close', (code) => resolve({ code: code ?? -1, out }));
      });
      expect(res.code, res.out).toBe(0);
      expect((JSON.parse(res.out) as { key: string }).key).toMatch(/^sk-svc-proxy-/);
      expect(((await stat(home)).mode & 0o777).toString(8)).toBe('700');
      expect(((await stat(join(home, 'config.json'))).mode & 0o777).toString(8)).toBe('600');
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
