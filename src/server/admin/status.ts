/** GET /admin/status — what `svc-proxy status` and the TUI header show. */
import { Hono } from 'hono';
import { baseUrls, type BaseUrls } from '../../config/base-urls.js';
import { listKeys } from '../../keys/operations.js';
import { listEndpoints, listLocals, listProviders, type EndpointInfo, type LocalInfo, type ProviderInfo } from '../../secrets/operations.js';
import type { KeychainStatus } from '../../secrets/keychain.js';
import type { LogHealth } from '../../log/writer.js';
import type { ConfigProblem, MemoryStatus } from './context.js';
import type { AdminModule } from './module.js';
import type { ProxyStatus } from '../../providers/upstream-proxy.js';

export interface DaemonStatus {
  running: true;
  pid: number;
  version: string;
  host: string;
  port: number;
  startedAt: string;
  uptimeSeconds: number;
  stateDir: string;
  baseUrls: BaseUrls;
  providers: ProviderInfo[];
  endpoints: EndpointInfo[];
  locals: LocalInfo[];
  keys: { active: number; revoked: number };
  configProblem: ConfigProblem | null;
  keychain: KeychainStatus;
  /** Whether the request log reaches its files (ok: false after a write failure, reported once). */
  requestLog: LogHealth;
  memory: MemoryStatus;
  /** The outbound proxy upstream calls go through, and where the setting comes from (never its credentials). */
  upstreamProxy?: ProxyStatus;
}

const statusModule: AdminModule = {
  path: '/status',
  routes(ctx) {
    return new Hono().get('/', async (c) => {
      const config = ctx.store.current();
      const { daemon } = ctx;
      const keys = listKeys(config);
      const body: DaemonStatus = {
        running: true,
        pid: daemon.pid,
        version: daemon.version,
        host: daemon.host,
        port: daemon.port,
        startedAt: daemon.startedAt.toISOString(),
        uptimeSeconds: Math.floor((Date.now() - daemon.startedAt.getTime()) / 1000),
        stateDir: daemon.stateDir,
        baseUrls: baseUrls(daemon.host, daemon.port),
        providers: await listProviders(config, ctx.credentials),
        endpoints: await listEndpoints(config, ctx.credentials),
        locals: listLocals(config),
        keys: { active: keys.filter((k) => k.state === 'active').length, revoked: keys.filter((k) => k.state === 'revoked').length },
        configProblem: ctx.configProblem(),
        keychain: ctx.keychain(),
        requestLog: ctx.log.health(),
        memory: ctx.memory(),
      };
      const proxy = ctx.upstreamProxy?.();
      if (proxy) body.upstreamProxy = proxy;
      return c.json(body);
    });
  },
};
export default statusModule;
