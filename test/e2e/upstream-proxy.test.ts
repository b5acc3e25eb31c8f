/**
 * The daemon behind a company proxy: HTTPS_PROXY/HTTP_PROXY in the environment it starts in, a
 * CA of the network's own in NODE_EXTRA_CA_CERTS. A real forward proxy on 127.0.0.1
 * (fixtures/forward-proxy.ts) is the only thing that resolves `*.upstream.test`, so every answer
 * from those hosts came through it: Anthropic over TLS in a CONNECT tunnel, a custom endpoint over
 * plain http as an absolute-URI request. A local server on 127.0.0.1 is reached directly.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, stopDaemon, TEST_CREDENTIALS, type TestDaemon } from '../fixtures/daemon.js';
import { collect, errorCode, expectNoServiceKey, rejection } from '../fixtures/e2e-helpers.js';
import { startForwardProxy, type ForwardProxy } from '../fixtures/forward-proxy.js';
import { AnthropicMock, GenericChatMock, ResponsesMock } from '../fixtures/mock-upstream/index.js';

const TLS = join(fileURLToPath(new URL('../fixtures/tls/', import.meta.url)));
/** What the daemon trusts besides the system's: the test CA, and the https proxy's own certificate. */
const CA_FILE = join(tmpdir(), `svc-proxy-e2e-ca-${process.pid}.pem`);
const PROXY_USER = 'alice:s3cret-proxy-pw';
const ENDPOINT_KEY = 'ep-e2e-proxy-0007';

let proxy: ForwardProxy;
let anthropicMock: AnthropicMock;
let untrustedMock: ResponsesMock;
let endpointMock: GenericChatMock;
let localMock: GenericChatMock;
let anthropicTlsPort = 0;
let untrustedTlsPort = 0;
let d: TestDaemon;
let ant: Anthropic;

beforeAll(async () => {
  writeFileSync(CA_FILE, readFileSync(join(TLS, 'ca.pem'), 'utf8') + readFileSync(join(TLS, 'proxy.pem'), 'utf8'));
  proxy = await startForwardProxy(PROXY_USER);
  anthropicMock = await new AnthropicMock({ apiKey: TEST_CREDENTIALS.ANTHROPIC_API_KEY }).listen();
  anthropicTlsPort = await anthropicMock.listenTls({ key: readFileSync(join(TLS, 'server-key.pem')), cert: readFileSync(join(TLS, 'server.pem')) });
  // signed by no CA the daemon trusts: what a TLS-inspecting network looks like without its CA
  untrustedMock = await new ResponsesMock({ apiKey: TEST_CREDENTIALS.OPENAI_API_KEY }).listen();
  untrustedTlsPort = await untrustedMock.listenTls({ key: readFileSync(join(TLS, 'untrusted-key.pem')), cert: readFileSync(join(TLS, 'untrusted.pem')) });
  endpointMock = await new GenericChatMock({ name: 'corp-models', models: ['qwen3-coder'] }).listen();
  localMock = await new GenericChatMock({ name: 'local', models: ['llama3.1:8b'] }).listen();
  const endpointPort = new URL(endpointMock.origin).port;
  d = await startDaemon({
    env: { ...TEST_CREDENTIALS, HTTPS_PROXY: proxy.url(PROXY_USER), HTTP_PROXY: proxy.url(PROXY_USER), NODE_EXTRA_CA_CERTS: CA_FILE },
    setup: async (t) => {
      await t.cli(['provider', 'set', 'anthropic', '--base-url', `https://api.upstream.test:${anthropicTlsPort}`]);
      await t.cli(['provider', 'set', 'openai', '--base-url', `https://openai.upstream.test:${untrustedTlsPort}/v1`]);
      // a company gateway that takes its key as api-key (as Azure OpenAI does) and wants a team header
      await t.cli(
        ['endpoint', 'add', 'corp', '--url', `http://models.upstream.test:${endpointPort}/v1`, '--format', 'a', '--insecure-storage', '--auth-header', 'api-key', '--header', 'x-team=ml-platform'],
        { input: `${ENDPOINT_KEY}\n` },
      );
      await t.cli(['local', 'add', 'lm', '--url', localMock.origin]);
    },
  });
  ant = d.anthropic();
}, 60_000);

afterAll(async () => {
  rmSync(CA_FILE, { force: true });
  await stopDaemon(d);
  await Promise.all([proxy, anthropicMock, untrustedMock, endpointMock, localMock].map((s) => s?.close()));
});

