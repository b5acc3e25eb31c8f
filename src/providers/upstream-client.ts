/**
 * The one HTTP client for upstream calls: undici's request (no fetch, no web streams) on the
 * connection upstream-routes.ts picks; upstream-answer.ts reads a whole answer without a stream,
 * on the same route, retry and errors (prepare, retryIfStale, exposedHeaders). Timeouts: connect,
 * time to response headers, and idle time between body chunks (undici's bodyTimeout), so a long
 * stream never times out while data keeps coming. Failures reject with an UpstreamError
 * (upstream-error.ts).
 */
import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { displayOrigin } from './base-url.js';
import { decodedBody } from './upstream-decoding.js';
import { errorCode, toUpstreamError, UpstreamError, type ProxyVia } from './upstream-error.js';
import { poolRequest, routeFor, noticeSleep, type Pool } from './upstream-routes.js';
import { failedOnUsedConnection } from './used-connections.js';

export { toUpstreamError, UpstreamError, type ProxyVia, type UpstreamErrorCode } from './upstream-error.js';
export { closeUpstreamPools, retireUpstreamConnections, shedBurstConnections, upstreamProxyPlan, useUpstreamProxy, watchUpstreamSleep } from './upstream-routes.js';

/** An EventEmitter that emits 'abort' and says whether it has (undici's EventEmitter signal). */
export interface AbortEmitter extends EventEmitter {
  readonly aborted: boolean;
}

export interface UpstreamRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | NodeJS.ReadableStream;
  /**
   * Cancels the request. undici documents `AbortSignal | EventEmitter` here; the hot path passes a
   * plain emitter with `aborted` (an AbortController costs microseconds per request).
   */
  signal?: AbortSignal | AbortEmitter;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Longest silence between two body chunks. */
  idleTimeoutMs: number;
}

export interface UpstreamResponse {
  /** Tells it from a whole answer (UpstreamAnswer), for the compiler to check which one is read. */
  kind: 'stream';
  status: number;
  /**
   * Only the safe subset of the upstream's headers (see exposeHeader), and on an error status its
   * `date`: the upstream's clock, to read its absolute reset times by (retry-wait.ts upstreamClock).
   * None of these is forwarded to a client as it is.
   */
  headers: Record<string, string | string[] | undefined>;
  /**
   * The `date` header as undici read it, on every answer: not copied into `headers` on a 2xx, whose
   * body is rarely an error, and read only when it is one (a 200 carrying OpenRouter's error).
   */
  receivedDate: string | string[] | undefined;
  body: Readable;
}

const SAFE_HEADERS = new Set(['content-type', 'retry-after', 'retry-after-ms', 'x-should-retry', 'x-request-id', 'request-id', 'x-generation-id', 'openai-processing-ms']);

/** Response headers routing may see or forward: content type, retry hints, request ids, rate limits. */
export function exposeHeader(name: string): boolean {
  return SAFE_HEADERS.has(name) || name.startsWith('x-ratelimit-') || name.startsWith('anthropic-ratelimit-') || name.startsWith('ratelimit');
}

