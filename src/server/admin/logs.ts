/**
 * /admin/logs — the request log: latest entries (memory, then files), the live SSE feed, and the
 * writer's health (for `status`).
 */
import { Hono } from 'hono';
import { OperationError } from '../../config/errors.js';
import { FilterError } from '../../log/filter.js';
import { parseLogFilter, parseLogQuery } from '../../log/query-params.js';
import { SinceError } from '../../log/since.js';
import { logFeedResponse } from './log-feed.js';
import type { AdminModule } from './module.js';

/** Bad filter values are the caller's mistake: 400 with the parser's message. */
export function asBadRequest<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof FilterError || err instanceof SinceError) throw new OperationError(400, err.code, err.message);
    throw err;
  }
}

const MAX_BACKLOG = 2_000;

const logsModule: AdminModule = {
  path: '/logs',
  routes(ctx) {
    return new Hono()
      .get('/', async (c) => {
        const q = asBadRequest(() => parseLogQuery(c.req.query()));
        return c.json({ entries: await ctx.log.query(q) });
      })
      .get('/stream', (c) => {
        const params = c.req.query();
        const filter = asBadRequest(() => parseLogFilter(params));
        const recent = asBadRequest(() => parseLogQuery({ limit: params.recent }).limit);
        return logFeedResponse(ctx.log, { filter, recent: Math.min(recent ?? 0, MAX_BACKLOG) });
      })
      .get('/health', (c) => c.json(ctx.log.health()));
  },
};
export default logsModule;
