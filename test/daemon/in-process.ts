/** An in-process daemon on a free port in a temp state dir, with a recording proxy handler. */
import { readFile } from 'node:fs/promises';
import type { ProxyDeps, ProxyHandler } from '../../src/routing/proxy-handler.js';
import { silentLogger, type DaemonLogger } from '../../src/daemon/logger.js';
import { startDaemon, type RunningDaemon, type StartDaemonOptions } from '../../src/daemon/runtime.js';
import { http, tempStateDir, testKeychainService, type HttpResult } from './harness.js';

export interface InProcessDaemon {
  daemon: RunningDaemon;
  dir: string;
  deps: ProxyDeps;
  origin: string;
  token: string;
  logLines: string[];
  admin(method: string, path: string, body?: unknown, token?: string): Promise<HttpResult>;
}

/** Answers 200 {"endpoint":…} after auth, so tests can tell "past auth" from a refusal. */
export function echoHandler(): (deps: ProxyDeps) => ProxyHandler {
  return () => ({
    async handle(_req, res, route, caller) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ endpoint: route.endpoint, keyId: caller.keyId }));
    },
    async close() {},
  });
}

export async function startInProcess(opts: Partial<StartDaemonOptions> & { logger?: DaemonLogger } = {}): Promise<InProcessDaemon> {
  const dir = opts.stateDir ?? (await tempStateDir());
  const logLines: string[] = [];
  let captured: ProxyDeps | undefined;
  const factory = opts.createProxyHandler ?? echoHandler();
  const daemon = await startDaemon({
    port: 0,
    logger: {
      info: (m) => logLines.push(`info ${m}`),
      warn: (m) => logLines.push(`warn ${m}`),
      error: (m, e) => logLines.push(`error ${m} ${e instanceof Error ? e.message : ''}`),
    },
    ...opts,
    // merged, not replaced: a test that passes env (a credential variable, a dead D-Bus address)
    // still gets a keychain service of its own instead of the default "svc-proxy"
    env: { SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), ...opts.env },
    stateDir: dir,
    createProxyHandler: (deps) => {
      captured = deps;
      return factory(deps);
    },
  });
  const origin = `http://127.0.0.1:${daemon.port}`;
  const token = (await readFile(daemon.paths.adminToken, 'utf8')).trim();
  return {
    daemon,
    dir,
    deps: captured as ProxyDeps,
    origin,
    token,
    logLines,
    admin: (method, path, body, t = token) =>
      http(method, `${origin}${path}`, {
        headers: { authorization: `Bearer ${t}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

export { silentLogger };
