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
import { SleepDetector, type SleepClocks } from './sleep-detector.js';
import { proxyFor, proxyPlan, type ProxyPlan, type ProxySettings } from './upstream-proxy.js';

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

/** How an origin is reached: its own Pool, a proxy's agent, or not at all (an unusable proxy). */
type Route = { kind: 'direct'; pool: Pool } | { kind: 'proxy'; proxy: ProxyAgentEntry } | { kind: 'refused'; problem: string };

interface ProxyAgentEntry {
  /** undici's ProxyAgent: the same request API as a Pool, with `origin` given per request. */
  agent: Pool;
  /** The proxy without its credentials, and the setting it came from, for messages. */
  display: string;
  source: string;
  /** The per-origin pools the agent made (their stats say whether it is busy). */
  pools: Set<Pool>;
}

const routes = new Map<string, Route>();
const proxyAgents = new Map<string, ProxyAgentEntry>();
let plan: ProxyPlan | undefined;

/** More idle connections than a laptop's tools keep busy at once: past this a pool is a burst's leftover. */
const BURST_CONNECTIONS_KEPT = 32;

const POOL_OPTIONS = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 };

let sleepWatch: { detector: SleepDetector; onWake: (sleptMs: number, retired: number) => void } | undefined;

/**
 * Retire every upstream connection when the machine slept between two upstream requests
 * (sleep-detector.ts): the next request connects afresh instead of writing into a connection the
 * provider dropped meanwhile. `onWake` hears about it (the daemon logs it). Returns the stop.
 */
export function watchUpstreamSleep(onWake: (sleptMs: number, retired: number) => void, clocks?: SleepClocks): () => void {
  const watch = { detector: new SleepDetector(clocks), onWake };
  sleepWatch = watch;
  return () => {
    if (sleepWatch === watch) sleepWatch = undefined;
  };
}

/**
 * Stop handing out the open connections: requests under way finish on theirs, which then close;
 * the next request to each origin connects afresh. Returns how many pools and proxy agents it retired.
 */
export function retireUpstreamConnections(): number {
  const old = dropAllRoutes();
  for (const d of old) d.close().catch(() => undefined);
  return old.length;
}

/**
 * Use the outbound proxy these settings and this environment name (upstream-proxy.ts). A changed
 * plan closes the current connections once their requests finish; later requests use the new one.
 */
export function useUpstreamProxy(settings: ProxySettings, env: Record<string, string | undefined> = process.env): ProxyPlan {
  const next = proxyPlan(settings, env);
  if (plan && plan.key === next.key) return plan;
  // requests under way (long streams too) finish on the old connections, which then close
  if (plan !== undefined) retireUpstreamConnections();
  plan = next;
  return plan;
}

/** The plan in use (the environment's, until the daemon applies its settings). */
export function upstreamProxyPlan(): ProxyPlan {
  return (plan ??= proxyPlan({ upstreamProxy: 'env', noProxy: [] }, process.env));
}

function routeFor(origin: string, connectTimeoutMs: number): Route {
  const key = `${origin}|${connectTimeoutMs}`;
  let route = routes.get(key);
  if (!route) {
    route = newRoute(origin, connectTimeoutMs);
    routes.set(key, route);
  }
  return route;
}

function newRoute(origin: string, connectTimeoutMs: number): Route {
  const choice = proxyFor(upstreamProxyPlan(), origin);
  if (choice === undefined) return { kind: 'direct', pool: new Pool(origin, { connectTimeout: connectTimeoutMs, ...POOL_OPTIONS }) };
  if ('problem' in choice) return { kind: 'refused', problem: choice.problem };
  const agentKey = `${choice.url}|${connectTimeoutMs}`;
  let proxy = proxyAgents.get(agentKey);
  if (!proxy) {
    // undici's whole index, only when a proxy is in use: its ProxyAgent opens tunnels with the
    // connect() API the index attaches to every dispatcher (the lean path above never loads it)
    const { ProxyAgent } = requireUndici('undici') as { ProxyAgent: new (opts: Record<string, unknown>) => Pool };
    const pools = new Set<Pool>();
    const agent = new ProxyAgent({
      uri: choice.url,
      // An http:// upstream is asked for by its full URL, as curl does; https:// goes through a
      // CONNECT tunnel, so the proxy never sees the provider key.
      proxyTunnel: false,
      connectTimeout: connectTimeoutMs,
      ...POOL_OPTIONS,
      factory: (o: string, opts: object) => {
        const pool = new Pool(o, opts);
        pools.add(pool);
        return pool;
      },
    });
    proxy = { agent, pools, display: displayOrigin(choice.url), source: choice.source };
    proxyAgents.set(agentKey, proxy);
  }
  return { kind: 'proxy', proxy };
}

