/**
 * The listener for everything that is not a proxy base. /health is answered here; the admin API
 * (hono, its node adapter and the resource modules: about 5 MB of resident memory) is loaded on
 * the first other request, so a daemon that only proxies and answers health checks never pays
 * for it. A failed load is retried by the next request rather than remembered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminContext } from './context.js';
import type { AdminAppOptions } from './index.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

async function loadAdminListener(ctx: AdminContext, opts: AdminAppOptions): Promise<Listener> {
  const [{ createAdminApp }, { getRequestListener }] = await Promise.all([import('./index.js'), import('@hono/node-server')]);
  const app = await createAdminApp(ctx, opts);
  return getRequestListener(app.fetch, { overrideGlobalObjects: false });
}

function isHealthCheck(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '';
  return url === '/health' || url.startsWith('/health?');
}

export function lazyAdminListener(ctx: AdminContext, opts: AdminAppOptions & { version: string }): Listener {
  const health = Buffer.from(JSON.stringify({ status: 'ok', version: opts.version }));
  let admin: Promise<Listener> | undefined;
  return (req, res) => {
    if (isHealthCheck(req)) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': health.length });
      res.end(req.method === 'HEAD' ? undefined : health);
      return undefined;
    }
    admin ??= loadAdminListener(ctx, opts).catch((err: unknown) => {
      admin = undefined;
      throw err;
    });
    return admin.then((listener) => listener(req, res));
  };
}
