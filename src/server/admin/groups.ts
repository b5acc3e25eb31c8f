/**
 * /admin/groups — model groups, the same operations the CLI runs offline. Model names travel in
 * bodies and query strings, never in a path segment: they may contain "/".
 */
import { Hono } from 'hono';
import { addGroup, connectedVia, listGroups, removeGroup, setGroupModel, showGroup, unsetGroupModel } from '../../config/groups.js';
import type { AdminModule } from './module.js';
import { jsonBody } from './respond.js';

const groupsModule: AdminModule = {
  path: '/groups',
  routes(ctx) {
    return new Hono()
      .get('/', (c) => c.json({ groups: listGroups(ctx.store.current()) }))
      .post('/', async (c) => {
        const body = await jsonBody(c);
        return c.json(await addGroup(ctx.store, { slug: body.slug, models: body.models }), 201);
      })
      .get('/:slug', async (c) => {
        const config = ctx.store.current();
        const detail = await showGroup(config, c.req.param('slug'), {
          host: ctx.daemon.host,
          port: ctx.daemon.port,
          connected: connectedVia(config, ctx.credentials),
        });
        return c.json(detail);
      })
      .delete('/:slug', async (c) => c.json(await removeGroup(ctx.store, c.req.param('slug'))))
      // Add a name, or replace its targets: {name, targets: ["provider/model", …] | "a/x,b/y"}.
      .put('/:slug/models', async (c) => {
        const body = await jsonBody(c);
        return c.json(await setGroupModel(ctx.store, c.req.param('slug'), body.name, body.targets));
      })
      .delete('/:slug/models', async (c) => c.json(await unsetGroupModel(ctx.store, c.req.param('slug'), c.req.query('name'))));
  },
};
export default groupsModule;