/** Forget every route; returns the dispatchers to close. */
function dropAllRoutes(): Pool[] {
  const direct = [...routes.values()].flatMap((r) => (r.kind === 'direct' ? [r.pool] : []));
  const agents = [...proxyAgents.values()].map((e) => e.agent);
  routes.clear();
  proxyAgents.clear();
  return [...direct, ...agents];
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
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED', 'HPE_INVALID_CONSTANT', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (e && typeof e.code === 'string') return e.code;
  if (e && e.cause && typeof e.cause.code === 'string') return e.cause.code;
  return undefined;
}

/** The proxy a request went through, as messages name it. */
export interface ProxyVia {
  display: string;
  source: string;
}

const UNTRUSTED_CERT = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/** The status a proxy answered a tunnel request with (undici says it only in its message). */
function proxyRefusal(err: unknown): number | undefined {
  const message = (err as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return undefined;
  const m = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(message) ?? /^Proxy Authentication Required \((407)\)$/.exec(message);
  return m ? Number(m[1]) : undefined;
}

const REFUSAL_REASONS: Record<number, string> = {
  407: 'it wants a user and password it accepts, given in the proxy URL as http://user:password@host:port',
  403: 'it does not allow that host',
};

/**
 * Any error from a request or from reading its body, as an UpstreamError. Exported so code that
 * consumes a response body (streams) maps body errors the same way. `via`: the request went through
 * this proxy, so a connection that failed was one to the proxy, and a refusal was the proxy's.
 */
export function toUpstreamError(
  err: unknown,
  url: string,
  timeouts?: { connectTimeoutMs?: number; headersTimeoutMs?: number; idleTimeoutMs?: number },
  via?: ProxyVia,
): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const where = displayOrigin(url);
  const code = errorCode(err);
  const name = (err as { name?: unknown } | null)?.name;
  const proxy = via ? `the proxy ${via.display} (${via.source})` : '';
  const refused = via ? proxyRefusal(err) : undefined;
  if (refused !== undefined) {
    const reason = REFUSAL_REASONS[refused] ?? (refused >= 500 ? 'it could not reach that host' : 'it refused');
    return new UpstreamError('upstream_unreachable', `${capitalise(proxy)} answered ${refused} when asked for ${where}: ${reason}.`);
  }
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') {
    return new UpstreamError('aborted', `The request to ${where} was aborted.`);
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    const target = via ? `${proxy} on the way to ${where}` : where;
    return new UpstreamError('upstream_timeout', `Connecting to ${target} timed out${ms(timeouts?.connectTimeoutMs)}.`);
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
  if (code && UNTRUSTED_CERT.has(code)) {
    // the usual cause on a company network: a proxy or firewall that re-signs TLS with its own CA
    const through = via ? `, reached through ${proxy},` : '';
    return new UpstreamError(
      'upstream_unreachable',
      `The certificate of ${where}${through} is not trusted (${code}). If your network inspects TLS, start svc-proxy with NODE_EXTRA_CA_CERTS naming its CA certificate file.`,
    );
  }
  if (code && UNREACHABLE.has(code)) {
    if (via && !code.startsWith('ERR_TLS') && code !== 'CERT_HAS_EXPIRED') {
      return new UpstreamError('upstream_unreachable', `Could not connect to ${proxy} on the way to ${where} (${code}).`);
    }
    return new UpstreamError('upstream_unreachable', `Could not connect to ${where} (${code}).`);
  }
  return new UpstreamError('upstream_unreachable', `The request to ${where}${via ? ` through ${proxy}` : ''} failed${code ? ` (${code})` : ''}.`);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function ms(value: number | undefined, word = 'after'): string {
  return value === undefined ? '' : ` ${word} ${value} ms`;
}

export async function upstreamRequest(req: UpstreamRequest): Promise<UpstreamResponse> {
  if (req.signal?.aborted) throw new UpstreamError('aborted', `The request to ${displayOrigin(req.url)} was aborted.`);
  const { origin, path } = splitUrl(req.url);
  if (sleepWatch) {
    const slept = sleepWatch.detector.check();
    if (slept !== undefined) sleepWatch.onWake(slept, retireUpstreamConnections());
  }
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
  if (route.kind === 'proxy') Object.assign(options, { origin, headers: { ...req.headers } });
  const dispatcher = route.kind === 'direct' ? route.pool : route.proxy.agent;
  const started = performance.now();
  let res: Dispatcher.ResponseData;
  try {
    res = await poolRequest.call(dispatcher, options);
  } catch (err) {
    const via = route.kind === 'proxy' ? route.proxy : undefined;
    if (!closedUnderUs(err, req, started)) throw toUpstreamError(err, req.url, req, via);
    try {
      res = await poolRequest.call(dispatcher, options);
    } catch (again) {
      throw toUpstreamError(again, req.url, req, via);
    }
  }
  const headers: Record<string, string | string[] | undefined> = {};
  for (const name in res.headers) {
    if (exposeHeader(name)) headers[name] = res.headers[name];
  }
  return { status: res.statusCode, headers, body: res.body };
}

const CLOSED_UNDER_US = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
/** A request written into a connection its server had already closed fails within a round trip. */
const STALE_FAILURE_MS = 1_000;

/**
 * Whether a request failed the way one does that was written into a kept-alive connection the
 * upstream closed while it sat in the pool (its idle timeout fired as the request went out): reset
 * or closed before any answer, at once. A server that had closed the connection never read it, so
 * it goes once more, on another connection; undici itself repeats only idempotent methods, and
 * every model call is a POST. A failure that took longer (a server that died while working on the request) is not
 * repeated here: the client decides, or the group falls back. Bodies that were streams cannot be
 * sent twice.
 */
function closedUnderUs(err: unknown, req: UpstreamRequest, started: number): boolean {
  const code = errorCode(err);
  if (code === undefined || !CLOSED_UNDER_US.has(code) || req.signal?.aborted) return false;
  if (req.body !== undefined && typeof req.body !== 'string' && !Buffer.isBuffer(req.body)) return false;
  return performance.now() - started < STALE_FAILURE_MS;
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
  for (const [key, route] of routes) {
    if (route.kind !== 'direct') continue;
    const s = route.pool.stats;
    if (s.running + s.pending + s.queued > 0 || s.connected <= keep) continue;
    routes.delete(key);
    shed.push(route.pool);
  }
  // a proxy's agent holds one pool per origin behind it: shed it whole, when none of them is busy
  for (const [key, proxy] of proxyAgents) {
    let busy = 0;
    let connected = 0;
    for (const pool of proxy.pools) {
      const s = pool.stats;
      busy += s.running + s.pending + s.queued;
      connected += s.connected;
    }
    if (busy > 0 || connected <= keep) continue;
    proxyAgents.delete(key);
    for (const [routeKey, route] of routes) if (route.kind === 'proxy' && route.proxy === proxy) routes.delete(routeKey);
    shed.push(proxy.agent);
  }
  await Promise.all(shed.map((pool) => closeWithin(pool, graceMs)));
  return shed.length;
}

/** Close every pool (daemon shutdown): graceful first, then forced after a short grace. */
export async function closeUpstreamPools(graceMs = 1000): Promise<void> {
  const all = dropAllRoutes();
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
