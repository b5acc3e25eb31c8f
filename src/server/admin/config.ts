/** /admin/config — re-read config.json now (the daemon also does this by itself on edits). */
import { Hono } from 'hono';
import type { AdminModule } from './module.js';

const configModule: AdminModule = {
  path: '/config',
  routes(ctx) {
    return new Hono().post('/reload', async (c) => {
      const outcome = await ctx.reloadConfig();
      return c.json({ reloaded: true, changed: outcome.changed });
    });
  },
};
export default configModule;
