/** /admin/locals — local model servers (Chat Completions, no credential). */
import { Hono } from 'hono';
import { addLocal, listLocals, removeLocal } from '../../secrets/operations.js';
import type { AdminModule } from './module.js';
import { jsonBody } from './respond.js';

const localsModule: AdminModule = {
  path: '/locals',
  routes(ctx) {
    return new Hono()
      .get('/', (c) => c.json({ locals: listLocals(ctx.store.current()) }))
      .post('/', async (c) => {
        const body = await jsonBody(c);
        return c.json(await addLocal(ctx.store, { slug: body.slug, url: body.url }), 201);
      })
      .delete('/:slug', async (c) => c.json(await removeLocal(ctx.store, c.req.param('slug'))));
  },
};
export default localsModule;
