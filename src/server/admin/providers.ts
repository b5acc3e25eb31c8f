/** /admin/providers — built-in providers: list, connect (credential in), disconnect, base URL, headers. */
import { Hono } from 'hono';
import { connectProvider, disconnectProvider, listProviders, setProviderBaseUrl, setProviderHeaders } from '../../secrets/operations.js';
import type { AdminModule } from './module.js';
import { jsonBody } from './respond.js';

const providersModule: AdminModule = {
  path: '/providers',
  routes(ctx) {
    return new Hono()
      .get('/', async (c) => c.json({ providers: await listProviders(ctx.store.current(), ctx.credentials) }))
      .put('/:name/credential', async (c) => {
        const body = await jsonBody(c);
        return c.json(await connectProvider(ctx.credentials, c.req.param('name'), body.credential, { insecureStorage: body.insecureStorage === true }));
      })
      .delete('/:name/credential', async (c) => c.json(await disconnectProvider(ctx.store.current(), ctx.credentials, c.req.param('name'))))
      .patch('/:name', async (c) => {
        const body = await jsonBody(c);
        return c.json(await setProviderBaseUrl(ctx.store, c.req.param('name'), body.baseUrl ?? null));
      })
      .put('/:name/headers', async (c) => {
        const body = await jsonBody(c);
        return c.json(await setProviderHeaders(ctx.store, c.req.param('name'), { authHeader: body.authHeader, headers: body.headers }));
      });
  },
};
export default providersModule;
