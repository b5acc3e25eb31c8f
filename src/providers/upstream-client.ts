/**
 * The one HTTP client for upstream calls: undici's request on a keep-alive Pool per origin (no
 * fetch, no web streams). Timeouts: connect, time to response headers, and idle time between body
 * chunks (undici's bodyTimeout), so a long stream never times out while data keeps coming.
 * Failures reject with an UpstreamError carrying a stable code; messages name the origin only.
 */
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { Dispatcher, Pool as UndiciPool } from 'undici';
import { displayOrigin } from './base-url.js';

export type UpstreamErrorCode = 'upstream_unreachable' | 'upstream_timeout' | 'upstream_reset' | 'aborted';

export class UpstreamError extends Error {
  readonly code: UpstreamErrorCode;
  constructor(code: UpstreamErrorCode, message: string) {
    super(message);
    this.name = 'UpstreamError';
    this.code = code;
  }
  /** HTTP status to answer with (499 = the client went away). */
  get status(): number {
    return this.code === 'upstream_timeout' ? 504 : this.code === 'aborted' ? 499 : 502;
  }
}

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
  status: number;
  /** Only the safe subset of the upstream's headers (see exposeHeader). */
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

// Only the Pool and its request() API: undici's index also loads fetch, WebSocket, caches, mocks
// and more (about 8 MB of RSS an idle daemon would carry for nothing). The index is what attaches
// request() to every dispatcher, so it is called here as a plain function on the pool.
// These are undici-internal paths (version pinned in package-lock); the upstream tests catch a move.
const requireUndici = createRequire(import.meta.url);
const Pool = requireUndici('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
type Pool = UndiciPool;
const poolRequest = requireUndici('undici/lib/api/api-request.js') as (this: Pool, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

const pools = new Map<string, Pool>();
/** More idle connections than a laptop's tools keep busy at once: past this a pool is a burst's leftover. */
const BURST_CONNECTIONS_KEPT = 32;

function poolFor(origin: string, connectTimeoutMs: number): Pool {
  const key = `${origin}|${connectTimeoutMs}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(origin, {
      connectTimeout: connectTimeoutMs,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
    });
    pools.set(key, pool);
  }
  return pool;
}

const SAFE_HEADERS = new Set(['content-type', 'retry-after', 'retry-after-ms', 'x-request-id', 'request-id', 'x-generation-id', 'openai-processing-ms']);

/** Response headers routing may see or forward: content type, retry hints, request ids, rate limits. */
export function exposeHeader(name: string): boolean {
  return SAFE_HEADERS.has(name) || name.startsWith('x-ratelimit-') || name.startsWith('anthropic-ratelimit-') || name.startsWith('ratelimit');
}

function splitUrl(url: string): { origin: string; path: string } {
  const m = /^(https?:\/\/[^/?#]+)([^#]*)/i.exec(url);
  if (!m) throw new UpstreamError('upstream_unreachable', 'The upstream URL is not a valid http(s) URL.');
  return { origin: m[1], path: m[2] === '' ? '/' : m[2].startsWith('?') ? `/${m[2]}` : m[2] };
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED', 'HPE_INVALID_CONSTANT', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (e && typeof e.code === 'string') return e.code;
  if (e && e.cause && typeof e.cause.code === 'string') return e.cause.code;
  return undefined;
}

/**
 * Any error from a request or from reading its body, as an UpstreamError. Exported so code that
 * consumes a response body (streams) maps body errors the same way.
 */
export function toUpstreamError(err: unknown, url: string, timeouts?: { connectTimeoutMs?: number; headersTimeoutMs?: number; idleTimeoutMs?: number }): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const where = displayOrigin(url);
  const code = errorCode(err);
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') {
    return new UpstreamError('aborted', `The request to ${where} was aborted.`);
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new UpstreamError('upstream_timeout', `Connecting to ${where} timed out${ms(timeouts?.connectTimeoutMs)}.`);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new UpstreamError('upstream_timeout', `${where} sent no response headers${ms(timeouts?.headersTimeoutMs, 'within')}.`);
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new UpstreamError('upstream_timeout', `${where} went silent mid-response${ms(timeouts?.idleTimeoutMs, 'for')}.`);
  }
  if (code && RESET.has(code)) {
    return new UpstreamError('upstream_reset', `${where} closed the connection before the response was complete (${code}).`);
  }
  if (code && UNREACHABLE.has(code)) {
    return new UpstreamError('upstream_unreachable', `Could not connect to ${where} (${code}).`);
  }
  return new UpstreamError('upstream_unreachable', `The request to ${where} failed${code ? ` (${code})` : ''}.`);
}

function ms(value: number | undefined, word = 'after'): string {
  return value === undefined ? '' : ` ${word} ${value} ms`;
}

export async function upstreamRequest(req: UpstreamRequest): Promise<UpstreamResponse> {
  if (req.signal?.aborted) throw new UpstreamError('aborted', `The request to ${displayOrigin(req.url)} was aborted.`);
  const { origin, path } = splitUrl(req.url);
  const pool = poolFor(origin, req.connectTimeoutMs);
  try {
    const res = await poolRequest.call(pool, {
      path,
      method: req.method,
      headers: req.headers,
      body: req.body as string | Buffer | Readable | undefined,
      signal: req.signal,
      headersTimeout: req.headersTimeoutMs,
      bodyTimeout: req.idleTimeoutMs,
    });
    const headers: Record<string, string | string[] | undefined> = {};
    for (const name in res.headers) {
      if (exposeHeader(name)) headers[name] = res.headers[name];
    }
    return { status: res.statusCode, headers, body: res.body };
  } catch (err) {
    throw toUpstreamError(err, req.url, req);
  }
}

/**
 * Read a whole (small) response body, mapping errors. `limitBytes` guards against an upstream
 * that answers a JSON call with something huge.
 */
export async function readUpstreamBody(res: UpstreamResponse, url: string, limitBytes = 16 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > limitBytes) {
        res.body.destroy();
        throw new UpstreamError('upstream_reset', `${displayOrigin(url)} sent a response larger than ${limitBytes} bytes.`);
      }
      chunks.push(buf);
    }
  } catch (err) {
    throw toUpstreamError(err, url);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * After a burst a pool keeps one connection per request that ran at once: 1,000 concurrent
 * streams leave 1,000 open sockets and 1,000 undici clients, which a Pool never drops. An idle
 * daemon calls this (the idle collector, after a burst): a pool with nothing in flight that holds
 * more than `keep` connections is closed and forgotten, and the next request to its origin opens
 * a fresh one. Resolves once they are closed, with how many pools it closed.
 */
export async function shedBurstConnections(keep = BURST_CONNECTIONS_KEPT, graceMs = 1000): Promise<number> {
  const shed: Pool[] = [];
  for (const [key, pool] of pools) {
    const s = pool.stats;
    if (s.running + s.pending + s.queued > 0 || s.connected <= keep) continue;
    pools.delete(key);
    shed.push(pool);
  }
  await Promise.all(shed.map((pool) => closeWithin(pool, graceMs)));
  return shed.length;
}

/** Close every pool (daemon shutdown): graceful first, then forced after a short grace. */
export async function closeUpstreamPools(graceMs = 1000): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => closeWithin(pool, graceMs)));
}

/** Close a pool gracefully, forcing it shut if that takes longer than `graceMs`. */
async function closeWithin(pool: Pool, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
    timer.unref();
  });
  const closing = pool.close().then(
    () => 'closed' as const,
    () => 'failed' as const,
  );
  const result = await Promise.race([closing, grace]);
  if (timer) clearTimeout(timer);
  if (result !== 'closed') await pool.destroy().catch(() => undefined);
}
