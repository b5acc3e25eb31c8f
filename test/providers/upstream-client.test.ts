import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeUpstreamPools, shedBurstConnections, toUpstreamError, upstreamRequest, UpstreamError, watchUpstreamSleep } from '../../src/providers/upstream-client.js';
import { streamedText } from '../fixtures/streamed-text.js';
import { dropConnectionsFrom, trackUpstreamSockets } from '../../src/providers/stranded-connections.js';
import { closedPortUrl } from '../fixtures/ports.js';

const T = { connectTimeoutMs: 2000, headersTimeoutMs: 2000, idleTimeoutMs: 2000 };

let server: Server;
let base: string;
const connections = new Set<Socket>();
let connectionCount = 0;
let lastBody = '';
let resets = 0;
const servedOn = new WeakMap<Socket, number>();

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  if (url === '/json') {
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-request-id': 'req_1',
      'retry-after': '3',
      'anthropic-ratelimit-requests-remaining': '9',
      'x-ratelimit-remaining-tokens': '99',
      'set-cookie': 'secret=1',
      'x-internal-trace': 'leak',
      server: 'mock',
    });
    res.end('{"ok":true}');
    return;
  }
  if (url === '/echo') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      lastBody = Buffer.concat(chunks).toString('utf8');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${req.method} ${lastBody.length} ${req.headers['x-test'] ?? ''}`);
    });
    return;
  }
  if (url === '/no-headers') return; // never answers
  if (url === '/stall') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n'); // then silence
    return;
  }
  if (url === '/slow-stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let n = 0;
    const timer = setInterval(() => {
      res.write(`data: ${n}\n\n`);
      if (++n === 6) {
        clearInterval(timer);
        res.end();
      }
    }, 100);
    return;
  }
  if (url === '/reset') {
    resets++;
    req.socket.destroy();
    return;
  }
  if (url === '/slow-reset') {
    resets++;
    setTimeout(() => req.socket.destroy(), 1_300);
    return;
  }
  if (url === '/stale') {
    // a server whose idle timeout closed the connection just as this request went out on it
    const served = (servedOn.get(req.socket) ?? 0) + 1;
    servedOn.set(req.socket, served);
    if (served > 1) {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => res.end('fresh'));
    return;
  }
  if (url === '/stale-rst' || url === '/answered-then-read') {
    // /stale-rst: as /stale, the closed connection answering with a reset (ECONNRESET, not a FIN);
    // /answered-then-read: a server that answers once, then reads the next request whole and dies on it
    const served = (servedOn.get(req.socket) ?? 0) + 1;
    servedOn.set(req.socket, served);
    if (served > 1 && url === '/stale-rst') {
      req.socket.resetAndDestroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      if (served === 1) res.end('fresh');
      else {
        resets++;
        req.socket.destroy();
      }
    });
    return;
  }
  if (url === '/read-then-close' || url === '/read-then-rst') {
    // a server that read the whole request, then crashed on it
    resets++;
    req.resume();
    req.on('end', () => (url === '/read-then-rst' ? req.socket.resetAndDestroy() : req.socket.destroy()));
    return;
  }
  if (url === '/reset-mid-body') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: partial\n\n', () => setTimeout(() => req.socket.destroy(), 20));
    return;
  }
  res.writeHead(404);
  res.end();
}

beforeAll(async () => {
  server = createServer(route);
  server.on('connection', (s) => {
    connectionCount++;
    connections.add(s);
    s.on('close', () => connections.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});

afterAll(async () => {
  await closeUpstreamPools(200);
  for (const s of connections) s.destroy();
  server.close();
});

async function expectUpstreamError(p: Promise<unknown>, code: UpstreamError['code']): Promise<UpstreamError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  expect((err as UpstreamError).code).toBe(code);
  return err as UpstreamError;
}

describe('upstreamRequest', () => {
  it('exposes only safe response headers', async () => {
    const res = await upstreamRequest({ url: `${base}/json`, method: 'GET', headers: {}, ...T });
    expect(res.status).toBe(200);
    expect(await streamedText(res, `${base}/json`)).toBe('{"ok":true}');
    expect(res.headers).toEqual({
      'content-type': 'application/json',
      'x-request-id': 'req_1',
      'retry-after': '3',
      'anthropic-ratelimit-requests-remaining': '9',
      'x-ratelimit-remaining-tokens': '99',
    });
  });

  it('sends string, Buffer and stream bodies with the given headers', async () => {
    for (const body of ['hello', Buffer.from('hello'), Readable.from([Buffer.from('hel'), Buffer.from('lo')])]) {
      const res = await upstreamRequest({ url: `${base}/echo`, method: 'POST', headers: { 'x-test': 'yes' }, body, ...T });
      expect(await streamedText(res, base)).toBe('POST 5 yes');
      expect(lastBody).toBe('hello');
    }
  });

  it('reuses keep-alive connections for sequential requests', async () => {
    const fresh = { ...T, connectTimeoutMs: 2001 }; // a pool of its own
    const before = connectionCount;
    for (let i = 0; i < 20; i++) {
      const res = await upstreamRequest({ url: `${base}/json`, method: 'GET', headers: {}, ...fresh });
      await streamedText(res, base);
    }
    // undici may open a second socket while the first is still finishing its response; never one per request.
    expect(connectionCount - before).toBeGreaterThanOrEqual(1);
    expect(connectionCount - before).toBeLessThanOrEqual(2);
  });

  it('refused connection → upstream_unreachable naming the origin only', async () => {
    const url = (await closedPortUrl('/v1/messages')).replace('http://', 'http://user:pw@');
    const err = await expectUpstreamError(upstreamRequest({ url, method: 'POST', headers: {}, body: '{}', ...T }), 'upstream_unreachable');
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).not.toContain('pw');
    expect(err.status).toBe(502);
  });

  it('connect timeout (TLS handshake that never completes) → upstream_timeout', async () => {
    const silent: TcpServer = createTcpServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const addr = silent.address();
    const err = await expectUpstreamError(
      upstreamRequest({ url: `https://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/x`, method: 'GET', headers: {}, connectTimeoutMs: 300, headersTimeoutMs: 5000, idleTimeoutMs: 5000 }),
      'upstream_timeout',
    );
    // the connect timer's words, not the headers timer's (the only other one that could end it)
    expect(err.message).toContain('Connecting');
    expect(err.status).toBe(504);
    silent.close();
  });

  it('headers timeout → upstream_timeout', async () => {
    const err = await expectUpstreamError(upstreamRequest({ url: `${base}/no-headers`, method: 'GET', headers: {}, connectTimeoutMs: 1000, headersTimeoutMs: 300, idleTimeoutMs: 5000 }), 'upstream_timeout');
    // the headers timer's words (the server never answers: nothing else ends it)
    expect(err.message).toContain('no response headers');
  });

  it('idle timeout applies between chunks, not to the whole body', async () => {
    const ok = await upstreamRequest({ url: `${base}/slow-stream`, method: 'GET', headers: {}, connectTimeoutMs: 1000, headersTimeoutMs: 1000, idleTimeoutMs: 400 });
    const text = await streamedText(ok, base); // 600 ms total, 100 ms gaps
    expect(text.split('\n\n').filter(Boolean)).toHaveLength(6);

    const res = await upstreamRequest({ url: `${base}/stall`, method: 'GET', headers: {}, connectTimeoutMs: 1000, headersTimeoutMs: 1000, idleTimeoutMs: 300 });
    expect(res.status).toBe(200);
    const err = await expectUpstreamError(streamedText(res, base), 'upstream_timeout');
    expect(err.message).toContain('silent');
  });

  it('an answer that is not valid HTTP (a 70 KB header, a four-digit status) is upstream_invalid_response, not unreachable', async () => {
    const answers = [`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(70 * 1024)}\r\ncontent-length: 2\r\n\r\n{}`, 'HTTP/1.1 2000 OK\r\ncontent-length: 2\r\n\r\n{}'];
    for (const answer of answers) {
      const odd: TcpServer = createTcpServer((socket) => {
        socket.once('data', () => socket.end(answer));
        socket.on('error', () => undefined);
      });
      await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
      const addr = odd.address();
      const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/x`;
      try {
        const err = await expectUpstreamError(upstreamRequest({ url, method: 'POST', headers: {}, body: '{}', ...T }), 'upstream_invalid_response');
        expect(err.message).toMatch(/sent a response that is not valid HTTP \((UND_ERR_HEADERS_OVERFLOW|HPE_[A-Z_]+|Response does not match the HTTP\/1\.1 protocol \(Invalid response status\))\)/);
        expect(err.status).toBe(502);
      } finally {
        odd.close();
      }
    }
  });

  it('body stream errors map through toUpstreamError', async () => {
    const res = await upstreamRequest({ url: `${base}/stall`, method: 'GET', headers: {}, connectTimeoutMs: 1000, headersTimeoutMs: 1000, idleTimeoutMs: 200 });
    const err = await new Promise<unknown>((resolve) => {
      res.body.on('error', resolve);
      res.body.resume();
    });
    expect(toUpstreamError(err, base).code).toBe('upstream_timeout');
  });

  it('a stream on an address the machine no longer has is cut at once, as a reset; others are left alone', async () => {
    const stop = trackUpstreamSockets();
    try {
      // the idle timeout is far off: only the cut can end this read soon
      const res = await upstreamRequest({ url: `${base}/stall`, method: 'GET', headers: {}, connectTimeoutMs: 1000, headersTimeoutMs: 1000, idleTimeoutMs: 60_000 });
      const reading = streamedText(res, base);
      expect(dropConnectionsFrom(['10.20.30.40', 'fe80::1'])).toBe(0);
      expect(dropConnectionsFrom(['192.168.1.20', '::ffff:127.0.0.1'])).toBe(1);
      // the cut's own words: without it the read would end only at the 60 s idle timeout
      const err = await expectUpstreamError(reading, 'upstream_reset');
      expect(err.message).toBe(`The connection to ${base} was cut: the network changed and this machine no longer has the address it was made from.`);
      // the pool connects afresh for the next request
      expect((await upstreamRequest({ url: `${base}/json`, method: 'GET', headers: {}, ...T })).status).toBe(200);
    } finally {
      stop();
    }
  });

  it('abort before headers and mid-body → aborted', async () => {
    const early = new AbortController();
    const p = upstreamRequest({ url: `${base}/no-headers`, method: 'GET', headers: {}, signal: early.signal, ...T });
    setTimeout(() => early.abort(), 50);
    // 'aborted', not the headers timer's upstream_timeout: the abort ended it
    await expectUpstreamError(p, 'aborted');

    const mid = new AbortController();
    const res = await upstreamRequest({ url: `${base}/stall`, method: 'GET', headers: {}, signal: mid.signal, ...T });
    const reading = streamedText(res, base);
    setTimeout(() => mid.abort(), 50);
    await expectUpstreamError(reading, 'aborted');

    const already = new AbortController();
    already.abort();
    await expectUpstreamError(upstreamRequest({ url: `${base}/json`, method: 'GET', headers: {}, signal: already.signal, ...T }), 'aborted');
  });

  it('connection reset before and after headers → upstream_reset', async () => {
    await expectUpstreamError(upstreamRequest({ url: `${base}/reset`, method: 'POST', headers: {}, body: '{}', ...T }), 'upstream_reset');
    const res = await upstreamRequest({ url: `${base}/reset-mid-body`, method: 'GET', headers: {}, ...T });
    await expectUpstreamError(streamedText(res, base), 'upstream_reset');
  });

  it('after the machine slept, the next request connects afresh; a stream under way keeps its connection', async () => {
    const t = { wall: Date.now(), mono: 0 };
    const woke: Array<[number, number]> = [];
    const stop = watchUpstreamSleep((slept, retired) => woke.push([slept, retired]), { wallMs: () => t.wall, monoMs: () => t.mono });
    try {
      const S = { ...T, connectTimeoutMs: 2003 }; // a pool of its own
      const get = async () => {
        const text = await streamedText(await upstreamRequest({ url: `${base}/json`, method: 'GET', headers: {}, ...S }), base);
        await new Promise((r) => setTimeout(r, 20)); // undici marks the connection free a moment after the body's end
        return text;
      };
      await get();
      const streaming = await upstreamRequest({ url: `${base}/slow-stream`, method: 'GET', headers: {}, ...S });
      await get(); // beside the stream: a second connection, idle afterwards
      const before = connectionCount;
      t.wall += 1_000;
      t.mono += 1_000;
      await get();
      expect(connectionCount, 'awake: the kept-alive connection is used').toBe(before);
      t.wall += 3_600_000; // an hour with the lid closed
      expect(await get()).toBe('{"ok":true}');
      expect(woke).toHaveLength(1);
      expect(woke[0][0]).toBe(3_600_000);
      expect(woke[0][1]).toBeGreaterThanOrEqual(1);
      expect(connectionCount - before, 'a new connection for the request after the sleep').toBe(1);
      expect(await streamedText(streaming, base)).toContain('data: 5');
      const after = connectionCount;
      await get();
      expect(connectionCount).toBe(after);
      expect(woke).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('sends a request once more on another connection when the upstream had closed the pooled one it went out on', async () => {
    const S = { ...T, connectTimeoutMs: 2006 }; // a pool of its own
    const post = async () => streamedText(await upstreamRequest({ url: `${base}/stale`, method: 'POST', headers: {}, body: '{"model":"m"}', ...S }), base);
    expect(await post()).toBe('fresh');
    await new Promise((r) => setTimeout(r, 20));
    const before = connectionCount;
    expect(await post(), 'the POST went into the closed connection, then on a new one').toBe('fresh');
    expect(connectionCount - before).toBe(1);
  });

  it('…also when the closed connection answers with a reset (ECONNRESET)', async () => {
    const S = { ...T, connectTimeoutMs: 2007 }; // a pool of its own
    const post = async () => streamedText(await upstreamRequest({ url: `${base}/stale-rst`, method: 'POST', headers: {}, body: '{"model":"m"}', ...S }), base);
    expect(await post()).toBe('fresh');
    await new Promise((r) => setTimeout(r, 20));
    const before = connectionCount;
    expect(await post()).toBe('fresh');
    expect(connectionCount - before).toBe(1);
  });

  it('a fresh connection closed after the server read the request is not sent again: it may be generating', async () => {
    for (const [path, port] of [
      ['/read-then-close', 2008],
      ['/read-then-rst', 2009],
    ] as const) {
      resets = 0;
      const err = await expectUpstreamError(upstreamRequest({ url: `${base}${path}`, method: 'POST', headers: {}, body: '{"model":"m"}', ...T, connectTimeoutMs: port }), 'upstream_reset');
      expect(err.message).toMatch(/closed the connection before the response was complete \((UND_ERR_SOCKET|ECONNRESET)\)/);
      expect(resets, path).toBe(1);
    }
  });

  it('a used connection closed at once after the server read the request: sent once more, as a stale one would be', async () => {
    // the wire cannot tell it from the stale race (the request written, then the connection closed
    // with no answer): once, on a fresh connection, and only within a second
    const S = { ...T, connectTimeoutMs: 2010 };
    const post = async () => streamedText(await upstreamRequest({ url: `${base}/answered-then-read`, method: 'POST', headers: {}, body: '{"model":"m"}', ...S }), base);
    expect(await post()).toBe('fresh');
    await new Promise((r) => setTimeout(r, 20));
    resets = 0;
    expect(await post(), 'the second connection answers its first request').toBe('fresh');
    expect(resets).toBe(1);
  });

  it('sends it once more only: a slow reset, or a streamed body, not again', async () => {
    resets = 0;
    await expectUpstreamError(upstreamRequest({ url: `${base}/slow-reset`, method: 'POST', headers: {}, body: '{}', ...T }), 'upstream_reset');
    expect(resets, 'the server may have been working on it').toBe(1);
    resets = 0;
    await expectUpstreamError(upstreamRequest({ url: `${base}/reset`, method: 'POST', headers: {}, body: Readable.from([Buffer.from('{}')]), ...T }), 'upstream_reset');
    expect(resets).toBe(1);
  });

  it('shedBurstConnections closes an idle pool a burst left with many connections, and only that one', async () => {
    // a server that answers only once 40 requests wait at once: the pool opens 40 connections
    const waiting: ServerResponse[] = [];
    const open = new Set<Socket>();
    const burst = createServer((_req, res) => {
      waiting.push(res);
      if (waiting.length === 40) for (const r of waiting.splice(0)) r.end('ok');
    });
    burst.on('connection', (sock) => {
      open.add(sock);
      sock.on('close', () => open.delete(sock));
    });
    await new Promise<void>((r) => burst.listen(0, '127.0.0.1', r));
    const addr = burst.address();
    const burstBase = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, async () => streamedText(await upstreamRequest({ url: `${burstBase}/x`, method: 'GET', headers: {}, ...T }), burstBase)),
      );
      expect(answers.every((a) => a === 'ok')).toBe(true);
      expect(open.size).toBe(40);
      // a pool with a request in flight is never shed, however small `keep` is
      const streaming = await upstreamRequest({ url: `${base}/slow-stream`, method: 'GET', headers: {}, ...T });
      // it resolves once the burst pool's connections are closed (the server sees them go just after)
      expect(await shedBurstConnections(1)).toBe(1);
      for (let i = 0; i < 50 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(open.size).toBe(0);
      const streamed = await streamedText(streaming, base);
      expect(streamed).toContain('data: 5');
      // small and idle: kept
      expect(await shedBurstConnections(32)).toBe(0);
      // the next request to the shed origin opens a fresh connection and works
      const again = upstreamRequest({ url: `${burstBase}/x`, method: 'GET', headers: {}, ...T });
      while (waiting.length === 0) await new Promise((r) => setTimeout(r, 5));
      for (const r of waiting.splice(0)) r.end('ok');
      expect(await streamedText(await again, burstBase)).toBe('ok');
      expect(open.size).toBe(1);
    } finally {
      await closeUpstreamPools(200);
      for (const sock of open) sock.destroy();
      burst.close();
    }
  });

  it('closeUpstreamPools closes idle keep-alive connections', async () => {
    const res = await upstreamRequest({ url: `${base}/json`, method: 'GET', headers: {}, ...T });
    await streamedText(res, base);
    expect(connections.size).toBeGreaterThan(0);
    await closeUpstreamPools(200);
    // the server sees the close a moment later
    for (let i = 0; i < 100 && connections.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(connections.size).toBe(0);
  });
});
