/**
 * upstreamText: a small JSON call's answer read whole as text (model lists, token counts, a local
 * server's probe), against a real HTTP server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeUpstreamPools, UpstreamError } from '../../src/providers/upstream-client.js';
import { upstreamText } from '../../src/providers/upstream-text.js';

const T = { connectTimeoutMs: 2000, headersTimeoutMs: 2000, idleTimeoutMs: 2000 };
const LIMIT = 64;

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/json') res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'a=1' }).end('{"data":[]}');
    else if (url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"input_tokens":7}'));
    else if (url === '/big') res.writeHead(200).end('x'.repeat(LIMIT + 1));
    else if (url === '/exact-error') res.writeHead(429, { 'retry-after': '3' }).end('e'.repeat(LIMIT));
    else if (url === '/big-error') res.writeHead(500).end('e'.repeat(LIMIT + 1));
    else if (url === '/stall') {
      res.writeHead(200);
      res.write('{');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeUpstreamPools(200);
  server.closeAllConnections();
  server.close();
});

const get = (path: string, extra = {}) => upstreamText({ url: `${base}${path}`, method: 'GET', headers: {}, ...T, ...extra }, LIMIT);

async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}

describe('upstreamText', () => {
  it('reads the answer as text, with the safe headers only, decoded when compressed', async () => {
    expect(await get('/json')).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, text: '{"data":[]}' });
    expect((await get('/gzip')).text).toBe('{"input_tokens":7}');
  });

  it('hands back an error answer up to the limit whole, with its status and headers', async () => {
    const answer = await get('/exact-error');
    expect([answer.status, answer.headers['retry-after'], answer.text.length]).toEqual([429, '3', LIMIT]);
  });

  it('fails any answer over the limit, an error too, as upstream_reset', async () => {
    for (const path of ['/big', '/big-error']) {
      const err = await failure(get(path));
      expect([err.code, err.message]).toEqual(['upstream_reset', `${base} sent a response larger than ${LIMIT} bytes.`]);
    }
  });

  it('fails a body that went silent mid-answer as upstream_timeout, and a closed port as upstream_unreachable', async () => {
    const err = await failure(get('/stall', { idleTimeoutMs: 200 }));
    expect(err.code).toBe('upstream_timeout');
    expect((await failure(upstreamText({ url: 'http://127.0.0.1:1/x', method: 'GET', headers: {}, ...T }, LIMIT))).code).toBe('upstream_unreachable');
  });
});
