/** /admin/keys — create, list, revoke service keys. A revoke is in force before the response. */
import { Hono } from 'hono';
import { createKey, listKeys } from '../../keys/operations.js';
import type { AdminModule } from './module.js';
import { jsonBody } from './respond.js';

const keysModule: AdminModule = {
  path: '/keys',
  routes(ctx) {
    return new Hono()
      .get('/', (c) => c.json({ keys: listKeys(ctx.store.current(), (id) => ctx.keys.pendingLastUsed(id)) }))
      .post('/', async (c) => {
        const body = await jsonBody(c);
        return c.json(await createKey(ctx.store, body.name), 201);
      })
      // The key is named in the body: names may hold characters that do not survive a URL path.
      .post('/revoke', async (c) => {
        const body = await jsonBody(c);
        return c.json(await ctx.revokeKey(body.key));
      });
  },
};
export default keysModule;
