/**
 * The admin API (hono), loaded on first use by lazy-listener.ts (which answers /health itself).
 * Everything under /admin/ needs the admin token from the 0600
 * `admin-token` file in the state dir — never a service key.
 *
 * Adding a resource: write src/server/admin/<name>.ts default-exporting an AdminModule, then add
 * one line to ADMIN_MODULES below.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { openaiErrorBody } from '../../protocols/errors.js';
import type { AdminContext } from './context.js';
import type { AdminModule } from './module.js';
import { errorResponse } from './respond.js';

const ADMIN_MODULES: ReadonlyArray<() => Promise<{ default: AdminModule }>> = [
  () => import('./status.js'),
  () => import('./keys.js'),
  () => import('./providers.js'),
  () => import('./endpoints.js'),
  () => import('./locals.js'),
  () => import('./config.js'),
  () => import('./daemon.js'),
  () => import('./groups.js'),
  () => import('./logs.js'),
  () => import('./stats.js'),
  () => import('./models.js'),
];

export interface AdminAppOptions {
  adminToken: string;
  report(err: unknown): void;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export async function createAdminApp(ctx: AdminContext, opts: AdminAppOptions): Promise<Hono> {
  const expected = digest(opts.adminToken);
  const app = new Hono();

  app.use('/admin/*', async (c, next) => {
    const header = c.req.header('authorization');
    const token = header && header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
    if (!token) {
      return c.json({ error: { code: 'missing_admin_token', message: 'The admin API needs the admin token from the state directory (admin-token file).' } }, 401);
    }
    // Hashing first gives equal lengths, so the comparison time does not depend on the token.
    if (!timingSafeEqual(digest(token), expected)) {
      return c.json({ error: { code: 'invalid_admin_token', message: 'Wrong admin token (service keys do not work here).' } }, 401);
    }
    await next();
  });

  const modules = await Promise.all(ADMIN_MODULES.map(async (load) => (await load()).default));
  for (const mod of modules) app.route(`/admin${mod.path}`, mod.routes(ctx));

  app.notFound((c) =>
    c.json(
      openaiErrorBody({
        status: 404,
        code: 'not_found',
        message: `No route for ${c.req.path.slice(0, 200)}. The proxy bases are /protocol-a/v1 (OpenAI) and /protocol-b (Anthropic).`,
      }),
      404,
    ),
  );
  app.onError((err, c) => errorResponse(c, err, opts.report));
  return app;
}