function splitUrl(url: string): { origin: string; path: string } {
  const m = /^(https?:\/\/[^/?#]+)([^#]*)/i.exec(url);
  if (!m) throw new UpstreamError('upstream_unreachable', 'The upstream URL is not a valid http(s) URL.');
  return { origin: m[1], path: m[2] === '' ? '/' : m[2].startsWith('?') ? `/${m[2]}` : m[2] };
}

/** Where a request goes and undici's options for it; throws when it cannot go (aborted, a refused proxy). */
export interface Prepared {
  dispatcher: Pool;
  options: Dispatcher.RequestOptions;
  via: ProxyVia | undefined;
}

export function prepare(req: UpstreamRequest): Prepared {
  if (req.signal?.aborted) throw new UpstreamError('aborted', `The request to ${displayOrigin(req.url)} was aborted.`);
  const { origin, path } = splitUrl(req.url);
  noticeSleep();
  const route = routeFor(origin, req.connectTimeoutMs);
  if (route.kind === 'refused') throw new UpstreamError('upstream_unreachable', `Not connecting to ${displayOrigin(req.url)}: ${route.problem}`);
  const options: Dispatcher.RequestOptions = {
    path,
    method: req.method as Dispatcher.HttpMethod,
    headers: req.headers,
    body: req.body as string | Buffer | Readable | undefined,
    signal: req.signal,
    headersTimeout: req.headersTimeoutMs,
    bodyTimeout: req.idleTimeoutMs,
  };
  // a proxy's agent picks the connection by origin, and adds a host header to the object it gets
  if (route.kind === 'proxy') {
    Object.assign(options, { origin, headers: { ...req.headers } });
    return { dispatcher: route.proxy.agent, options, via: route.proxy };
  }
  return { dispatcher: route.pool, options, via: undefined };
}

/**
 * After the first try of a request failed with `err`: the request made once more (`again`) when it
 * failed on a connection the upstream had closed under it (closedUnderUs), else `err` as an
 * UpstreamError. `started`: when the first try went out.
 */
export async function retryIfStale<T>(err: unknown, req: UpstreamRequest, via: ProxyVia | undefined, started: number, again: () => Promise<T>): Promise<T> {
  if (!closedUnderUs(err, req, started)) throw toUpstreamError(err, req.url, req, via);
  try {
    return await again();
  } catch (failed) {
    throw toUpstreamError(failed, req.url, req, via);
  }
}

/**
 * The answer's headers routing may see (exposeHeader); on an error status its `date`, on a
 * redirect its `location` (named, as its origin, in the error: routing/upstream-redirect.ts).
 */
export function exposedHeaders(all: Record<string, string | string[] | undefined>, status: number): Record<string, string | string[] | undefined> {
  const headers: Record<string, string | string[] | undefined> = {};
  for (const name in all) {
    if (exposeHeader(name)) headers[name] = all[name];
  }
  if (status >= 300) {
    if (status >= 400) {
      if (all.date !== undefined) headers.date = all.date;
    } else if (all.location !== undefined) headers.location = all.location;
  }
  return headers;
}

/** A request whose answer is read as a stream (upstreamAnswer reads a whole one without it). */
export async function upstreamRequest(req: UpstreamRequest): Promise<UpstreamResponse> {
  const { dispatcher, options, via } = prepare(req);
  const started = performance.now();
  let res: Dispatcher.ResponseData;
  try {
    res = await poolRequest.call(dispatcher, options);
  } catch (err) {
    res = await retryIfStale(err, req, via, started, () => poolRequest.call(dispatcher, options));
  }
  const encoding = res.headers['content-encoding'];
  return {
    kind: 'stream',
    status: res.statusCode,
    headers: exposedHeaders(res.headers, res.statusCode),
    receivedDate: res.headers.date,
    body: encoding === undefined ? res.body : decodedBody(res.body, encoding, req.url),
  };
}

const CLOSED_UNDER_US = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
/** A request written into a connection its server had already closed fails within a round trip. */
const STALE_FAILURE_MS = 1_000;

/**
 * Whether a request failed the way one does that was written into a kept-alive connection the
 * upstream closed while it sat in the pool (its idle timeout fired as the request went out): reset
 * or closed before any answer, at once, on a connection that had carried an answer before. A
 * server that had closed the connection never read it, so it goes once more, on another
 * connection; undici itself repeats only idempotent methods, and every model call is a POST. A
 * fresh connection cannot be stale: one closed under its first request means the server read it
 * and died on it (used-connections.ts), and a failure that took longer is that too. Neither is
 * repeated here (a second generation, maybe billed twice): the client decides, or the group falls
 * back. Bodies that were streams cannot be sent twice.
 */
function closedUnderUs(err: unknown, req: UpstreamRequest, started: number): boolean {
  const code = errorCode(err);
  if (code === undefined || !CLOSED_UNDER_US.has(code) || req.signal?.aborted) return false;
  if (req.body !== undefined && typeof req.body !== 'string' && !Buffer.isBuffer(req.body)) return false;
  return performance.now() - started < STALE_FAILURE_MS && failedOnUsedConnection(err);
}