const hi = [{ role: 'user' as const, content: 'hi' }];

/** settings.upstreamProxy by hand in config.json, then `config reload`. */
async function setUpstreamProxy(url: string): Promise<void> {
  const file = join(d.home, 'config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as { settings?: Record<string, unknown> };
  config.settings = { ...config.settings, upstreamProxy: url };
  await writeFile(file, JSON.stringify(config, null, 2));
  await d.cli(['config', 'reload']);
}

describe('upstream calls through the proxy in HTTPS_PROXY / HTTP_PROXY', () => {
  it('reaches Anthropic over TLS in a CONNECT tunnel, authenticated, trusting the CA in NODE_EXTRA_CA_CERTS', async () => {
    const before = proxy.calls.length;
    const answer = await ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi });
    expect(answer.content[0]).toMatchObject({ type: 'text', text: 'Echo: hi' });
    const events = await collect(await ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi, stream: true }));
    expect(events.at(-1)?.type).toBe('message_stop');

    const tunnels = proxy.calls.slice(before).filter((c) => c.kind === 'connect');
    expect(tunnels.length).toBeGreaterThanOrEqual(1);
    expect(tunnels[0]).toMatchObject({ target: `api.upstream.test:${anthropicTlsPort}`, auth: PROXY_USER });
    const rec = anthropicMock.requests.at(-1)!;
    expect(rec.headers['x-api-key']).toBe(TEST_CREDENTIALS.ANTHROPIC_API_KEY);
    expect(rec.headers['proxy-authorization']).toBeUndefined();
    expectNoServiceKey(rec, d.key);
  });

  it('sends a plain-http endpoint through the proxy by its full URL (its key in the header it names, its fixed header added), and a local server directly', async () => {
    const chat = d.openai();
    const before = proxy.calls.length;
    const viaProxy = await chat.chat.completions.create({ model: 'corp/qwen3-coder', messages: hi });
    expect(viaProxy.choices[0].message.content).toBe('Echo: hi');
    const endpointPort = new URL(endpointMock.origin).port;
    expect(proxy.calls.slice(before).map((c) => [c.kind, c.target, c.auth])).toEqual([['forward', `http://models.upstream.test:${endpointPort}/v1/chat/completions`, PROXY_USER]]);
    const headers = endpointMock.requests.at(-1)!.headers;
    expect([headers['api-key'], headers['x-team'], headers.authorization]).toEqual([ENDPOINT_KEY, 'ml-platform', undefined]);

    const local = await chat.chat.completions.create({ model: 'lm/llama3.1:8b', messages: hi });
    expect(local.choices[0].message.content).toBe('Echo: hi');
    expect(proxy.calls.length, 'loopback never goes to the proxy').toBe(before + 1);
  });

  it('says a certificate is not trusted, and what to do, when the network re-signs TLS with a CA it was not given', async () => {
    const e = await rejection(d.openai().responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect(e.status).toBe(502);
    expect(errorCode(e)).toBe('upstream_unreachable');
    expect(e.message).toContain(`The certificate of https://openai.upstream.test:${untrustedTlsPort}, reached through the proxy ${proxy.url()} (HTTPS_PROXY), is not trusted`);
    expect(e.message).toContain('NODE_EXTRA_CA_CERTS');
    expect(untrustedMock.requests).toHaveLength(0);
  });

  it('answers a refused tunnel with a 502 in the client’s shape that names the proxy, not its password', async () => {
    proxy.auth = 'alice:rotated-pw';
    proxy.dropConnections();
    await new Promise((r) => setTimeout(r, 200));
    try {
      const e = await rejection(ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi }));
      expect(e.status).toBe(502);
      expect(e.error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      expect(errorCode(e)).toBe('upstream_unreachable');
      expect(e.message).toContain(`The proxy ${proxy.url()} (HTTPS_PROXY) answered 407 when asked for https://api.upstream.test:${anthropicTlsPort}`);
      expect(e.message).not.toContain('s3cret-proxy-pw');
    } finally {
      proxy.auth = PROXY_USER;
    }
    const again = await ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi });
    expect(again.content[0]).toMatchObject({ type: 'text' });
  });

  it('status says which proxy is used and what goes direct, never with the password', async () => {
    const text = (await d.cli(['status'])).stdout;
    expect(text).toContain(`upstream proxy: through ${proxy.url()} (HTTPS_PROXY, HTTP_PROXY); direct: loopback`);
    const json = JSON.parse((await d.cli(['status', '--json'])).stdout) as { upstreamProxy?: unknown };
    expect(json.upstreamProxy).toEqual({ mode: 'env', https: proxy.url(), http: proxy.url(), httpsSource: 'HTTPS_PROXY', httpSource: 'HTTP_PROXY', problems: [], noProxy: '' });
    expect(text, 'the shell running status has the same proxy').not.toContain('svc-proxy restart');
    expect(d.log).toContain(`upstream proxy: through ${proxy.url()} (HTTPS_PROXY, HTTP_PROXY); direct: loopback`);
    const entries = await d.logs((all) => all.length >= 7);
    expect(entries.length).toBeGreaterThanOrEqual(7);
    const requestLog = await readFile(join(d.home, 'logs', 'requests.jsonl'), 'utf8').catch(() => '');
    for (const seen of [text, JSON.stringify(json), JSON.stringify(entries), requestLog, d.log]) expect(seen).not.toContain('s3cret-proxy-pw');
  });

  it('takes a proxy from settings.upstreamProxy on a config reload, for requests from then on', async () => {
    const other = await startForwardProxy();
    try {
      await setUpstreamProxy(other.url());
      const answer = await ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi });
      expect(answer.content[0]).toMatchObject({ type: 'text', text: 'Echo: hi' });
      expect(other.calls.map((c) => [c.kind, c.target, c.auth])).toEqual([['connect', `api.upstream.test:${anthropicTlsPort}`, undefined]]);
      expect((await d.cli(['status'])).stdout).toContain(`upstream proxy: through ${other.url()} (settings.upstreamProxy); direct: loopback`);
      expect(d.log, 'daemon.log says what changed').toContain(`upstream proxy: through ${other.url()} (settings.upstreamProxy); direct: loopback`);
    } finally {
      await other.close();
    }
  });

  it('goes through an https:// proxy too (TLS to the proxy, TLS to Anthropic inside it)', async () => {
    const tlsProxy = await startForwardProxy(undefined, { key: readFileSync(join(TLS, 'proxy-key.pem')), cert: readFileSync(join(TLS, 'proxy.pem')) });
    try {
      await setUpstreamProxy(tlsProxy.url());
      const answer = await ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi });
      expect(answer.content[0]).toMatchObject({ type: 'text', text: 'Echo: hi' });
      expect(tlsProxy.url()).toMatch(/^https:/);
      expect(tlsProxy.calls.map((c) => [c.kind, c.target])).toEqual([['connect', `api.upstream.test:${anthropicTlsPort}`]]);
    } finally {
      await tlsProxy.close();
    }
  });

  it('a company gateway in front of Anthropic: provider set takes the header it wants the key in, and fixed headers; --no-headers undoes them', async () => {
    await setUpstreamProxy('env'); // back to HTTPS_PROXY, whose password config.json may not hold
    const set = JSON.parse((await d.cli(['provider', 'set', 'anthropic', '--auth-header', 'authorization', '--header', 'x-gateway-team=ml', '--json'])).stdout) as unknown;
    expect(set).toEqual({ name: 'anthropic', authHeader: 'authorization', headers: { 'x-gateway-team': 'ml' } });
    await ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi });
    const viaGateway = anthropicMock.requests.at(-1)!.headers;
    expect([viaGateway.authorization, viaGateway['x-api-key'], viaGateway['x-gateway-team']]).toEqual([`Bearer ${TEST_CREDENTIALS.ANTHROPIC_API_KEY}`, undefined, 'ml']);
    const listed = JSON.parse((await d.cli(['provider', 'list', '--json'])).stdout) as Array<{ name: string; authHeader?: string; headers?: unknown }>;
    expect(listed.find((p) => p.name === 'anthropic')).toMatchObject({ authHeader: 'authorization', headers: { 'x-gateway-team': 'ml' } });

    expect((await d.cli(['provider', 'set', 'anthropic', '--no-headers'])).stdout).toContain("anthropic headers: the provider's own");
    await ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: hi });
    const own = anthropicMock.requests.at(-1)!.headers;
    expect([own.authorization, own['x-api-key'], own['x-gateway-team']]).toEqual([undefined, TEST_CREDENTIALS.ANTHROPIC_API_KEY, undefined]);
  });
});
