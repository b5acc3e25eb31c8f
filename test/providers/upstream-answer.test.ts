/**
 * upstreamAnswer: a whole answer read from undici's dispatch handler, with no stream. Against a
 * real HTTP server on 127.0.0.1, it must behave as upstreamRequest and reading its body do: the
 * same headers, limits, decoding, timeouts, aborts, errors and second try.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLarge } from '../../src/providers/read-all.js';
import { upstreamAnswer, type AnswerLimits, type UpstreamAnswer } from '../../src/providers/upstream-answer.js';
import { closeUpstreamPools, toUpstreamError, UpstreamError, type AbortEmitter, type UpstreamRequest } from '../../src/providers/upstream-client.js';
import { undecodableCoding } from '../../src/providers/upstream-error.js';
import { bodyErrorCode } from '../../src/routing/upstream-body.js';
import { closedPortUrl } from '../fixtures/ports.js';

const T = { connectTimeoutMs: 2000, headersTimeoutMs: 2000, idleTimeoutMs: 2000 };
const LIMITS: AnswerLimits = { answerBytes: 1000, errorBytes: 100 };

let server: Server;
let base: string;
const connections = new Set<Socket>();
let connectionCount = 0;
let resets = 0;
const servedOn = new WeakMap<Socket, number>();

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  if (url === '/json') {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_1', 'x-ratelimit-remaining-tokens': '99', 'set-cookie': 'secret=1', date: 'Sun, 29 Nov 2026 10:00:00 GMT' });
    res.end('{"ok":true}');
    return;
  }
  if (url === '/echo') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(`${req.method} ${Buffer.concat(chunks).toString('utf8')} ${req.headers['x-test'] ?? ''}`));
    return;
  }
  if (url === '/pieces') {
    // one answer in several writes: several chunks to join
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"a":');
    setTimeout(() => res.end('1}'), 20);
    return;
  }
  if (url === '/empty') {
    res.writeHead(200, { 'content-length': '0' });
    res.end();
    return;
  }
  if (url === '/limited') {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7', date: 'Sun, 29 Nov 2026 10:00:00 GMT' });
    res.end(`{"error":"${'x'.repeat(500)}"}`);
    return;
  }
  if (url === '/big') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('x'.repeat(600));
    setTimeout(() => res.end('y'.repeat(600)), 20);
    return;
  }
  if (url === '/hints') {
    res.writeEarlyHints({ link: '</x>; rel=preload' });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"after":"hints"}');
    return;
  }
  if (url === '/gzip' || url === '/gzip-big') {
    const text = url === '/gzip' ? '{"zipped":true}' : `"${'z'.repeat(5000)}"`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(text));
    return;
  }
  if (url === '/gzip-bad') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(Buffer.from('this is not gzip at all'));
    return;
  }
  if (url === '/lzw') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress' });
    res.end('{}');
    return;
  }
  if (url === '/no-headers') return; // never answers
  if (url === '/stall') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"partial":'); // then silence
    return;
  }
  if (url === '/reset') {
    resets++;
    req.socket.destroy();
    return;
  }
  if (url === '/reset-mid-body') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"partial":', () => setTimeout(() => req.socket.destroy(), 20));
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
  if (url === '/read-then-close') {
    resets++;
    req.resume();
    req.on('end', () => req.socket.destroy());
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

function ask(path: string, extra: Partial<UpstreamRequest> = {}, limits = LIMITS): Promise<UpstreamAnswer> {
  return upstreamAnswer({ url: `${base}${path}`, method: 'GET', headers: {}, ...T, ...extra }, limits);
}

async function rejection(p: Promise<unknown>, code: UpstreamError['code']): Promise<UpstreamError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  expect((err as UpstreamError).code).toBe(code);
  return err as UpstreamError;
}

const text = (a: UpstreamAnswer): string | undefined => a.bytes?.toString('utf8');

describe('upstreamAnswer', () => {
  it('reads the whole answer with only the safe headers, and the date apart on a 2xx', async () => {
    const a = await ask('/json');
    expect(a.status).toBe(200);
    expect(text(a)).toBe('{"ok":true}');
    expect(a.bodyError).toBeUndefined();
    expect(a.headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'req_1', 'x-ratelimit-remaining-tokens': '99' });
    expect(a.receivedDate).toBe('Sun, 29 Nov 2026 10:00:00 GMT');
    expect(text(await ask('/pieces'))).toBe('{"a":1}');
    expect(text(await ask('/empty'))).toBe('');
  });

  it('sends string and Buffer bodies with the given headers', async () => {
    for (const body of ['hello', Buffer.from('hello')]) {
      expect(text(await ask('/echo', { method: 'POST', headers: { 'x-test': 'yes' }, body }))).toBe('POST hello yes');
    }
  });

  it('an error status: its body cut at errorBytes, its date among the headers', async () => {
    const a = await ask('/limited');
    expect(a.status).toBe(429);
    expect(a.bytes).toHaveLength(LIMITS.errorBytes);
    expect(text(a)).toMatch(/^\{"error":"x+$/);
    expect(a.headers).toMatchObject({ 'retry-after': '7', date: 'Sun, 29 Nov 2026 10:00:00 GMT' });
  });

  it('a 2xx past answerBytes fails its body with AnswerTooLarge; the connection is dropped, the next request served', async () => {
    const before = connectionCount;
    const a = await ask('/big');
    expect(a.status).toBe(200);
    expect(a.bytes).toBeUndefined();
    expect(a.bodyError).toBeInstanceOf(AnswerTooLarge);
    expect(text(await ask('/json'))).toBe('{"ok":true}');
    expect(connectionCount - before, 'the half-read connection was not reused').toBeGreaterThanOrEqual(1);
    expect(text(await ask('/big', {}, { answerBytes: 2000, errorBytes: 10 }))).toHaveLength(1200);
  });

  it('skips an informational answer (103) and reads the one after it', async () => {
    const a = await ask('/hints');
    expect(a.status).toBe(200);
    expect(text(a)).toBe('{"after":"hints"}');
  });

  it('decodes a compressed answer, bounded by the decoded size; bad data and an unknown coding fail as a streamed body does', async () => {
    expect(text(await ask('/gzip'))).toBe('{"zipped":true}');
    expect((await ask('/gzip-big')).bodyError).toBeInstanceOf(AnswerTooLarge);
    expect(text(await ask('/gzip-big', {}, { answerBytes: 10_000, errorBytes: 10 }))).toHaveLength(5002);
    const bad = await ask('/gzip-bad');
    expect(bad.bytes).toBeUndefined();
    expect(undecodableCoding(bad.bodyError)).toBe('gzip');
    expect(bodyErrorCode(bad.bodyError)).toBe('upstream_invalid_response');
    const err = await rejection(ask('/lzw'), 'upstream_invalid_response');
    expect(err.message).toContain('Content-Encoding "compress"');
    expect(text(await ask('/json')), 'the pool still serves').toBe('{"ok":true}');
  });

  it('no headers within headersTimeoutMs → upstream_timeout; a body silent past idleTimeoutMs fails with undici’s body timeout', async () => {
    const err = await rejection(ask('/no-headers', { headersTimeoutMs: 300 }), 'upstream_timeout');
    expect(err.message).toContain('no response headers');
    const a = await ask('/stall', { idleTimeoutMs: 300 });
    expect(a.status).toBe(200);
    expect(a.bytes).toBeUndefined();
    expect(bodyErrorCode(a.bodyError)).toBe('upstream_timeout');
  });

  it('abort before the head rejects as aborted, mid-body fails the body; an AbortSignal or an emitter with `aborted`', async () => {
    const early = new AbortController();
    const p = ask('/no-headers', { signal: early.signal });
    setTimeout(() => early.abort(), 50);
    await rejection(p, 'aborted');

    const emitter = Object.assign(new EventEmitter(), { aborted: false }) as EventEmitter & { aborted: boolean };
    const q = ask('/no-headers', { signal: emitter as AbortEmitter });
    setTimeout(() => {
      emitter.aborted = true;
      emitter.emit('abort');
    }, 50);
    await rejection(q, 'aborted');
    expect(emitter.listenerCount('abort'), 'the listener is removed').toBe(0);

    const mid = new AbortController();
    const r = ask('/stall', { signal: mid.signal });
    setTimeout(() => mid.abort(), 100);
    const a = await r;
    expect(a.status).toBe(200);
    expect(toUpstreamError(a.bodyError, base).code).toBe('aborted');

    const already = new AbortController();
    already.abort();
    await rejection(ask('/json', { signal: already.signal }), 'aborted');

    const done = Object.assign(new EventEmitter(), { aborted: false }) as EventEmitter & { aborted: boolean };
    expect(text(await ask('/json', { signal: done as AbortEmitter }))).toBe('{"ok":true}');
    expect(done.listenerCount('abort'), 'no listener left once answered').toBe(0);
  });

  it('refused → upstream_unreachable; reset before the head → upstream_reset; reset mid-body fails the body', async () => {
    const url = await closedPortUrl('/v1/messages');
    await rejection(upstreamAnswer({ url, method: 'POST', headers: {}, body: '{}', ...T }, LIMITS), 'upstream_unreachable');
    await rejection(ask('/reset', { method: 'POST', body: '{}' }), 'upstream_reset');
    const a = await ask('/reset-mid-body');
    expect(a.bytes).toBeUndefined();
    expect(bodyErrorCode(a.bodyError)).toBe('upstream_reset');
  });

  it('sends a request once more when the upstream had closed the pooled connection under it, and not when a fresh one closed', async () => {
    const S = { ...T, connectTimeoutMs: 2106 }; // a pool of its own
    const post = async () => text(await upstreamAnswer({ url: `${base}/stale`, method: 'POST', headers: {}, body: '{"model":"m"}', ...S }, LIMITS));
    expect(await post()).toBe('fresh');
    await new Promise((r) => setTimeout(r, 20));
    const before = connectionCount;
    expect(await post(), 'the POST went into the closed connection, then on a new one').toBe('fresh');
    expect(connectionCount - before).toBe(1);

    resets = 0;
    await rejection(upstreamAnswer({ url: `${base}/read-then-close`, method: 'POST', headers: {}, body: '{}', ...T, connectTimeoutMs: 2107 }, LIMITS), 'upstream_reset');
    expect(resets).toBe(1);
  });
});
