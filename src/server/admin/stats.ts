/** GET /admin/stats — requests, errors, tokens and latency percentiles by provider, model or key. */
import { Hono } from 'hono';
import { parseLogFilter, parseStatsBy } from '../../log/query-params.js';
import { asBadRequest } from './logs.js';
import type { AdminModule } from './module.js';

const statsModule: AdminModule = {
  path: '/stats',
  routes(ctx) {
    return new Hono().get('/', async (c) => {
      const params = c.req.query();
      const filter = asBadRequest(() => parseLogFilter(params));
      const by = asBadRequest(() => parseStatsBy(params.by));
      return c.json(await ctx.log.stats(filter, by));
    });
  },
};
export default statsModule;
