/** /admin/endpoints — custom upstream endpoints (format a or b, optional credential). */
import { Hono } from 'hono';
import { addEndpoint, listEndpoints, removeEndpoint } from '../../secrets/operations.js';
import type { AdminModule } from './module.js';
import { jsonBody } from './respond.js';

const endpointsModule: AdminModule = {
  path: '/endpoints',
  routes(ctx) {
    return new Hono()
      .get('/', async (c) => c.json({ endpoints: await listEndpoints(ctx.store.current(), ctx.credentials) }))
      .post('/', async (c) => {
        const body = await jsonBody(c);
        const added = await addEndpoint(ctx.store, ctx.credentials, {
          slug: body.slug,
          url: body.url,
          format: body.format,
          credential: body.credential,
          insecureStorage: body.insecureStorage === true,
          authHeader: body.authHeader,
          headers: body.headers,
        });
        return c.json(added, 201);
      })
      .delete('/:slug', async (c) => c.json(await removeEndpoint(ctx.store, ctx.credentials, c.req.param('slug'))));
  },
};
export default endpointsModule;
