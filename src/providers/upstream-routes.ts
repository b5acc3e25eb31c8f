/**
 * Which connection an upstream request goes out on: a keep-alive Pool per origin, or the agent
 * of the outbound proxy the settings and the environment name (upstream-proxy.ts). Connections
 * are retired — requests under way keep theirs, the next request connects afresh — when the
 * proxy changes, when the machine slept (sleep-detector.ts) or its network changed
 * (network-watch.ts); a burst's leftovers are shed by the idle collector; all close at shutdown.
 */
import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool } from 'undici';
import { displayOrigin } from './base-url.js';
import { SleepDetector, type SleepClocks } from './sleep-detector.js';
import { proxyFor, proxyPlan, type ProxyPlan, type ProxySettings } from './upstream-proxy.js';

// Only the Pool and its request() API: undici's index also loads fetch, WebSocket, caches, mocks
// and more (about 8 MB of RSS an idle daemon would carry for nothing). The index is what attaches
// request() to every dispatcher, so it is called here as a plain function on the pool.
// These are undici-internal paths (version pinned in package-lock); the upstream tests catch a move.
const requireUndici = createRequire(import.meta.url);
const Pool = requireUndici('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
export type Pool = UndiciPool;
export const poolRequest = requireUndici('undici/lib/api/api-request.js') as (this: Pool, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
/** The error undici's request API fails an aborted request with (upstream-answer.ts fails its own with it too). */
export const { RequestAbortedError } = requireUndici('undici/lib/core/errors.js') as { RequestAbortedError: new () => Error };

/** How an origin is reached: its own Pool, a proxy's agent, or not at all (an unusable proxy). */
export type Route = { kind: 'direct'; pool: Pool } | { kind: 'proxy'; proxy: ProxyAgentEntry } | { kind: 'refused'; problem: string };

export interface ProxyAgentEntry {
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

/** Before each upstream request: when the machine slept since the last one, retire every connection. */
export function noticeSleep(): void {
  if (!sleepWatch) return;
  const slept = sleepWatch.detector.check();
  if (slept !== undefined) sleepWatch.onWake(slept, retireUpstreamConnections());
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

export function routeFor(origin: string, connectTimeoutMs: number): Route {
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
