/**
 * The upstream client through a real forward proxy on 127.0.0.1 (test/fixtures/forward-proxy.ts).
 * Upstreams are named `*.test`, which only the proxy resolves: an answer proves the request went
 * through it. (https through a CONNECT tunnel is in test/e2e/upstream-proxy.test.ts, where the
 * daemon starts with NODE_EXTRA_CA_CERTS naming the test CA.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { upstreamAnswer } from '../../src/providers/upstream-answer.js';
import { shedBurstConnections, upstreamRequest, UpstreamError, useUpstreamProxy } from '../../src/providers/upstream-client.js';
import { streamedText } from '../fixtures/streamed-text.js';
import { startForwardProxy, type ForwardProxy } from '../fixtures/forward-proxy.js';
import { closedPortUrl } from '../fixtures/ports.js';

const T = { connectTimeoutMs: 2000, headersTimeoutMs: 2000, idleTimeoutMs: 2000 };
const NO_SETTINGS = { upstreamProxy: 'env', noProxy: [] as string[] };

let upstream: Server;
let port = 0;
const seen: Array<{ url: string; headers: Record<string, unknown> }> = [];
let proxy: ForwardProxy;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: { ...req.headers } });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"host":${JSON.stringify(req.headers.host)}}`));
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  port = (upstream.address() as AddressInfo).port;
  proxy = await startForwardProxy('alice:s3cret-pw');
});

afterEach(() => {
  // unit files share a process: leave the plan as the environment's
  useUpstreamProxy(NO_SETTINGS, {});
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((done) => upstream.close(() => done()));
});

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await upstreamRequest({ url, method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-provider' }, body: '{}', ...T });
  return { status: res.status, body: await streamedText(res, url) };
}

async function failure(url: string): Promise<UpstreamError> {
  const err = await get(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}

describe('upstream calls through an HTTP proxy', () => {
  it('reaches an upstream only the proxy can resolve, with the proxy credentials from HTTP_PROXY', async () => {
    useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: proxy.url('alice:s3cret-pw') });
    const calls = proxy.calls.length;
    const res = await get(`http://api.upstream.test:${port}/v1/messages`);
    expect(res).toEqual({ status: 200, body: `{"host":"api.upstream.test:${port}"}` });
    const call = proxy.calls[calls];
    expect(call).toMatchObject({ kind: 'forward', target: `http://api.upstream.test:${port}/v1/messages`, auth: 'alice:s3cret-pw' });
    // the provider's own header goes on; the proxy's credentials stop at the proxy
    const last = seen[seen.length - 1];
    expect(last.headers['x-api-key']).toBe('sk-provider');
    expect(last.headers['proxy-authorization']).toBeUndefined();
    expect(last.url).toBe('/v1/messages');
  });

  it('reads a whole answer (upstreamAnswer) through the proxy too, and names the proxy when it refuses', async () => {
    useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: proxy.url('alice:s3cret-pw') });
    const calls = proxy.calls.length;
    const url = `http://api.upstream.test:${port}/v1/chat/completions`;
    const limits = { answerBytes: 1000, errorBytes: 1000 };
    const answer = await upstreamAnswer({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', ...T }, limits);
    expect(answer.status).toBe(200);
    expect(answer.bytes?.toString('utf8')).toBe(`{"host":"api.upstream.test:${port}"}`);
    expect(proxy.calls[calls]).toMatchObject({ kind: 'forward', target: url, auth: 'alice:s3cret-pw' });
    useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: proxy.url('alice:wrong-pw') });
    const err = await upstreamAnswer({ url, method: 'POST', headers: {}, body: '{}', ...T }, limits).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).message).toContain(`The proxy ${proxy.url()} (HTTP_PROXY) answered 407`);
  });

  it('goes direct to loopback and to NO_PROXY hosts, with the proxy set', async () => {
    useUpstreamProxy({ upstreamProxy: 'env', noProxy: ['lab.test'] }, { HTTP_PROXY: proxy.url('alice:s3cret-pw'), NO_PROXY: 'other.test' });
    const calls = proxy.calls.length;
    expect((await get(`http://127.0.0.1:${port}/local`)).status).toBe(200);
    expect(proxy.calls.length).toBe(calls);
    // a NO_PROXY host does not resolve here (or the lookup times out), so it fails: it was not sent to the proxy
    const err = await failure(`http://gpu.lab.test:${port}/x`);
    expect(['upstream_unreachable', 'upstream_timeout']).toContain(err.code);
    expect(err.message).not.toContain('proxy');
    expect(proxy.calls.length).toBe(calls);
  });

  it('says the proxy refused, without its password, when the credentials are wrong', async () => {
    useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: proxy.url('alice:wrong-pw') });
    const err = await failure(`http://api.upstream.test:${port}/v1/messages`);
    expect(err.code).toBe('upstream_unreachable');
    expect(err.message).toBe(
      `The proxy ${proxy.url()} (HTTP_PROXY) answered 407 when asked for http://api.upstream.test:${port}: it wants a user and password it accepts, given in the proxy URL as http://user:password@host:port.`,
    );
    expect(proxy.calls[proxy.calls.length - 1].auth).toBe('alice:wrong-pw');
  });

  it('names the proxy when the proxy cannot be reached', async () => {
    const closed = await closedPortUrl();
    useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: closed.replace('http://', 'http://bob:pw-9@') });
    const err = await failure(`http://api.upstream.test:${port}/v1/messages`);
    expect(err.code).toBe('upstream_unreachable');
    expect(err.message).toBe(`Could not connect to the proxy ${closed} (HTTP_PROXY) on the way to http://api.upstream.test:${port} (ECONNREFUSED).`);
    expect(err.message).not.toContain('pw-9');
  });

  it('fails, and does not go direct, when the proxy setting cannot be used', async () => {
    useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: 'socks5://127.0.0.1:1080' });
    const calls = proxy.calls.length;
    const err = await failure(`http://api.upstream.test:${port}/v1/messages`);
    expect(err.code).toBe('upstream_unreachable');
    expect(err.message).toBe(`Not connecting to http://api.upstream.test:${port}: HTTP_PROXY names a socks5 proxy; svc-proxy supports http:// and https:// proxies only.`);
    expect(proxy.calls.length).toBe(calls);
  });

  it('switches proxies when the settings change, and "none" goes direct again', async () => {
    const other = await startForwardProxy();
    try {
      useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: proxy.url('alice:s3cret-pw') });
      expect((await get(`http://api.upstream.test:${port}/a`)).status).toBe(200);
      useUpstreamProxy({ upstreamProxy: other.url(), noProxy: [] }, { HTTP_PROXY: proxy.url('alice:s3cret-pw') });
      expect((await get(`http://api.upstream.test:${port}/b`)).status).toBe(200);
      expect(other.calls.map((c) => c.target)).toEqual([`http://api.upstream.test:${port}/b`]);
      useUpstreamProxy({ upstreamProxy: 'none', noProxy: [] }, { HTTP_PROXY: proxy.url('alice:s3cret-pw') });
      const calls = proxy.calls.length + other.calls.length;
      expect((await get(`http://127.0.0.1:${port}/c`)).status).toBe(200);
      expect(proxy.calls.length + other.calls.length).toBe(calls);
    } finally {
      await other.close();
    }
  });

  it('sheds a proxy agent a burst left, and the next request opens a new one', async () => {
    useUpstreamProxy(NO_SETTINGS, { HTTP_PROXY: proxy.url('alice:s3cret-pw') });
    await Promise.all(Array.from({ length: 6 }, (_, i) => get(`http://api.upstream.test:${port}/burst/${i}`)));
    expect(await shedBurstConnections(2, 500)).toBe(1);
    expect(await shedBurstConnections(2, 500)).toBe(0);
    expect((await get(`http://api.upstream.test:${port}/after`)).status).toBe(200);
  });
});
