/** /admin/shutdown — graceful stop (what `svc-proxy stop` asks for). */
import { Hono } from 'hono';
import type { AdminModule } from './module.js';

const daemonModule: AdminModule = {
  path: '/shutdown',
  routes(ctx) {
    return new Hono().post('/', (c) => {
      ctx.requestShutdown();
      return c.json({ stopping: true, pid: ctx.daemon.pid }, 202);
    });
  },
};
export default daemonModule;
